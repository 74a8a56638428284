'use client';

import clsx from 'clsx';
import { type ReactNode, useId, useMemo, useState } from 'react';
import {
  AlertIcon,
  CheckIcon,
  ChevronIcon,
  FileIcon,
  InfoIcon,
  ListIcon,
  PencilIcon,
  SearchIcon,
  SparkIcon,
  Spinner,
  StackIcon,
  XIcon,
} from '@/components/icons';
import type { ResearchLogEntry } from '@/lib/research/log';
import { keyed } from './keyed';
import {
  type CardIcon,
  elapsedLabel,
  endedStarts,
  finishedStarts,
  researchCard,
  timelineSummary,
} from './research-timeline-format';
import { formatMs } from './trace-format';
import { Row, TechnicalToggle } from './trace-timeline';

/**
 * The research run's own timeline: one card per research-level event (questions, plan, approval, each task's start
 * and end, quality check and remediation, synthesis, report, cancel or failure), in order, with the time since the
 * run began. Drawn with the agent trace's Row, so it looks like the per-task traces it links to.
 */

const ICONS: Record<CardIcon, ReactNode> = {
  question: <InfoIcon className="h-3.5 w-3.5" />,
  list: <ListIcon className="h-3.5 w-3.5" />,
  edit: <PencilIcon className="h-3.5 w-3.5" />,
  check: <CheckIcon className="h-3.5 w-3.5" />,
  x: <XIcon className="h-3.5 w-3.5" />,
  alert: <AlertIcon className="h-3.5 w-3.5" />,
  search: <SearchIcon className="h-3.5 w-3.5" />,
  spark: <SparkIcon className="h-3.5 w-3.5" />,
  file: <FileIcon className="h-3.5 w-3.5" />,
};

export function ResearchTimeline({
  entries,
  executing,
  onShowTask,
}: {
  entries: readonly ResearchLogEntry[];
  /** The run is running or synthesising (a started task without its end is under way). */
  executing: boolean;
  /** Opens and scrolls to a task's own trace. */
  onShowTask: (taskId: string) => void;
}) {
  const [open, setOpen] = useState(true);
  const [technical, setTechnical] = useState(false);
  const listId = useId();
  const ctx = useMemo(() => ({ numbers: null, technical }), [technical]);
  const finished = finishedStarts(entries, executing);
  const ended = endedStarts(entries);
  const since = entries[0]?.at ?? '';
  if (entries.length === 0) return null;
  const summary = timelineSummary(entries);
  const last = entries[entries.length - 1];
  return (
    <section
      className="rounded-lg border border-slate-200 bg-white/70"
      data-testid="research-timeline"
      aria-label="Research timeline"
    >
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        aria-controls={listId}
        className="flex w-full items-center gap-2 px-3 py-2 text-left text-xs text-slate-600 hover:bg-slate-50"
      >
        <ChevronIcon className={clsx('h-3.5 w-3.5 flex-none transition-transform', open && 'rotate-90')} />
        <StackIcon className="h-3.5 w-3.5 flex-none text-slate-400" />
        <span className="flex-none font-semibold text-slate-700">Research timeline</span>
        {summary ? <span className="hidden truncate sm:inline">{summary}</span> : null}
        {executing && last ? (
          <span className="ml-auto flex min-w-0 items-center gap-1.5 text-brand-700" aria-live="polite">
            <Spinner className="h-3 w-3 flex-none" />
            <span className="truncate">{researchCard(last, false).title}</span>
          </span>
        ) : (
          <span className="ml-auto flex-none text-slate-500">
            {entries.length} event{entries.length === 1 ? '' : 's'}
          </span>
        )}
      </button>
      {open ? (
        <div id={listId} className="border-t border-slate-100">
          <ol className="relative px-3 py-3 before:absolute before:top-4 before:bottom-4 before:left-[1.45rem] before:w-px before:bg-slate-200">
            {keyed(entries, (e) => `${e.at}:${e.type}:${'taskId' in e ? e.taskId : ''}`).map(
              ({ key, item: entry }, i) => {
                const card = researchCard(entry, finished[i] ?? true, ended[i] ?? false);
                const took = entry.type === 'task_done' ? formatMs(entry.ms) : null;
                return (
                  <Row
                    key={key}
                    testId="research-event"
                    event={{ type: entry.type, id: `${i}` }}
                    ctx={ctx}
                    pending={card.pending}
                    icon={card.pending ? <Spinner /> : ICONS[card.icon]}
                    tone={card.tone}
                    title={card.title}
                    aside={
                      <time dateTime={entry.at} title={entry.at}>
                        {elapsedLabel(entry.at, since)}
                      </time>
                    }
                    tech={card.tech ? <p>{card.tech}</p> : null}
                  >
                    {card.details.length > 0 || card.taskId || took ? (
                      <>
                        {card.details.length > 1 ? (
                          <ul className="space-y-0.5">
                            {keyed(card.details, (d) => d).map(({ key, item }) => (
                              <li key={key} className="break-words">
                                {item}
                              </li>
                            ))}
                          </ul>
                        ) : card.details[0] ? (
                          <p className="break-words">{card.details[0]}</p>
                        ) : null}
                        {took || card.taskId ? (
                          <p className="flex flex-wrap items-center gap-x-2">
                            {took ? <span>took {took}</span> : null}
                            {card.taskId && entry.type !== 'quality' ? (
                              <button
                                type="button"
                                onClick={() => card.taskId && onShowTask(card.taskId)}
                                className="rounded text-brand-700 underline decoration-brand-200 underline-offset-2 hover:text-brand-900"
                              >
                                Show its trace
                              </button>
                            ) : null}
                          </p>
                        ) : null}
                      </>
                    ) : null}
                  </Row>
                );
              },
            )}
          </ol>
          <TechnicalToggle technical={technical} onToggle={() => setTechnical((t) => !t)} />
        </div>
      ) : null}
    </section>
  );
}
