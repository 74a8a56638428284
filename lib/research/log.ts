import { z } from 'zod';

/**
 * The research-level event log: what happened to a run, in order, with when (`at`, ISO time). It is kept in the
 * run's row (`ResearchRun.events`), returned with the run (`events`), streamed as it grows (`log` events), and shown
 * as the research timeline in the chat. Small on purpose: the tasks keep their own agent traces; the log names them.
 */

const at = z.string().describe('When it happened (ISO 8601)');
const confidence = z.enum(['high', 'medium', 'low']).nullable();

export const researchLogEntrySchema = z.discriminatedUnion('type', [
  /** Clarifying questions asked (the run waits for answers). */
  z.object({
    type: z.literal('questions'),
    at,
    questions: z.array(z.string()),
  }),
  /** The questions answered (some may be skipped) or all skipped. */
  z.object({ type: z.literal('answers'), at, answered: z.number().int(), skipped: z.number().int() }),
  /** A plan proposed for approval. */
  z.object({
    type: z.literal('plan'),
    at,
    tasks: z.array(z.string()).describe('The task titles in plan order'),
    fallback: z.string().nullable(),
  }),
  /** The user's plan edit (counted against the proposed plan). */
  z.object({
    type: z.literal('plan_edited'),
    at,
    tasks: z.number().int(),
    edited: z.number().int(),
    moved: z.number().int(),
    deleted: z.number().int(),
    added: z.number().int(),
  }),
  /** The plan approved: the run starts (or resumes, with `done` tasks kept). */
  z.object({ type: z.literal('approved'), at, tasks: z.number().int(), done: z.number().int() }),
  /** A status change the other entries do not already say (synthesising, done, cancelled, failed). */
  z.object({
    type: z.literal('status'),
    at,
    status: z.enum(['synthesising', 'done', 'cancelled', 'failed']),
    note: z.string().nullable(),
  }),
  /** The runner was gone (server stopped): the run waits for approval again with its finished tasks. */
  z.object({ type: z.literal('interrupted'), at, done: z.number().int(), total: z.number().int() }),
  z.object({
    type: z.literal('task_start'),
    at,
    taskId: z.string(),
    index: z.number().int(),
    total: z.number().int(),
    title: z.string(),
    remediation: z.boolean(),
  }),
  z.object({
    type: z.literal('task_done'),
    at,
    taskId: z.string(),
    index: z.number().int(),
    title: z.string(),
    status: z.enum(['done', 'failed', 'skipped']),
    confidence,
    citations: z.number().int(),
    validated: z.boolean(),
    remediation: z.boolean(),
    ms: z.number(),
  }),
  /** The quality check: attempt 1 (before any remediation) and, after a remediation pass, attempt 2. */
  z.object({
    type: z.literal('quality'),
    at,
    attempt: z.number().int(),
    score: z.number(),
    threshold: z.number(),
    action: z.enum(['accept', 'retry', 'keep_best']),
    taskId: z.string().nullable(),
    taskTitle: z.string().nullable(),
  }),
  z.object({
    type: z.literal('synthesis'),
    at,
    sections: z.number().int(),
    summarySource: z.enum(['model', 'extractive']),
    reason: z.string().nullable(),
  }),
  /** The report saved as a shareable answer. */
  z.object({ type: z.literal('report'), at, answerId: z.string(), sections: z.number().int(), score: z.number() }),
]);
export type ResearchLogEntry = z.infer<typeof researchLogEntrySchema>;

/** Distributes over the union, so each entry keeps its own fields without its time. */
type WithoutAt<T> = T extends unknown ? Omit<T, 'at'> : never;
export type ResearchLogInput = WithoutAt<ResearchLogEntry>;

/** A run keeps at most this many entries (8 tasks + one remediation make about 30); the oldest go first. */
export const MAX_LOG_ENTRIES = 200;

/** The log with `entry` appended, stamped now. */
export function appendLog(
  log: readonly ResearchLogEntry[],
  entry: ResearchLogInput,
  now: Date = new Date(),
): ResearchLogEntry[] {
  const stamped = { ...entry, at: now.toISOString() } as ResearchLogEntry;
  return [...log, stamped].slice(-MAX_LOG_ENTRIES);
}

/**
 * How an approved plan differs from the proposed one: tasks whose title or question changed, tasks moved (kept
 * tasks whose relative order changed: not on a longest increasing run of old positions), deleted and added.
 */
export function planChanges(
  before: ReadonlyArray<{ id: string; title: string; query: string }>,
  /** The new plan; a task without an id (or with an id not in `before`) was added. */
  after: ReadonlyArray<{ id?: string | undefined; title: string; query: string }>,
): { edited: number; moved: number; deleted: number; added: number } {
  const old = new Map(before.map((t, i) => [t.id, { t, i }]));
  const kept = after.filter((t): t is typeof t & { id: string } => t.id !== undefined && old.has(t.id));
  const edited = kept.filter((t) => {
    const o = old.get(t.id)?.t;
    return o !== undefined && (o.title !== t.title || o.query !== t.query);
  }).length;
  const positions = kept.map((t) => old.get(t.id)?.i ?? 0);
  return {
    edited,
    moved: kept.length - longestIncreasing(positions),
    deleted: before.length - kept.length,
    added: after.length - kept.length,
  };
}

/** The length of the longest strictly increasing subsequence (patience sorting). */
function longestIncreasing(xs: readonly number[]): number {
  const tails: number[] = [];
  for (const x of xs) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((tails[mid] ?? 0) < x) lo = mid + 1;
      else hi = mid;
    }
    tails[lo] = x;
  }
  return tails.length;
}
