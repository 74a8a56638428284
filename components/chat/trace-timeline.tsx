'use client';

import clsx from 'clsx';
import { type ReactNode, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  AlertIcon,
  CheckIcon,
  ChevronIcon,
  FileIcon,
  InfoIcon,
  ListIcon,
  SearchIcon,
  ShieldIcon,
  SparkIcon,
  Spinner,
  XIcon,
} from '@/components/icons';
import type { TraceEvent } from '@/lib/agent/events';
import { keyed } from './keyed';
import { traceSummary } from './message-view';
import {
  answerNumbers,
  type CitedSource,
  checkSentence,
  fallbackLabel,
  formatMs,
  isSearchTool,
  issuesSentence,
  limitLabel,
  openedSentence,
  openingSentence,
  parseOpenedSummary,
  queryFromSummary,
  searchSentence,
  toolLabel,
  validationLabel,
} from './trace-format';

export type ToolCallEvent = Extract<TraceEvent, { type: 'tool_call' }>;
type Tone = 'neutral' | 'active' | 'good' | 'warn' | 'bad';

const TONES: Record<Tone, string> = {
  neutral: 'bg-slate-100 text-slate-500 ring-slate-200',
  active: 'bg-brand-50 text-brand-600 ring-brand-200',
  good: 'bg-emerald-50 text-emerald-600 ring-emerald-200',
  warn: 'bg-amber-50 text-amber-600 ring-amber-200',
  bad: 'bg-red-50 text-red-600 ring-red-200',
};

function Chip({ children, tone = 'neutral' }: { children: ReactNode; tone?: Tone }) {
  return (
    <span
      className={clsx(
        'inline-flex max-w-full items-center rounded px-1.5 py-0.5 text-[0.7rem] font-medium ring-1 ring-inset',
        tone === 'bad'
          ? 'bg-red-50 text-red-700 ring-red-200'
          : tone === 'warn'
            ? 'bg-amber-50 text-amber-800 ring-amber-200'
            : 'bg-slate-50 text-slate-600 ring-slate-200',
      )}
    >
      <span className="truncate">{children}</span>
    </span>
  );
}

/** The trace's display context: the answer's numbering and whether technical detail is shown. */
interface TraceContext {
  numbers: ReadonlyMap<number, CitedSource> | null;
  technical: boolean;
}

/** One timeline card: a toned icon on the rail, a title, details, and technical detail on demand. */
export function Row({
  icon,
  tone,
  title,
  tech,
  children,
  event,
  ctx,
  pending = false,
  aside,
  testId = 'trace-event',
}: {
  icon: ReactNode;
  tone: Tone;
  title: ReactNode;
  /** Technical detail (tool names, handles, codes, timings), shown only when asked for. */
  tech?: ReactNode;
  children?: ReactNode;
  /** What the card shows (its type and id become data attributes). */
  event: { type: string; id: string };
  ctx: TraceContext;
  pending?: boolean;
  /** A short note beside the title (the research timeline's time). */
  aside?: ReactNode;
  testId?: string;
}) {
  return (
    <li
      className="relative flex gap-3 pb-3 last:pb-0"
      data-testid={testId}
      data-type={event.type}
      data-state={pending ? 'pending' : 'done'}
      data-event-id={event.id}
    >
      <span
        className={clsx(
          'relative z-10 mt-0.5 flex h-6 w-6 flex-none items-center justify-center rounded-full ring-1',
          TONES[tone],
        )}
      >
        {icon}
      </span>
      <div className="min-w-0 flex-1 pt-0.5">
        {aside ? (
          <div className="flex items-start gap-2">
            <p className="min-w-0 flex-1 break-words text-sm text-slate-800">{title}</p>
            <span className="mt-0.5 flex-none text-[0.7rem] text-slate-500 tabular-nums">{aside}</span>
          </div>
        ) : (
          <p className="break-words text-sm text-slate-800">{title}</p>
        )}
        {children ? <div className="mt-1 space-y-1 text-xs text-slate-600">{children}</div> : null}
        {ctx.technical && tech ? (
          <div
            className="mt-1 space-y-1 break-words font-mono text-[0.7rem] text-slate-600"
            data-testid="trace-technical"
          >
            {tech}
          </div>
        ) : null}
      </div>
    </li>
  );
}

/** Scores arrive as 0-1 fractions or 0-100 percentages. */
function percent(value: number): number {
  return Math.round(value <= 1 ? value * 100 : value);
}

function ErrorList({ errors }: { errors: Array<{ code: string; message: string }> }) {
  if (errors.length === 0) return null;
  return (
    <ul className="space-y-1">
      {keyed(errors, (e) => `${e.code}:${e.message}`).map(({ key, item: e }) => (
        <li key={key} className="flex items-start gap-1.5">
          <code className="h-fit flex-none self-start rounded bg-red-50 px-1 font-mono text-[0.68rem] leading-5 text-red-700">
            {e.code}
          </code>
          <span className="min-w-0 break-words font-sans">{e.message}</span>
        </li>
      ))}
    </ul>
  );
}

function filterChips(filters: ToolCallEvent['input']['filters'] | undefined): ReactNode[] {
  if (!filters) return [];
  const chips: ReactNode[] = [];
  if (filters.bucketIds?.length)
    chips.push(
      <Chip key="b">{`in ${filters.bucketIds.length} folder${filters.bucketIds.length === 1 ? '' : 's'}`}</Chip>,
    );
  if (filters.documentIds?.length)
    chips.push(
      <Chip key="d">{`in ${filters.documentIds.length} document${filters.documentIds.length === 1 ? '' : 's'}`}</Chip>,
    );
  if (filters.dateFrom || filters.dateTo)
    chips.push(<Chip key="dt">{`${filters.dateFrom ?? '…'} – ${filters.dateTo ?? '…'}`}</Chip>);
  if (filters.tags?.length) chips.push(<Chip key="t">tags: {filters.tags.join(', ')}</Chip>);
  if (filters.mimeTypes?.length) chips.push(<Chip key="m">{filters.mimeTypes.join(', ')}</Chip>);
  for (const [i, m] of (filters.meta ?? []).entries()) {
    const shown = m.op === 'between' ? `${m.values[0]}–${m.values[1]}` : m.values.join(', ');
    chips.push(<Chip key={`meta${i}`}>{`${m.field} ${m.op} ${shown}`}</Chip>);
  }
  return chips;
}

function ToolRow({
  event,
  call,
  ctx,
}: {
  event: Extract<TraceEvent, { type: 'tool_call' | 'tool_result' }>;
  call: ToolCallEvent | undefined;
  ctx: TraceContext;
}) {
  const pending = event.type === 'tool_call';
  const input = event.type === 'tool_call' ? event.input : (event.input ?? call?.input);
  const search = isSearchTool(event.tool);
  const query =
    input?.query ?? input?.reference ?? (event.type === 'tool_result' ? queryFromSummary(event.summary) : null);
  const chips = filterChips(input?.filters);
  const icon = pending ? (
    <Spinner />
  ) : event.tool === 'open_citation' ? (
    <FileIcon className="h-3.5 w-3.5" />
  ) : search ? (
    <SearchIcon className="h-3.5 w-3.5" />
  ) : (
    <InfoIcon className="h-3.5 w-3.5" />
  );
  const failed = event.type === 'tool_result' && !event.ok;
  const tone: Tone = pending
    ? 'active'
    : failed
      ? event.error?.code === 'NO_RESULTS'
        ? 'warn'
        : 'bad'
      : event.tool === 'open_citation'
        ? 'good'
        : 'neutral';
  const opened = event.type === 'tool_result' && event.ok ? parseOpenedSummary(event.summary) : null;
  let title: string;
  if (event.tool === 'follow_reference')
    title =
      event.type === 'tool_result'
        ? `Followed the reference “${query ?? ''}” — ${event.hits} passage${event.hits === 1 ? '' : 's'}`
        : `Following the reference “${query ?? ''}”…`;
  else if (event.tool === 'read_opening')
    title = openingSentence(query || null, event.type === 'tool_result' ? (failed ? 0 : event.hits) : null);
  else if (search) title = searchSentence(query, event.type === 'tool_result' ? (failed ? 0 : event.hits) : null);
  else if (event.tool === 'open_citation')
    title = pending
      ? 'Opening a passage…'
      : opened
        ? openedSentence(opened, ctx.numbers)
        : failed
          ? 'Could not open a passage'
          : 'Opened a passage';
  else if (event.tool === 'get_document_metadata')
    title = pending ? 'Reading document details…' : 'Read the document’s details';
  else if (event.tool === 'visual_interpretation')
    title = pending
      ? 'Reading a page as a picture…'
      : failed
        ? 'Could not read the page as a picture'
        : // "Read report.pdf p.3 as a picture (640×480 px, …) as [2]": the sentence without the measurements
          `${event.summary.split(' (')[0] ?? toolLabel(event.tool)} (a vision model’s reading, not the document’s words)`;
  else title = toolLabel(event.tool);
  const tech = [
    `tool ${event.tool}`,
    input?.mode ? `mode ${input.mode}` : null,
    input?.handle ? `result ${input.handle}` : null,
    event.type === 'tool_result' ? event.summary : null,
    event.type === 'tool_result' ? formatMs(event.ms) : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <Row
      event={event}
      ctx={ctx}
      pending={pending}
      icon={icon}
      tone={tone}
      title={title}
      tech={
        <>
          <p>{tech}</p>
          {event.type === 'tool_result' && event.error ? <ErrorList errors={[event.error]} /> : null}
        </>
      }
    >
      {chips.length > 0 ? <div className="flex flex-wrap gap-1">{chips}</div> : null}
      {event.type === 'tool_result' && event.error && event.error.code !== 'NO_RESULTS' ? (
        <p className="text-slate-600">{event.error.message}</p>
      ) : null}
      {event.type === 'tool_result' && event.error?.suggestion ? (
        <p className="text-slate-600">{event.error.suggestion}</p>
      ) : null}
    </Row>
  );
}

/** One card of the trace timeline. */
export function TraceRow({
  event,
  call,
  ctx = { numbers: null, technical: false },
  rewriting = false,
  question,
}: {
  event: TraceEvent;
  call?: ToolCallEvent | undefined;
  ctx?: TraceContext;
  /** For a failed check: a rewrite followed. */
  rewriting?: boolean;
  /** The question asked (a plan's sub-query that only repeats it is not named). */
  question?: string | undefined;
}) {
  switch (event.type) {
    case 'plan': {
      const c = event.constraints;
      const needs: string[] = [];
      if (c.minSearches > 1) needs.push(`${c.minSearches} searches`);
      if (c.minOpenCitations > 1) needs.push(`${c.minOpenCitations} sources read`);
      if (c.requiredTopics.length) needs.push(`topics: ${c.requiredTopics.join(', ')}`);
      if (c.exactQuotes.length) needs.push(`word for word: ${c.exactQuotes.join(', ')}`);
      if (c.requiredSections.length) needs.push(`sections: ${c.requiredSections.join(', ')}`);
      if (c.conflictRule) needs.push(`conflicts: ${c.conflictRule}`);
      const chips = filterChips(event.filters);
      // Sub-queries worth naming: not just the question again.
      const plain = (q: string) =>
        q
          .toLowerCase()
          .replace(/[^\p{L}\p{N}]+/gu, ' ')
          .trim();
      const looksFor = event.subQueries.filter((q) => plain(q) !== plain(question ?? ''));
      return (
        <Row
          event={event}
          ctx={ctx}
          icon={<ListIcon className="h-3.5 w-3.5" />}
          tone="neutral"
          title={
            looksFor.length > 0
              ? `Planned what to look for: ${looksFor.map((q) => `“${q}”`).join(', ')}`
              : 'Planned how to search your documents'
          }
          tech={
            <>
              <p>{`intent ${event.intent} · ${event.source === 'model' ? 'plan by the model' : 'default plan'} · recommended ${event.recommendedMode} mode`}</p>
              {event.steps.length > 0 ? (
                <ol className="list-decimal space-y-0.5 pl-4">
                  {keyed(event.steps, (s) => s).map(({ key, item }) => (
                    <li key={key}>{item}</li>
                  ))}
                </ol>
              ) : null}
              {event.buckets.length > 0 ? <p>buckets: {event.buckets.join(', ')}</p> : null}
            </>
          }
        >
          {chips.length > 0 ? <div className="flex flex-wrap gap-1">{chips}</div> : null}
          {needs.length > 0 ? <p>You asked for: {needs.join(' · ')}</p> : null}
        </Row>
      );
    }
    case 'tool_call':
    case 'tool_result':
      return <ToolRow event={event} call={call} ctx={ctx} />;
    case 'validation':
      return (
        <Row
          event={event}
          ctx={ctx}
          icon={event.passed ? <CheckIcon className="h-3.5 w-3.5" /> : <XIcon className="h-3.5 w-3.5" />}
          tone={event.passed ? 'good' : 'bad'}
          title={checkSentence(event.stage, event.passed, event.errors, rewriting)}
          tech={
            <>
              <p>{`${validationLabel(event.stage, event.attempt)} · ${event.passed ? 'passed' : `failed ${event.errors.length}`}`}</p>
              <ErrorList errors={event.errors} />
            </>
          }
        />
      );
    case 'reprompt':
      return (
        <Row
          event={event}
          ctx={ctx}
          icon={<SparkIcon className="h-3.5 w-3.5" />}
          tone="warn"
          title="Asked the model to rewrite the answer with what the sources say"
          tech={
            <>
              <p>{`reprompt ${event.attempt} · ${event.codes.join(', ')} · ${event.remainingToolCalls} tool calls left`}</p>
              <details>
                <summary className="cursor-pointer font-sans text-slate-600 hover:text-slate-800">
                  Message sent to the model
                </summary>
                <pre className="mt-1 whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-[0.7rem] text-slate-700">
                  {event.message}
                </pre>
              </details>
            </>
          }
        />
      );
    case 'draft_rejected':
      return (
        <Row
          event={event}
          ctx={ctx}
          icon={<XIcon className="h-3.5 w-3.5" />}
          tone="bad"
          title={`Set draft ${event.attempt} aside${event.errors.length > 0 ? `: ${issuesSentence(event.errors)}` : ''}`}
          tech={<p>{`draft_rejected · ${event.errors.map((e) => e.code).join(', ')}`}</p>}
        />
      );
    case 'limit':
      return (
        <Row
          event={event}
          ctx={ctx}
          icon={<AlertIcon className="h-3.5 w-3.5" />}
          tone="warn"
          title={limitLabel(event.limit)}
          tech={<p>{`limit ${event.limit} = ${event.value} · ${event.detail}`}</p>}
        />
      );
    case 'clarify':
      return (
        <Row
          event={event}
          ctx={ctx}
          icon={<InfoIcon className="h-3.5 w-3.5" />}
          tone="warn"
          title="The question needs clarifying"
          tech={<p>{event.clarification.type}</p>}
        >
          <p>{event.clarification.question}</p>
        </Row>
      );
    case 'quality':
      return (
        <Row
          event={event}
          ctx={ctx}
          icon={<SparkIcon className="h-3.5 w-3.5" />}
          tone={event.action === 'accept' ? 'good' : 'warn'}
          title={`Rated the answer: ${percent(event.score)}%${event.action === 'retry' ? ' — trying once more' : ''}`}
          tech={
            <p>
              {[
                `quality ${event.action}`,
                ...Object.entries(event.dimensions).map(([k, v]) => `${k} ${percent(v)}%`),
              ].join(' · ')}
            </p>
          }
        />
      );
    case 'fallback':
      return (
        <Row
          event={event}
          ctx={ctx}
          icon={<AlertIcon className="h-3.5 w-3.5" />}
          tone="warn"
          title={fallbackLabel(event.stage)}
          tech={<p>{`fallback ${event.stage} · ${event.reason}`}</p>}
        />
      );
    case 'final': {
      const tone: Tone = event.status === 'complete' ? 'good' : event.status === 'stopped' ? 'warn' : 'bad';
      const sources = `${event.citations} source${event.citations === 1 ? '' : 's'}`;
      const title =
        event.status === 'complete'
          ? `Answered from ${sources}${event.extractive ? ', quoting your documents (extractive)' : ''}`
          : event.status === 'stopped'
            ? 'Stopped before the answer was finished'
            : 'The answer could not be completed';
      return (
        <Row
          event={event}
          ctx={ctx}
          icon={<CheckIcon className="h-3.5 w-3.5" />}
          tone={tone}
          title={title}
          tech={
            <p>
              {[
                `final ${event.status}`,
                `${event.confidence} confidence`,
                event.insufficiencies > 0 ? `${event.insufficiencies} gaps` : null,
                `${event.mode} mode`,
                event.note,
              ]
                .filter(Boolean)
                .join(' · ')}
            </p>
          }
        />
      );
    }
    case 'error':
      return (
        <Row
          event={event}
          ctx={ctx}
          icon={<AlertIcon className="h-3.5 w-3.5" />}
          tone="bad"
          title="Something went wrong in this step"
          tech={<ErrorList errors={[{ code: `${event.stage}: ${event.code}`, message: event.message }]} />}
        />
      );
  }
}

/** A live label for what the agent is doing now (the newest event). */
export function currentActivity(trace: TraceEvent[]): string {
  const last = trace[trace.length - 1];
  if (!last) return 'Starting…';
  switch (last.type) {
    case 'plan':
      return 'Planned the search';
    case 'tool_call':
      return last.tool === 'open_citation'
        ? 'Opening a passage…'
        : last.tool === 'read_opening'
          ? openingSentence(last.input.query || null, null)
          : isSearchTool(last.tool)
            ? searchSentence(last.input.query ?? last.input.reference ?? null, null)
            : 'Reading document details…';
    case 'tool_result':
      return last.tool === 'open_citation' ? 'Reading the passage…' : 'Reviewing what was found…';
    case 'validation':
      return last.passed ? 'The draft checks out' : 'Checking the draft against your documents…';
    case 'reprompt':
      return 'Rewriting the answer…';
    case 'draft_rejected':
      return 'Rewriting a rejected draft…';
    case 'final':
      return 'Finishing…';
    default:
      return 'Working…';
  }
}

/**
 * The agent's trace beside an answer: every plan, search, opened source, check, revision, limit and fallback, as
 * cards updated in place. Collapsible; starts open while the answer runs.
 */
/** The footer switch between plain-language cards and their technical details (event names, codes, raw values). */
export function TechnicalToggle({ technical, onToggle }: { technical: boolean; onToggle: () => void }) {
  return (
    <div className="flex justify-end px-3 pb-2">
      <button
        type="button"
        aria-pressed={technical}
        onClick={onToggle}
        className="rounded px-1.5 py-0.5 text-xs text-slate-600 underline decoration-slate-300 underline-offset-2 hover:text-slate-900"
      >
        {technical ? 'Hide technical details' : 'Show technical details'}
      </button>
    </div>
  );
}

export function TraceTimeline({
  trace,
  running,
  calls,
  defaultOpen,
  citations,
  question,
}: {
  question?: string | undefined;
  trace: TraceEvent[];
  running: boolean;
  /** The final answer's sources: the trace shows their numbers (null while the answer runs). */
  citations: readonly CitedSource[] | null;
  /** Tool calls seen live, by id (their results replace them in the message; the query stays visible). */
  calls?: ReadonlyMap<string, ToolCallEvent> | undefined;
  defaultOpen: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const [toggled, setToggled] = useState(false);
  const [technical, setTechnical] = useState(false);
  const ctx = useMemo(
    () => ({ numbers: citations ? answerNumbers(citations) : null, technical }),
    [citations, technical],
  );
  const wasRunning = useRef(running);
  const listId = useId();
  // Open while the answer is written; fold away when it is done, unless the reader chose otherwise.
  useEffect(() => {
    if (wasRunning.current && !running && !toggled) setOpen(false);
    if (!wasRunning.current && running && !toggled) setOpen(true);
    wasRunning.current = running;
  }, [running, toggled]);
  const s = traceSummary(trace);
  if (trace.length === 0 && !running) return null;
  const summary = [
    `${s.searches} search${s.searches === 1 ? '' : 'es'}`,
    `${s.opened} passage${s.opened === 1 ? '' : 's'} read`,
    s.failedChecks > 0 ? `${s.failedChecks} failed check${s.failedChecks === 1 ? '' : 's'}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <section
      className="rounded-lg border border-slate-200 bg-white/70"
      data-testid="trace"
      aria-label="How this answer was found"
    >
      <button
        type="button"
        onClick={() => {
          setToggled(true);
          setOpen((o) => !o);
        }}
        aria-expanded={open}
        aria-controls={listId}
        className="flex w-full items-center gap-2 px-3 py-2 text-left text-xs text-slate-600 hover:bg-slate-50"
      >
        <ChevronIcon className={clsx('h-3.5 w-3.5 flex-none transition-transform', open && 'rotate-90')} />
        <ShieldIcon className="h-3.5 w-3.5 flex-none text-slate-400" />
        <span className="flex-none font-semibold text-slate-700">How this was found</span>
        <span className="hidden truncate sm:inline">{summary}</span>
        {running ? (
          <span className="ml-auto flex min-w-0 items-center gap-1.5 text-brand-700" aria-live="polite">
            <Spinner className="h-3 w-3 flex-none" />
            <span className="truncate">{currentActivity(trace)}</span>
          </span>
        ) : (
          <span className="ml-auto flex-none text-slate-500">{trace.length} steps</span>
        )}
      </button>
      {open ? (
        <div id={listId} className="border-t border-slate-100">
          <ol className="relative px-3 py-3 before:absolute before:top-4 before:bottom-4 before:left-[1.45rem] before:w-px before:bg-slate-200">
            {trace.map((event, i) => (
              <TraceRow
                key={event.id}
                event={event}
                call={calls?.get(event.id)}
                ctx={ctx}
                question={question}
                rewriting={
                  event.type === 'validation' &&
                  !event.passed &&
                  trace.slice(i + 1).some((e) => e.type === 'reprompt' || e.type === 'draft_rejected')
                }
              />
            ))}
            {running && trace.length === 0 ? (
              <li className="flex items-center gap-2 text-xs text-slate-500">
                <Spinner /> Starting…
              </li>
            ) : null}
          </ol>
          <TechnicalToggle technical={technical} onToggle={() => setTechnical((t) => !t)} />
        </div>
      ) : null}
    </section>
  );
}
