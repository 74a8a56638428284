import type { ResearchLogEntry } from '@/lib/research/log';
import { formatMs } from './trace-format';

/**
 * The research timeline's cards as plain language: one card per research-level log entry (lib/research/log.ts).
 * Pure, so the wording is unit-tested (research-timeline-format.test.ts); research-timeline.tsx draws the cards
 * with the agent trace's Row.
 */

export type CardTone = 'neutral' | 'active' | 'good' | 'warn' | 'bad';
export type CardIcon = 'question' | 'list' | 'edit' | 'check' | 'x' | 'alert' | 'search' | 'spark' | 'file';

export interface ResearchCard {
  tone: CardTone;
  icon: CardIcon;
  title: string;
  /** Lines under the title (plain text). */
  details: string[];
  /** Technical detail, shown with "Show technical details". */
  tech: string | null;
  /** The task whose own trace this card is about (a link to it). */
  taskId: string | null;
  /** Still under way (a started task not finished yet, while the run runs). */
  pending: boolean;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const CONFIDENCE: Record<'high' | 'medium' | 'low', string> = {
  high: 'high confidence',
  medium: 'medium confidence',
  low: 'low confidence',
};

/** "+1.5 s" after the run's first entry ("start" for the first); empty for an unreadable time. */
export function elapsedLabel(at: string, since: string): string {
  const ms = Date.parse(at) - Date.parse(since);
  if (!Number.isFinite(ms)) return '';
  if (ms <= 0) return 'start';
  if (ms >= 3_600_000) return `+${Math.floor(ms / 3_600_000)} h ${Math.round((ms % 3_600_000) / 60_000)} min`;
  if (ms >= 60_000) return `+${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `+${formatMs(ms)}`;
}

/** The plan edit's counts as a clause: "1 edited, 1 moved, 2 deleted, 1 added" (null when nothing changed). */
export function planEditClause(e: { edited: number; moved: number; deleted: number; added: number }): string | null {
  const parts = [
    e.edited > 0 ? `${e.edited} edited` : null,
    e.moved > 0 ? `${e.moved} moved` : null,
    e.deleted > 0 ? `${e.deleted} deleted` : null,
    e.added > 0 ? `${e.added} added` : null,
  ].filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(', ') : null;
}

/**
 * The card for one entry. `finished` says whether a `task_start` has its `task_done` (or the run is over), so a
 * started task shows as under way only while it is; `ended` whether its `task_done` follows (which then links the
 * task's trace instead of the start).
 */
export function researchCard(entry: ResearchLogEntry, finished = true, ended = false): ResearchCard {
  const base = { details: [] as string[], tech: null as string | null, taskId: null as string | null, pending: false };
  switch (entry.type) {
    case 'questions':
      return {
        ...base,
        tone: 'warn',
        icon: 'question',
        title: `Asked ${plural(entry.questions.length, 'clarifying question')} before searching`,
        details: entry.questions,
      };
    case 'answers':
      return {
        ...base,
        tone: 'neutral',
        icon: 'question',
        title:
          entry.answered === 0
            ? 'Clarifying questions skipped'
            : `Got ${plural(entry.answered, 'answer')}${entry.skipped > 0 ? ` (${entry.skipped} skipped)` : ''}`,
      };
    case 'plan':
      return {
        ...base,
        tone: 'neutral',
        icon: 'list',
        title: `Proposed a plan of ${plural(entry.tasks.length, 'task')}`,
        details: entry.tasks.map((t, i) => `${i + 1}. ${t}`),
        tech: entry.fallback ? `default plan: ${entry.fallback}` : null,
      };
    case 'plan_edited': {
      const clause = planEditClause(entry);
      return {
        ...base,
        tone: 'neutral',
        icon: 'edit',
        title: clause
          ? `You edited the plan: ${plural(entry.tasks, 'task')} (${clause})`
          : `Plan saved unchanged (${plural(entry.tasks, 'task')})`,
      };
    }
    case 'approved':
      return {
        ...base,
        tone: 'good',
        icon: 'check',
        title:
          entry.done > 0
            ? `Plan approved: running the remaining ${entry.tasks - entry.done} of ${plural(entry.tasks, 'task')}`
            : `Plan approved with ${plural(entry.tasks, 'task')}`,
      };
    case 'interrupted':
      return {
        ...base,
        tone: 'warn',
        icon: 'alert',
        title: `Interrupted: the server stopped after ${entry.done} of ${plural(entry.total, 'task')}`,
        details: ['Finished tasks are kept; approve again to run the rest.'],
      };
    case 'task_start':
      return {
        ...base,
        // blue while under way, like the agent trace's running tool call; a past start is neutral
        tone: finished ? 'neutral' : 'active',
        icon: 'search',
        pending: !finished,
        taskId: ended ? null : entry.taskId,
        title: entry.remediation
          ? `Researching task ${entry.index + 1} again: ${entry.title}`
          : `Started task ${entry.index + 1} of ${entry.total}: ${entry.title}`,
        details: entry.remediation ? ['The remediation pass: refocused on the research question, asked to quote'] : [],
      };
    case 'task_done': {
      const n = entry.index + 1;
      const sources = plural(entry.citations, 'source');
      const took = formatMs(entry.ms);
      const again = entry.remediation ? ' (remediation pass)' : '';
      if (entry.status === 'done')
        return {
          ...base,
          tone: entry.validated ? 'good' : 'warn',
          icon: 'check',
          taskId: entry.taskId,
          title: `Finished task ${n}${again}: ${entry.title}`,
          details: [
            [
              sources,
              entry.confidence ? CONFIDENCE[entry.confidence] : null,
              entry.validated ? 'checked' : 'not checked',
            ]
              .filter(Boolean)
              .join(' · '),
          ],
          tech: `task_done done · ${entry.citations} citations · ${entry.confidence ?? 'no'} confidence · ${took}`,
        };
      return {
        ...base,
        tone: entry.status === 'failed' ? 'bad' : 'warn',
        icon: entry.status === 'failed' ? 'x' : 'alert',
        taskId: entry.taskId,
        title:
          entry.status === 'failed'
            ? `Task ${n}${again} could not be answered: ${entry.title}`
            : `Task ${n}${again} stopped: ${entry.title}`,
        details: entry.status === 'failed' ? ['Its section will say what the documents did not support'] : [],
        tech: `task_done ${entry.status} · ${took}`,
      };
    }
    case 'quality': {
      const score = `${Math.round(entry.score)}/100`;
      const task = entry.taskTitle ? `“${entry.taskTitle}”` : 'the weakest section';
      const tech = `quality attempt ${entry.attempt} · ${entry.action} · score ${entry.score} · threshold ${entry.threshold}`;
      if (entry.attempt === 1 && entry.action === 'retry')
        return {
          ...base,
          tone: 'warn',
          icon: 'spark',
          taskId: entry.taskId,
          title: `Quality check: ${score}, below the threshold of ${entry.threshold}`,
          details: [`The remediation pass researches ${task} once more`],
          tech,
        };
      if (entry.attempt === 1)
        return {
          ...base,
          tone: 'good',
          icon: 'spark',
          title: `Quality check: ${score} (threshold ${entry.threshold})`,
          details: ['Accepted: no remediation pass needed'],
          tech,
        };
      return {
        ...base,
        tone: entry.score >= entry.threshold ? 'good' : 'warn',
        icon: 'spark',
        taskId: entry.taskId,
        title: `Quality after the remediation pass: ${score} (threshold ${entry.threshold})`,
        details: [
          entry.action === 'keep_best'
            ? `The first version of ${task} was better and is kept`
            : `The new version of ${task} is kept`,
        ],
        tech,
      };
    }
    case 'synthesis':
      return {
        ...base,
        tone: 'neutral',
        icon: 'list',
        title: `Wrote the report: ${plural(entry.sections, 'section')}`,
        details: [
          entry.summarySource === 'model'
            ? 'Key findings: sentences the model chose from the checked sections'
            : 'Key findings: the first cited sentence of each section',
        ],
        tech: entry.reason ? `key findings fallback: ${entry.reason}` : null,
      };
    case 'report':
      return {
        ...base,
        tone: 'good',
        icon: 'file',
        title: `Report delivered: ${plural(entry.sections, 'section')}, quality ${Math.round(entry.score)}/100`,
        details: ['Saved as an answer you can share'],
        tech: `answer ${entry.answerId}`,
      };
    case 'status':
      switch (entry.status) {
        case 'synthesising':
          return { ...base, tone: 'neutral', icon: 'spark', title: 'All tasks ran: checking quality' };
        case 'done':
          return { ...base, tone: 'good', icon: 'check', title: 'Research done' };
        case 'cancelled':
          return { ...base, tone: 'warn', icon: 'x', title: 'Cancelled', details: entry.note ? [entry.note] : [] };
        case 'failed':
          return {
            ...base,
            tone: 'bad',
            icon: 'alert',
            title: 'The run failed',
            details: entry.note ? [entry.note] : [],
          };
      }
  }
}

/**
 * Which `task_start` entries (by position) have finished: a later `task_done` of the same task, or the run is no
 * longer executing (a run that was cancelled or interrupted mid-task shows the start as past, not as under way).
 */
export function finishedStarts(entries: readonly ResearchLogEntry[], executing: boolean): boolean[] {
  const ended = endedStarts(entries);
  return entries.map((e, i) => e.type !== 'task_start' || !executing || ended[i] === true);
}

/** Which `task_start` entries (by position) are followed by their task's `task_done`. */
export function endedStarts(entries: readonly ResearchLogEntry[]): boolean[] {
  return entries.map(
    (e, i) =>
      e.type === 'task_start' &&
      entries.slice(i + 1).some((later) => later.type === 'task_done' && later.taskId === e.taskId),
  );
}

/** The header's one-line summary: "3 tasks · quality 72/100 · 1 remediation pass". */
export function timelineSummary(entries: readonly ResearchLogEntry[]): string {
  const done = entries.filter((e) => e.type === 'task_done' && !e.remediation).length;
  const quality = [...entries].reverse().find((e) => e.type === 'quality');
  const remediated = entries.some((e) => e.type === 'task_start' && e.remediation);
  return [
    done > 0 ? `${plural(done, 'task')} finished` : null,
    quality ? `quality ${Math.round(quality.score)}/100` : null,
    remediated ? '1 remediation pass' : null,
  ]
    .filter(Boolean)
    .join(' · ');
}
