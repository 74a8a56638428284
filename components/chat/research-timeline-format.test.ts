import { describe, expect, it } from 'vitest';
import type { ResearchLogEntry } from '@/lib/research/log';
import {
  elapsedLabel,
  endedStarts,
  finishedStarts,
  planEditClause,
  researchCard,
  timelineSummary,
} from './research-timeline-format';

const at = '2026-01-01T10:00:00.000Z';
const start = (taskId: string, index: number, remediation = false): ResearchLogEntry => ({
  type: 'task_start',
  at,
  taskId,
  index,
  total: 3,
  title: `Task ${taskId}`,
  remediation,
});
const done = (taskId: string, index: number, over: Partial<ResearchLogEntry> = {}): ResearchLogEntry =>
  ({
    type: 'task_done',
    at,
    taskId,
    index,
    title: `Task ${taskId}`,
    status: 'done',
    confidence: 'high',
    citations: 3,
    validated: true,
    remediation: false,
    ms: 1534,
    ...over,
  }) as ResearchLogEntry;

describe('research timeline cards', () => {
  it('says which questions were asked and how they were answered', () => {
    const asked = researchCard({ type: 'questions', at, questions: ['Which aspects?', 'Which period?'] });
    expect(asked.title).toBe('Asked 2 clarifying questions before searching');
    expect(asked.details).toEqual(['Which aspects?', 'Which period?']);
    expect(researchCard({ type: 'questions', at, questions: ['Which?'] }).title).toBe(
      'Asked 1 clarifying question before searching',
    );
    expect(researchCard({ type: 'answers', at, answered: 0, skipped: 3 }).title).toBe('Clarifying questions skipped');
    expect(researchCard({ type: 'answers', at, answered: 1, skipped: 2 }).title).toBe('Got 1 answer (2 skipped)');
    expect(researchCard({ type: 'answers', at, answered: 2, skipped: 0 }).title).toBe('Got 2 answers');
  });

  it('lists the proposed plan and counts the edits', () => {
    const plan = researchCard({ type: 'plan', at, tasks: ['Overview', 'Limits'], fallback: null });
    expect(plan.title).toBe('Proposed a plan of 2 tasks');
    expect(plan.details).toEqual(['1. Overview', '2. Limits']);
    expect(plan.tech).toBeNull();
    expect(researchCard({ type: 'plan', at, tasks: ['A'], fallback: 'timeout' }).tech).toBe('default plan: timeout');
    expect(researchCard({ type: 'plan_edited', at, tasks: 2, edited: 1, moved: 1, deleted: 2, added: 1 }).title).toBe(
      'You edited the plan: 2 tasks (1 edited, 1 moved, 2 deleted, 1 added)',
    );
    expect(researchCard({ type: 'plan_edited', at, tasks: 3, edited: 0, moved: 0, deleted: 0, added: 0 }).title).toBe(
      'Plan saved unchanged (3 tasks)',
    );
    expect(planEditClause({ edited: 0, moved: 2, deleted: 0, added: 0 })).toBe('2 moved');
    expect(researchCard({ type: 'approved', at, tasks: 3, done: 0 }).title).toBe('Plan approved with 3 tasks');
    expect(researchCard({ type: 'approved', at, tasks: 3, done: 1 }).title).toBe(
      'Plan approved: running the remaining 2 of 3 tasks',
    );
    expect(researchCard({ type: 'interrupted', at, done: 1, total: 3 })).toMatchObject({
      tone: 'warn',
      title: 'Interrupted: the server stopped after 1 of 3 tasks',
    });
  });

  it('shows each task starting and finishing, linked to its own trace', () => {
    const started = researchCard(start('t2', 1), false);
    expect(started).toMatchObject({
      title: 'Started task 2 of 3: Task t2',
      taskId: 't2',
      pending: true,
      tone: 'active',
    });
    expect(researchCard(start('t2', 1), true)).toMatchObject({ pending: false, tone: 'neutral' });
    // once the task's end is logged, that card links the trace instead
    expect(researchCard(start('t2', 1), true, true).taskId).toBeNull();
    expect(researchCard(start('t2', 1, true)).title).toBe('Researching task 2 again: Task t2');
    const finished = researchCard(done('t2', 1));
    expect(finished).toMatchObject({ tone: 'good', taskId: 't2', title: 'Finished task 2: Task t2' });
    expect(finished.details).toEqual(['3 sources · high confidence · checked']);
    expect(finished.tech).toContain('1.5 s');
    expect(researchCard(done('t1', 0, { citations: 1, validated: false, confidence: null })).details).toEqual([
      '1 source · not checked',
    ]);
    expect(researchCard(done('t1', 0, { citations: 1, validated: false })).tone).toBe('warn');
    expect(researchCard(done('t1', 0, { status: 'failed' }))).toMatchObject({
      tone: 'bad',
      title: 'Task 1 could not be answered: Task t1',
    });
    expect(researchCard(done('t1', 0, { remediation: true })).title).toBe(
      'Finished task 1 (remediation pass): Task t1',
    );
  });

  it('says the quality score against the threshold and what the remediation pass did', () => {
    const q = (over: object) =>
      researchCard({
        type: 'quality',
        at,
        attempt: 1,
        score: 72,
        threshold: 60,
        action: 'accept',
        taskId: null,
        taskTitle: null,
        ...over,
      } as ResearchLogEntry);
    expect(q({})).toMatchObject({ tone: 'good', title: 'Quality check: 72/100 (threshold 60)' });
    expect(q({}).details).toEqual(['Accepted: no remediation pass needed']);
    const retry = q({ score: 41.6, action: 'retry', taskId: 't3', taskTitle: 'Limits' });
    expect(retry).toMatchObject({
      tone: 'warn',
      taskId: 't3',
      title: 'Quality check: 42/100, below the threshold of 60',
    });
    expect(retry.details).toEqual(['The remediation pass researches “Limits” once more']);
    expect(q({ attempt: 2, score: 65, taskId: 't3', taskTitle: 'Limits' }).details).toEqual([
      'The new version of “Limits” is kept',
    ]);
    const kept = q({ attempt: 2, score: 45, action: 'keep_best', taskId: 't3', taskTitle: 'Limits' });
    expect(kept.tone).toBe('warn');
    expect(kept.details).toEqual(['The first version of “Limits” was better and is kept']);
  });

  it('reports the synthesis, the delivery and how the run ended', () => {
    expect(
      researchCard({ type: 'synthesis', at, sections: 1, summarySource: 'extractive', reason: null }),
    ).toMatchObject({
      title: 'Wrote the report: 1 section',
      details: ['Key findings: the first cited sentence of each section'],
    });
    expect(
      researchCard({ type: 'synthesis', at, sections: 3, summarySource: 'model', reason: null }).details[0],
    ).toMatch(/model chose/);
    expect(researchCard({ type: 'report', at, answerId: 'a1', sections: 3, score: 71.6 }).title).toBe(
      'Report delivered: 3 sections, quality 72/100',
    );
    expect(researchCard({ type: 'status', at, status: 'cancelled', note: 'Cancelled by you.' })).toMatchObject({
      title: 'Cancelled',
      details: ['Cancelled by you.'],
    });
    expect(researchCard({ type: 'status', at, status: 'failed', note: 'The run failed: boom' })).toMatchObject({
      tone: 'bad',
      details: ['The run failed: boom'],
    });
    expect(researchCard({ type: 'status', at, status: 'done', note: null }).title).toBe('Research done');
  });

  it('every entry type gets a non-empty title', () => {
    const entries: ResearchLogEntry[] = [
      { type: 'status', at, status: 'synthesising', note: null },
      start('t1', 0),
      done('t1', 0, { status: 'skipped' }),
    ];
    for (const e of entries) expect(researchCard(e).title.length).toBeGreaterThan(5);
  });
});

describe('research timeline helpers', () => {
  it('labels the time since the run began', () => {
    expect(elapsedLabel(at, at)).toBe('start');
    expect(elapsedLabel('2026-01-01T10:00:01.534Z', at)).toBe('+1.5 s');
    expect(elapsedLabel('2026-01-01T10:02:05.000Z', at)).toBe('+2 min 5 s');
    expect(elapsedLabel('2026-01-01T12:30:00.000Z', at)).toBe('+2 h 30 min');
    expect(elapsedLabel('not a time', at)).toBe('');
  });
  it('shows a started task as under way only while it runs', () => {
    const entries = [start('t1', 0), done('t1', 0), start('t2', 1)];
    expect(finishedStarts(entries, true)).toEqual([true, true, false]);
    // cancelled or interrupted mid-task: nothing is under way
    expect(finishedStarts(entries, false)).toEqual([true, true, true]);
    expect(endedStarts(entries)).toEqual([true, false, false]);
  });
  it('summarises the run', () => {
    expect(timelineSummary([])).toBe('');
    expect(
      timelineSummary([
        done('t1', 0),
        done('t2', 1),
        start('t2', 1, true),
        done('t2', 1, { remediation: true }),
        { type: 'quality', at, attempt: 2, score: 66, threshold: 60, action: 'accept', taskId: 't2', taskTitle: 'B' },
      ]),
    ).toBe('2 tasks finished · quality 66/100 · 1 remediation pass');
  });
});
