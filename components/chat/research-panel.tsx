'use client';

import clsx from 'clsx';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Spinner } from '@/components/icons';
import type { TraceEvent } from '@/lib/agent/events';
import type { ResearchEvent } from '@/lib/research/events';
import type { ResearchRunView, ResearchTask } from '@/lib/research/schema';
import { ResearchTimeline } from './research-timeline';
import { ShareButton } from './share-button';
import { TraceTimeline } from './trace-timeline';

/**
 * A research run inside the chat: its clarifying questions (answer or skip), the editable plan (edit, move, delete,
 * add, approve), the research timeline (one card per research-level event, research-timeline.tsx), each task's
 * progress with its own trace, and the report with sections and per-section sources.
 * The run's state is on the server (GET /api/research/{id}), so a reload shows it where it was; while it runs
 * elsewhere (another tab, after a reload) the panel polls it.
 */

const STATUS_LABEL: Record<ResearchRunView['status'], string> = {
  clarifying: 'Waiting for your answers',
  planning: 'Planning',
  awaiting_approval: 'Waiting for your approval',
  running: 'Researching',
  synthesising: 'Writing the report',
  done: 'Done',
  cancelled: 'Cancelled',
  failed: 'Failed',
};
const FINAL = new Set(['done', 'cancelled', 'failed']);
const POLL_MS = 1500;

interface DraftTask {
  key: string;
  id?: string;
  title: string;
  query: string;
}

async function api<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, { cache: 'no-store', ...init });
  const body = (await res.json().catch(() => null)) as (T & { error?: { message?: string } }) | null;
  if (!res.ok || !body) throw new Error(body?.error?.message ?? `Request failed (${res.status}).`);
  return body;
}

const json = (method: string, body?: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
});

function draftsOf(tasks: ResearchTask[]): DraftTask[] {
  return tasks.map((t) => ({ key: t.id, id: t.id, title: t.title, query: t.query }));
}

export function ResearchPanel({ runId, initial }: { runId: string; initial?: ResearchRunView | undefined }) {
  const [run, setRun] = useState<ResearchRunView | null>(initial ?? null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [streaming, setStreaming] = useState(false);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [drafts, setDrafts] = useState<DraftTask[] | null>(null);
  const [live, setLive] = useState<Record<string, { trace: TraceEvent[]; running: boolean }>>({});
  const headingId = useId();
  const nextKey = useRef(0);
  /** The task whose trace the timeline asked to show (`n` remounts it open each time). */
  const [shown, setShown] = useState<{ taskId: string; n: number } | null>(null);
  const taskElementId = (taskId: string) => `${headingId}-task-${taskId}`;
  const showTask = (taskId: string) => {
    setShown((s) => ({ taskId, n: (s?.n ?? 0) + 1 }));
    requestAnimationFrame(() =>
      document.getElementById(taskElementId(taskId))?.scrollIntoView({ behavior: 'smooth', block: 'start' }),
    );
  };

  const load = useCallback(async () => {
    const body = await api<{ run: ResearchRunView }>(`/api/research/${encodeURIComponent(runId)}`);
    setRun(body.run);
    return body.run;
  }, [runId]);

  useEffect(() => {
    if (!initial) load().catch((e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [initial, load]);

  // Follow a run that executes without this page's stream (after a reload, or in another tab).
  useEffect(() => {
    if (!run || streaming || !['running', 'synthesising', 'planning'].includes(run.status)) return;
    const timer = setTimeout(() => {
      load().catch(() => {});
    }, POLL_MS);
    return () => clearTimeout(timer);
  }, [run, streaming, load]);

  useEffect(() => {
    if (run?.status === 'awaiting_approval' && drafts === null) setDrafts(draftsOf(run.tasks));
    if (run && run.status !== 'awaiting_approval') setDrafts(null);
  }, [run, drafts]);

  const act = async (fn: () => Promise<void>) => {
    setBusy(true);
    setError(null);
    try {
      await fn();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  const submitAnswers = (skip: boolean) =>
    act(async () => {
      const body = skip
        ? { skip: true }
        : {
            answers: Object.entries(answers)
              .filter(([, a]) => a.trim().length > 0)
              .map(([id, answer]) => ({ id, answer: answer.trim() })),
          };
      const res = await api<{ run: ResearchRunView }>(`/api/research/${runId}/answers`, json('POST', body));
      setRun(res.run);
    });

  const cancel = () =>
    act(async () => {
      const res = await api<{ run: ResearchRunView }>(`/api/research/${runId}/cancel`, json('POST'));
      setRun(res.run);
    });

  const approve = () =>
    act(async () => {
      if (!run || !drafts) return;
      const changed =
        drafts.length !== run.tasks.length ||
        drafts.some(
          (d, i) => d.id !== run.tasks[i]?.id || d.title !== run.tasks[i]?.title || d.query !== run.tasks[i]?.query,
        );
      if (changed) {
        const res = await api<{ run: ResearchRunView }>(
          `/api/research/${runId}/plan`,
          json('PUT', {
            tasks: drafts.map((d) => ({
              ...(d.id ? { id: d.id } : {}),
              title: d.title.trim(),
              query: d.query.trim() || d.title.trim(),
            })),
          }),
        );
        setRun(res.run);
      }
      const res = await fetch(`/api/research/${runId}/approve`, {
        method: 'POST',
        headers: { accept: 'application/x-ndjson' },
      });
      if (!res.ok || !res.body) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(body?.error?.message ?? `Could not start the run (${res.status}).`);
      }
      setStreaming(true);
      setRun((r) => (r ? { ...r, status: 'running', note: null } : r));
      try {
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let nl = buffer.indexOf('\n');
          while (nl >= 0) {
            const line = buffer.slice(0, nl).trim();
            buffer = buffer.slice(nl + 1);
            nl = buffer.indexOf('\n');
            if (!line) continue;
            const { event, data } = JSON.parse(line) as { event: string; data: unknown };
            if (event === 'research') onEvent(data as ResearchEvent);
          }
        }
      } finally {
        setStreaming(false);
        await load().catch(() => {});
      }
    });

  const onEvent = (e: ResearchEvent) => {
    if (e.type === 'run') setRun(e.run);
    else if (e.type === 'log') setRun((r) => (r ? { ...r, events: [...r.events, e.entry] } : r));
    else if (e.type === 'status') setRun((r) => (r ? { ...r, status: e.status, note: e.note } : r));
    else if (e.type === 'task_start') setLive((l) => ({ ...l, [e.taskId]: { trace: [], running: true } }));
    else if (e.type === 'task_event' && e.event.type !== 'token') {
      const event = e.event;
      setLive((l) => {
        const prev = l[e.taskId] ?? { trace: [], running: true };
        const trace = prev.trace.some((x) => x.id === event.id)
          ? prev.trace.map((x) => (x.id === event.id ? event : x))
          : [...prev.trace, event];
        return { ...l, [e.taskId]: { ...prev, trace } };
      });
    } else if (e.type === 'task_done') {
      setLive((l) => ({ ...l, [e.taskId]: { trace: l[e.taskId]?.trace ?? [], running: false } }));
      setRun((r) =>
        r
          ? {
              ...r,
              tasks: r.tasks.map((t) =>
                t.id === e.taskId ? { ...t, status: e.status === 'skipped' ? 'pending' : e.status } : t,
              ),
            }
          : r,
      );
    } else if (e.type === 'report') setRun((r) => (r ? { ...r, report: e.report, answerId: e.answerId } : r));
  };

  const move = (i: number, by: -1 | 1) =>
    setDrafts((d) => {
      if (!d) return d;
      const j = i + by;
      if (j < 0 || j >= d.length) return d;
      const next = [...d];
      [next[i], next[j]] = [next[j] as DraftTask, next[i] as DraftTask];
      return next;
    });

  if (!run)
    return (
      <article
        className="rounded-lg border border-slate-200 bg-white p-3 text-sm text-slate-600"
        data-testid="research"
      >
        {error ? <p role="alert">{error}</p> : <Spinner />}
      </article>
    );

  const active = !FINAL.has(run.status);
  const executing = run.status === 'running' || run.status === 'synthesising';
  return (
    <article
      className="space-y-3 rounded-lg border border-brand-200 bg-white p-3 shadow-sm sm:p-4"
      data-testid="research"
      data-status={run.status}
      aria-labelledby={headingId}
      aria-busy={executing}
    >
      <header className="flex flex-wrap items-center gap-2">
        <h2 id={headingId} className="text-sm font-semibold text-slate-900">
          Research
        </h2>
        <span
          className={clsx(
            'rounded-full px-2 py-0.5 text-xs font-medium ring-1',
            run.status === 'done'
              ? 'bg-emerald-50 text-emerald-800 ring-emerald-200'
              : run.status === 'failed' || run.status === 'cancelled'
                ? 'bg-slate-100 text-slate-700 ring-slate-200'
                : 'bg-brand-50 text-brand-800 ring-brand-200',
          )}
          data-testid="research-status"
          aria-live="polite"
        >
          {executing ? <Spinner className="mr-1 inline h-3 w-3" /> : null}
          {STATUS_LABEL[run.status]}
        </span>
        {active ? (
          <button
            type="button"
            onClick={() => void cancel()}
            disabled={busy && !executing}
            className="ml-auto rounded-md border border-slate-300 px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-60"
          >
            Cancel research
          </button>
        ) : run.answerId ? (
          <span className="ml-auto">
            <ShareButton answerId={run.answerId} />
          </span>
        ) : null}
      </header>
      {run.note ? <p className="text-xs text-slate-600">{run.note}</p> : null}
      {error ? (
        <p role="alert" className="rounded-md bg-red-50 px-2 py-1 text-sm text-red-800">
          {error}
        </p>
      ) : null}

      <ResearchTimeline entries={run.events} executing={executing} onShowTask={showTask} />

      {run.status === 'clarifying' ? (
        <section aria-label="Clarifying questions" className="space-y-3">
          <p className="text-sm text-slate-700">A few questions before I search (answer any, or skip):</p>
          {run.clarifications.map((q) => (
            <div key={q.id} className="space-y-1">
              <label htmlFor={`${headingId}-${q.id}`} className="block text-sm font-medium text-slate-800">
                {q.question}
              </label>
              <p className="text-xs text-slate-500">{q.reason}</p>
              {q.options.length > 0 ? (
                <div className="flex flex-wrap gap-1">
                  {q.options.map((o) => (
                    <button
                      key={o}
                      type="button"
                      aria-pressed={answers[q.id] === o}
                      onClick={() => setAnswers((a) => ({ ...a, [q.id]: o }))}
                      className={clsx(
                        'rounded-full border px-2 py-0.5 text-xs',
                        answers[q.id] === o
                          ? 'border-brand-500 bg-brand-50 text-brand-800'
                          : 'border-slate-300 text-slate-700',
                      )}
                    >
                      {o}
                    </button>
                  ))}
                </div>
              ) : null}
              <input
                id={`${headingId}-${q.id}`}
                value={answers[q.id] ?? ''}
                onChange={(e) => setAnswers((a) => ({ ...a, [q.id]: e.target.value }))}
                maxLength={1000}
                className="w-full rounded-md border border-slate-300 px-2 py-1 text-sm"
              />
            </div>
          ))}
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              disabled={busy}
              onClick={() => void submitAnswers(false)}
              className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
            >
              Submit answers
            </button>
            <button
              type="button"
              disabled={busy}
              onClick={() => void submitAnswers(true)}
              className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-60"
            >
              Skip questions
            </button>
          </div>
        </section>
      ) : null}

      {run.status === 'awaiting_approval' && drafts ? (
        <section aria-label="Research plan" className="space-y-2">
          <p className="text-sm text-slate-700">The plan: each task is researched on its own. Edit it, then approve.</p>
          <ol className="space-y-2">
            {drafts.map((d, i) => (
              <li key={d.key} className="rounded-md border border-slate-200 p-2" data-testid="plan-task">
                <div className="flex flex-wrap items-center gap-1">
                  <span className="text-xs font-semibold text-slate-500">{i + 1}.</span>
                  <input
                    aria-label={`Task ${i + 1} title`}
                    value={d.title}
                    maxLength={500}
                    onChange={(e) =>
                      setDrafts(
                        (all) => all?.map((x) => (x.key === d.key ? { ...x, title: e.target.value } : x)) ?? all,
                      )
                    }
                    className="min-w-0 flex-1 rounded border border-slate-300 px-2 py-1 text-sm font-medium"
                  />
                  <button
                    type="button"
                    aria-label={`Move task ${i + 1} up`}
                    disabled={i === 0}
                    onClick={() => move(i, -1)}
                    className="rounded border border-slate-300 px-2 py-1 text-xs disabled:opacity-40"
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    aria-label={`Move task ${i + 1} down`}
                    disabled={i === drafts.length - 1}
                    onClick={() => move(i, 1)}
                    className="rounded border border-slate-300 px-2 py-1 text-xs disabled:opacity-40"
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    aria-label={`Delete task ${i + 1}`}
                    disabled={drafts.length <= 1}
                    onClick={() => setDrafts((all) => all?.filter((x) => x.key !== d.key) ?? all)}
                    className="rounded border border-slate-300 px-2 py-1 text-xs text-red-700 disabled:opacity-40"
                  >
                    Delete
                  </button>
                </div>
                <textarea
                  aria-label={`Task ${i + 1} question`}
                  value={d.query}
                  maxLength={500}
                  rows={2}
                  onChange={(e) =>
                    setDrafts((all) => all?.map((x) => (x.key === d.key ? { ...x, query: e.target.value } : x)) ?? all)
                  }
                  className="mt-1 w-full rounded border border-slate-200 px-2 py-1 text-sm text-slate-700"
                />
              </li>
            ))}
          </ol>
          <div className="flex flex-wrap gap-2">
            <button
              type="button"
              disabled={drafts.length >= 8}
              onClick={() => {
                nextKey.current += 1;
                setDrafts((all) => [...(all ?? []), { key: `new-${nextKey.current}`, title: '', query: '' }]);
              }}
              className="rounded-md border border-slate-300 px-3 py-1.5 text-sm text-slate-700 hover:bg-slate-50 disabled:opacity-40"
            >
              Add task
            </button>
            <button
              type="button"
              disabled={busy || drafts.length === 0 || drafts.some((d) => !d.title.trim())}
              onClick={() => void approve()}
              className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60"
            >
              Approve plan
            </button>
          </div>
        </section>
      ) : null}

      {run.tasks.length > 0 && run.status !== 'awaiting_approval' && run.status !== 'clarifying' ? (
        <section aria-label="Research tasks" className="space-y-2">
          <ol className="space-y-2">
            {[...run.tasks]
              .sort((a, b) => a.order - b.order)
              .map((t, i) => {
                const l = live[t.id];
                const trace = l && l.trace.length > 0 ? l.trace : t.trace;
                const isRunning = Boolean(l?.running) || t.status === 'running';
                return (
                  <li
                    key={t.id}
                    id={taskElementId(t.id)}
                    className="scroll-mt-4 space-y-1"
                    data-testid="research-task"
                    data-status={isRunning ? 'running' : t.status}
                  >
                    <p className="flex items-center gap-2 text-sm">
                      <span className="font-medium text-slate-800">
                        {i + 1}. {t.title}
                      </span>
                      <span className="text-xs text-slate-500">
                        {isRunning
                          ? 'running'
                          : t.status === 'done'
                            ? `done · ${t.citations.length} source(s)`
                            : t.status}
                      </span>
                    </p>
                    <TraceTimeline
                      key={shown?.taskId === t.id ? `shown-${shown.n}` : 'trace'}
                      trace={trace}
                      running={isRunning}
                      citations={isRunning ? null : t.citations}
                      defaultOpen={shown?.taskId === t.id}
                      question={t.query}
                    />
                  </li>
                );
              })}
          </ol>
        </section>
      ) : null}

      {run.report ? (
        <section aria-label="Research report" className="space-y-3" data-testid="research-report">
          <h3 className="text-base font-semibold text-slate-900">{run.report.title}</h3>
          {run.report.summary ? (
            <div>
              <h4 className="text-sm font-semibold text-slate-800">Key findings</h4>
              <p className="whitespace-pre-wrap text-sm text-slate-700">{run.report.summary.replace(/\*\*/g, '')}</p>
            </div>
          ) : null}
          {run.report.sections.map((s) => (
            <section
              key={`${s.taskId}-${s.heading}`}
              aria-label={s.heading}
              data-testid="report-section"
              className="space-y-1"
            >
              <h4 className="text-sm font-semibold text-slate-800">{s.heading}</h4>
              <p className="whitespace-pre-wrap text-sm text-slate-700">{s.text}</p>
              {s.sources.length > 0 ? (
                <ul className="space-y-0.5 text-xs text-slate-600" aria-label={`Sources for ${s.heading}`}>
                  {s.sources.map((src) => (
                    <li key={src.n}>
                      [{src.n}] {src.filename}
                      {src.page !== null ? `, p. ${src.page}` : ''}
                      {src.sheet ? `, sheet ${src.sheet}` : ''}: “{src.quote}”
                    </li>
                  ))}
                </ul>
              ) : (
                <p className="text-xs text-slate-500">No source supported this section.</p>
              )}
            </section>
          ))}
          <ol className="space-y-0.5 text-xs text-slate-500" aria-label="Research steps">
            <li>
              {run.tasks.length} task(s) researched, each as its own checked agent run (
              {run.tasks.filter((t) => t.validated).length} passed validation)
            </li>
            <li>
              Quality check: {run.report.quality.score}/100 (threshold {run.report.quality.threshold}),{' '}
              {run.report.quality.remediatedTaskId === null
                ? 'accepted'
                : run.report.quality.action === 'accept'
                  ? 'one section was researched again and improved'
                  : 'one section was researched again; the better version was kept'}
            </li>
            <li>
              Key findings:{' '}
              {run.report.summarySource === 'model'
                ? 'sentences chosen by the model from the checked sections'
                : 'the first cited sentence of each section'}
              {run.report.extractive ? ' · extractive (no language model)' : ''}
            </li>
          </ol>
        </section>
      ) : null}
    </article>
  );
}
