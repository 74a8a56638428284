'use client';

import clsx from 'clsx';
import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
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
  fallbackLabel,
  formatMs,
  isSearchTool,
  limitLabel,
  queryFromSummary,
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

function Row({
  icon,
  tone,
  title,
  meta,
  children,
  event,
  pending = false,
}: {
  icon: ReactNode;
  tone: Tone;
  title: ReactNode;
  meta?: ReactNode;
  children?: ReactNode;
  event: TraceEvent;
  pending?: boolean;
}) {
  return (
    <li
      className="relative flex gap-3 pb-3 last:pb-0"
      data-testid="trace-event"
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
        <div className="flex flex-wrap items-baseline gap-x-2 gap-y-0.5">
          <span className="text-sm font-medium text-slate-800">{title}</span>
          {meta ? <span className="text-xs text-slate-500">{meta}</span> : null}
        </div>
        {children ? <div className="mt-1 space-y-1 text-xs text-slate-600">{children}</div> : null}
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
          <span className="min-w-0 break-words">{e.message}</span>
        </li>
      ))}
    </ul>
  );
}

function filterChips(filters: ToolCallEvent['input']['filters'] | undefined): ReactNode[] {
  if (!filters) return [];
  const chips: ReactNode[] = [];
  if (filters.bucketIds?.length) chips.push(<Chip key="b">{filters.bucketIds.length} bucket(s)</Chip>);
  if (filters.documentIds?.length) chips.push(<Chip key="d">{filters.documentIds.length} document(s)</Chip>);
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
}: {
  event: Extract<TraceEvent, { type: 'tool_call' | 'tool_result' }>;
  call: ToolCallEvent | undefined;
}) {
  const pending = event.type === 'tool_call';
  const input = event.type === 'tool_call' ? event.input : call?.input;
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
  let meta: ReactNode = null;
  if (pending) meta = search ? 'searching…' : event.tool === 'open_citation' ? 'opening…' : 'working…';
  else if (event.type === 'tool_result') {
    const timing = formatMs(event.ms);
    meta = search ? `${event.hits} ${event.hits === 1 ? 'hit' : 'hits'}${timing ? ` · ${timing}` : ''}` : timing;
  }
  const mode = input?.mode;
  return (
    <Row
      event={event}
      pending={pending}
      icon={icon}
      tone={tone}
      title={
        <>
          {toolLabel(event.tool)}
          {mode ? <span className="font-normal text-slate-500"> · {mode}</span> : null}
        </>
      }
      meta={meta}
    >
      {search && query ? <p className="break-words font-mono text-[0.72rem] text-slate-700">“{query}”</p> : null}
      {!search && input?.handle && pending ? <p className="font-mono text-[0.72rem]">{input.handle}</p> : null}
      {chips.length > 0 ? <div className="flex flex-wrap gap-1">{chips}</div> : null}
      {event.type === 'tool_result' && !search && event.ok ? <p className="break-words">{event.summary}</p> : null}
      {event.type === 'tool_result' && event.error ? (
        <div className="space-y-0.5">
          <ErrorList errors={[event.error]} />
          {event.error.suggestion ? <p className="text-slate-500">{event.error.suggestion}</p> : null}
        </div>
      ) : null}
    </Row>
  );
}

/** One card of the trace timeline. */
export function TraceRow({ event, call }: { event: TraceEvent; call?: ToolCallEvent | undefined }) {
  switch (event.type) {
    case 'plan': {
      const c = event.constraints;
      const needs: string[] = [];
      if (c.minSearches > 1) needs.push(`${c.minSearches} searches`);
      if (c.minOpenCitations > 1) needs.push(`${c.minOpenCitations} opened sources`);
      if (c.requiredTopics.length) needs.push(`topics: ${c.requiredTopics.join(', ')}`);
      if (c.exactQuotes.length) needs.push(`verbatim: ${c.exactQuotes.join(', ')}`);
      if (c.requiredSections.length) needs.push(`sections: ${c.requiredSections.join(', ')}`);
      if (c.conflictRule) needs.push(`conflicts: ${c.conflictRule}`);
      const chips = filterChips(event.filters);
      return (
        <Row
          event={event}
          icon={<ListIcon className="h-3.5 w-3.5" />}
          tone="neutral"
          title="Plan"
          meta={`${event.intent} · ${event.source === 'model' ? 'by the model' : 'default plan'}`}
        >
          {event.steps.length > 0 ? (
            <ol className="list-decimal space-y-0.5 pl-4">
              {keyed(event.steps, (s) => s).map(({ key, item }) => (
                <li key={key}>{item}</li>
              ))}
            </ol>
          ) : null}
          {event.subQueries.length > 0 ? (
            <div className="flex flex-wrap items-center gap-1">
              <span className="text-slate-500">Sub-queries:</span>
              {keyed(event.subQueries, (q) => q).map(({ key, item }) => (
                <Chip key={key}>{item}</Chip>
              ))}
            </div>
          ) : null}
          {event.buckets.length > 0 ? <p>Buckets: {event.buckets.join(', ')}</p> : null}
          {chips.length > 0 ? <div className="flex flex-wrap gap-1">{chips}</div> : null}
          {needs.length > 0 ? <p className="text-slate-500">Requirements: {needs.join(' · ')}</p> : null}
        </Row>
      );
    }
    case 'tool_call':
    case 'tool_result':
      return <ToolRow event={event} call={call} />;
    case 'validation':
      return (
        <Row
          event={event}
          icon={event.passed ? <CheckIcon className="h-3.5 w-3.5" /> : <XIcon className="h-3.5 w-3.5" />}
          tone={event.passed ? 'good' : 'bad'}
          title={validationLabel(event.stage, event.attempt)}
          meta={event.passed ? 'passed' : `failed ${event.errors.length} check${event.errors.length === 1 ? '' : 's'}`}
        >
          <ErrorList errors={event.errors} />
        </Row>
      );
    case 'reprompt':
      return (
        <Row
          event={event}
          icon={<SparkIcon className="h-3.5 w-3.5" />}
          tone="warn"
          title={`Asked the model to revise (${event.attempt})`}
          meta={`${event.remainingToolCalls} tool call${event.remainingToolCalls === 1 ? '' : 's'} left`}
        >
          {event.codes.length > 0 ? (
            <div className="flex flex-wrap gap-1">
              {keyed(event.codes, (c) => c).map(({ key, item: code }) => (
                <Chip key={key} tone="warn">
                  {code}
                </Chip>
              ))}
            </div>
          ) : null}
          <details>
            <summary className="cursor-pointer text-slate-500 hover:text-slate-700">Message sent to the model</summary>
            <pre className="mt-1 whitespace-pre-wrap rounded bg-slate-50 p-2 font-mono text-[0.7rem] text-slate-700">
              {event.message}
            </pre>
          </details>
        </Row>
      );
    case 'draft_rejected':
      return (
        <Row
          event={event}
          icon={<XIcon className="h-3.5 w-3.5" />}
          tone="bad"
          title={`Draft ${event.attempt} rejected`}
          meta="not shown as the answer"
        >
          {event.errors.length > 0 ? (
            <div className="flex flex-wrap gap-1">
              {keyed(event.errors, (e) => e.code).map(({ key, item }) => (
                <Chip key={key} tone="bad">
                  {item.code}
                </Chip>
              ))}
            </div>
          ) : null}
        </Row>
      );
    case 'limit':
      return (
        <Row
          event={event}
          icon={<AlertIcon className="h-3.5 w-3.5" />}
          tone="warn"
          title={limitLabel(event.limit)}
          meta={`limit ${event.value}`}
        >
          <p>{event.detail}</p>
        </Row>
      );
    case 'clarify':
      return (
        <Row
          event={event}
          icon={<InfoIcon className="h-3.5 w-3.5" />}
          tone="warn"
          title="Needs clarification"
          meta={event.clarification.type.replace('_', ' ')}
        >
          <p>{event.clarification.question}</p>
        </Row>
      );
    case 'quality':
      return (
        <Row
          event={event}
          icon={<SparkIcon className="h-3.5 w-3.5" />}
          tone={event.action === 'accept' ? 'good' : 'warn'}
          title={`Quality ${percent(event.score)}%`}
          meta={event.action.replace('_', ' ')}
        >
          {Object.keys(event.dimensions).length > 0 ? (
            <p>
              {Object.entries(event.dimensions)
                .map(([k, v]) => `${k.replace(/_/g, ' ')} ${percent(v)}%`)
                .join(' · ')}
            </p>
          ) : null}
        </Row>
      );
    case 'fallback':
      return (
        <Row event={event} icon={<AlertIcon className="h-3.5 w-3.5" />} tone="warn" title={fallbackLabel(event.stage)}>
          <p className="break-words">{event.reason}</p>
        </Row>
      );
    case 'final': {
      const tone: Tone = event.status === 'complete' ? 'good' : event.status === 'stopped' ? 'warn' : 'bad';
      const bits = [
        event.status === 'complete' ? 'complete' : event.status,
        `${event.confidence} confidence`,
        `${event.citations} source${event.citations === 1 ? '' : 's'}`,
        event.insufficiencies > 0 ? `${event.insufficiencies} gap${event.insufficiencies === 1 ? '' : 's'}` : null,
        event.extractive ? 'extractive' : null,
        `${event.mode} mode`,
      ].filter(Boolean);
      return (
        <Row
          event={event}
          icon={<CheckIcon className="h-3.5 w-3.5" />}
          tone={tone}
          title="Final"
          meta={bits.join(' · ')}
        >
          {event.note ? <p className="break-words text-slate-500">{event.note}</p> : null}
        </Row>
      );
    }
    case 'error':
      return (
        <Row event={event} icon={<AlertIcon className="h-3.5 w-3.5" />} tone="bad" title="Error" meta={event.stage}>
          <ErrorList errors={[{ code: event.code, message: event.message }]} />
        </Row>
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
        ? 'Opening a source…'
        : `${toolLabel(last.tool)}: ${last.input.query ?? last.input.reference ?? ''}`.trim();
    case 'tool_result':
      return last.tool === 'open_citation' ? 'Reading sources…' : 'Reviewing results…';
    case 'validation':
      return last.passed ? 'Checks passed' : 'Checking the answer…';
    case 'reprompt':
      return 'Revising the answer…';
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
export function TraceTimeline({
  trace,
  running,
  calls,
  defaultOpen,
}: {
  trace: TraceEvent[];
  running: boolean;
  /** Tool calls seen live, by id (their results replace them in the message; the query stays visible). */
  calls?: ReadonlyMap<string, ToolCallEvent> | undefined;
  defaultOpen: boolean;
}) {
  const [open, setOpen] = useState(defaultOpen);
  const [toggled, setToggled] = useState(false);
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
    `${s.opened} source${s.opened === 1 ? '' : 's'} opened`,
    s.failedChecks > 0 ? `${s.failedChecks} failed check${s.failedChecks === 1 ? '' : 's'}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <section className="rounded-lg border border-slate-200 bg-white/70" data-testid="trace" aria-label="Agent trace">
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
        <span className="font-semibold text-slate-700">Trace</span>
        <span className="truncate">{summary}</span>
        {running ? (
          <span className="ml-auto flex min-w-0 items-center gap-1.5 text-brand-700" aria-live="polite">
            <Spinner className="h-3 w-3 flex-none" />
            <span className="truncate">{currentActivity(trace)}</span>
          </span>
        ) : (
          <span className="ml-auto flex-none text-slate-400">{trace.length} events</span>
        )}
      </button>
      {open ? (
        <ol
          id={listId}
          className="relative border-t border-slate-100 px-3 py-3 before:absolute before:top-4 before:bottom-4 before:left-[1.45rem] before:w-px before:bg-slate-200"
        >
          {trace.map((event) => (
            <TraceRow key={event.id} event={event} call={calls?.get(event.id)} />
          ))}
          {running && trace.length === 0 ? (
            <li className="flex items-center gap-2 text-xs text-slate-500">
              <Spinner /> Starting…
            </li>
          ) : null}
        </ol>
      ) : null}
    </section>
  );
}
