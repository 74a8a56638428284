'use client';

import clsx from 'clsx';
import { memo, useMemo } from 'react';
import { displayTitle } from '@/components/documents/display-title';
import { AlertIcon, FileIcon, Spinner } from '@/components/icons';
import { SafeMarkdown } from '@/components/markdown/safe-markdown';
import type { AgentCitation } from '@/lib/agent/types';
import type { ChatMessage } from '@/lib/chat/message';
import { AnswerNotes, ConfidenceBadge } from './answer-notes';
import { readAnswer, visibleAnswerText } from './message-view';
import { ShareButton } from './share-button';
import { locationLabel } from './trace-format';
import { type ToolCallEvent, TraceTimeline } from './trace-timeline';

const EMPTY = new Set<number>();

function StatusNote({ status, stopped }: { status: string; stopped: boolean }) {
  if (stopped || status === 'stopped') {
    return (
      <p
        className="inline-flex items-center gap-1.5 rounded-full bg-slate-100 px-2.5 py-0.5 text-xs font-medium text-slate-600"
        data-testid="answer-stopped"
      >
        <span aria-hidden className="h-2 w-2 rounded-sm bg-slate-500" /> Stopped: saved as far as it got
      </p>
    );
  }
  if (status === 'interrupted') {
    return (
      <p
        className="inline-flex items-center gap-1.5 rounded-full bg-amber-50 px-2.5 py-0.5 text-xs font-medium text-amber-800"
        data-testid="answer-interrupted"
      >
        <AlertIcon className="h-3.5 w-3.5" /> Interrupted: the server stopped before this answer finished
      </p>
    );
  }
  if (status === 'error') {
    return (
      <p
        className="inline-flex items-center gap-1.5 rounded-full bg-red-50 px-2.5 py-0.5 text-xs font-medium text-red-700"
        data-testid="answer-error"
      >
        <AlertIcon className="h-3.5 w-3.5" /> The answer could not be completed
      </p>
    );
  }
  return null;
}

function SourceList({ citations, onCite }: { citations: AgentCitation[]; onCite: (c: AgentCitation) => void }) {
  if (citations.length === 0) return null;
  return (
    <div className="flex flex-wrap gap-1.5" data-testid="source-list">
      {citations.map((c) => {
        // the chip names the file and where in it; the title (when it reads like one) is in the tooltip
        const title = displayTitle(c);
        const loc = locationLabel(c);
        const where = loc && loc !== c.filename ? loc : '';
        return (
          <button
            key={c.n}
            type="button"
            onClick={() => onCite(c)}
            className="inline-flex max-w-[22rem] items-center gap-1.5 rounded-md border border-slate-200 bg-white px-2 py-1 text-xs text-slate-700 hover:border-brand-300 hover:bg-brand-50"
            title={[
              title !== c.filename ? title : null,
              c.filename,
              where,
              c.instructionLike ? 'contains instruction-like text, used as data and not followed' : null,
            ]
              .filter(Boolean)
              .join(' · ')}
            data-testid="source-chip"
          >
            <span className="font-mono font-semibold text-brand-700">[{c.n}]</span>
            {c.instructionLike ? (
              <span
                role="img"
                aria-label="Contains instruction-like text"
                className="flex-none text-amber-600"
                data-testid="source-chip-instruction-like"
              >
                <AlertIcon className="h-3.5 w-3.5" />
              </span>
            ) : null}
            <FileIcon className="h-3.5 w-3.5 flex-none text-slate-400" />
            <span className="truncate">{c.filename}</span>
            {where ? <span className="max-w-[9rem] flex-none truncate text-slate-500">{where}</span> : null}
          </button>
        );
      })}
    </div>
  );
}

/**
 * One assistant turn: its live trace, the drafts as they stream (rejected ones struck through), then the final
 * grounded answer with clickable [n], sources, gaps, notes, confidence and a Share button. Memoised: while a new
 * answer streams, the earlier ones (same message object, same props) are not rendered again, so their markdown is
 * not parsed again on every streamed part.
 */
export const AssistantMessage = memo(function AssistantMessage({
  message,
  running,
  stoppedLocally,
  calls,
  onCite,
  errorText,
  onRetry,
  question,
}: {
  /** The question this message answers. */
  question?: string | undefined;
  message: ChatMessage;
  running: boolean;
  stoppedLocally: boolean;
  calls?: ReadonlyMap<string, ToolCallEvent> | undefined;
  onCite: (citation: AgentCitation) => void;
  errorText?: string | null | undefined;
  onRetry?: (() => void) | undefined;
}) {
  const view = readAnswer(message);
  const { result } = view;
  const known = useMemo(() => (result ? new Set(result.citations.map((c) => c.n)) : EMPTY), [result]);
  const byNumber = useMemo(() => new Map((result?.citations ?? []).map((c) => [c.n, c])), [result]);
  const text = visibleAnswerText(view, running);
  const rejected = view.drafts.filter((d) => d.rejection);
  const streamingDraft = running && !result;
  const status = running
    ? 'running'
    : stoppedLocally
      ? 'stopped'
      : view.status === 'running' && !result
        ? errorText
          ? 'error'
          : 'interrupted'
        : view.status;

  return (
    <article className="space-y-3" data-testid="assistant-message" data-status={status} aria-busy={running}>
      <TraceTimeline
        trace={view.trace}
        running={running}
        calls={calls}
        defaultOpen={running}
        citations={result?.citations ?? null}
        question={question}
      />

      {rejected.length > 0 ? (
        <details
          className="group rounded-lg border border-red-100 bg-red-50/40 px-3 py-2 text-sm"
          open={streamingDraft}
        >
          <summary className="cursor-pointer text-xs font-medium text-red-700">
            {rejected.length} draft{rejected.length === 1 ? '' : 's'} set aside: did not match your documents, not used
          </summary>
          <div className="mt-2 space-y-2">
            {rejected.map((d) => (
              <div key={d.attempt} data-testid="rejected-draft">
                <p className="text-[0.7rem] font-semibold uppercase tracking-wide text-red-600">Draft {d.attempt}</p>
                <p className="whitespace-pre-wrap break-words text-slate-500 line-through decoration-red-400/70">
                  {d.text}
                </p>
              </div>
            ))}
          </div>
        </details>
      ) : null}

      {text ? (
        <div
          className={clsx(
            'rounded-xl border border-slate-200 bg-white px-4 py-3 shadow-sm',
            streamingDraft && 'border-brand-100',
          )}
          data-testid="answer"
        >
          {streamingDraft ? (
            <p className="mb-1 text-[0.7rem] font-semibold uppercase tracking-wide text-brand-600">
              Draft: being checked against your documents
            </p>
          ) : null}
          <SafeMarkdown
            text={text}
            knownCitations={known}
            onCite={(n) => {
              const c = byNumber.get(n);
              if (c) onCite(c);
            }}
          />
          {streamingDraft ? (
            <span
              aria-hidden
              className="ml-0.5 inline-block h-4 w-1.5 animate-pulse rounded-sm bg-brand-400 align-text-bottom"
            />
          ) : null}
        </div>
      ) : running ? (
        <p className="flex items-center gap-2 px-1 text-sm text-slate-500">
          <Spinner /> {view.trace.length === 0 ? 'Starting…' : 'Searching your documents…'}
        </p>
      ) : null}

      {result ? <SourceList citations={result.citations} onCite={onCite} /> : null}
      {result ? <AnswerNotes result={result} /> : null}

      {errorText && !running ? (
        <div
          className="flex flex-wrap items-center gap-2 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800"
          role="alert"
        >
          <AlertIcon className="h-4 w-4" /> <span className="flex-1">{errorText}</span>
          {onRetry ? (
            <button
              type="button"
              onClick={onRetry}
              className="rounded-md border border-red-300 bg-white px-2 py-0.5 text-xs font-medium hover:bg-red-100"
            >
              Retry
            </button>
          ) : null}
        </div>
      ) : null}

      {!running ? (
        <div className="flex flex-wrap items-center gap-2">
          <StatusNote status={status} stopped={stoppedLocally} />
          {onRetry && !errorText && (status === 'stopped' || status === 'error' || status === 'interrupted') ? (
            <button
              type="button"
              onClick={onRetry}
              className="rounded-md border border-slate-300 bg-white px-2 py-0.5 text-xs font-medium text-slate-700 hover:bg-slate-50"
              data-testid="retry"
            >
              Retry
            </button>
          ) : null}
          {result && status === 'complete' ? <ConfidenceBadge confidence={result.confidence} /> : null}
          {result?.models.extractive ? (
            <span
              className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600"
              title="No language model answered: the answer quotes sentences from your documents."
            >
              Extractive
            </span>
          ) : null}
          {result ? (
            <span className="text-xs text-slate-400">
              {result.mode === 'quick' ? 'Quick' : 'Agent'} · {(result.timings.totalMs / 1000).toFixed(1)} s
            </span>
          ) : null}
          <span className="ml-auto" />
          {result && result.status !== 'error' && result.answer.trim() ? (
            <ShareButton answerId={result.answerId} />
          ) : null}
        </div>
      ) : null}
    </article>
  );
});
