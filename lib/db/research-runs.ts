import { getDb } from '@/lib/db/client';
import { toJsonColumn } from '@/lib/db/json-column';
import { type ResearchLogEntry, researchLogEntrySchema } from '@/lib/research/log';
import {
  type ClarifyingQuestion,
  clarifyingQuestionSchema,
  type ResearchReport,
  type ResearchStatus,
  type ResearchTask,
  researchReportSchema,
  researchStatusSchema,
  researchTaskSchema,
} from '@/lib/research/schema';
import { isUuid } from '@/lib/validation/ids';

/**
 * Research runs (lib/research). Every function takes the owner id; another owner's run id matches nothing, so it
 * answers exactly like a missing one. Status changes are compare-and-set on the expected statuses, so two tabs
 * cannot both approve (or answer) the same run.
 */

export interface ResearchRunRow {
  id: string;
  ownerId: string;
  conversationId: string | null;
  question: string;
  status: ResearchStatus;
  style: 'concise' | 'detailed' | 'bullet';
  filters: Record<string, unknown>;
  clarifications: ClarifyingQuestion[];
  tasks: ResearchTask[];
  report: ResearchReport | null;
  /** The research-level event log (lib/research/log.ts), oldest first. */
  events: ResearchLogEntry[];
  answerId: string | null;
  note: string | null;
  runnerId: string | null;
  heartbeatAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

type DbRow = Awaited<ReturnType<ReturnType<typeof getDb>['researchRun']['findFirst']>>;

function parseRow(row: NonNullable<DbRow>): ResearchRunRow {
  const style = row.style === 'concise' || row.style === 'bullet' ? row.style : 'detailed';
  const filters = row.filters && typeof row.filters === 'object' && !Array.isArray(row.filters) ? row.filters : {};
  return {
    id: row.id,
    ownerId: row.ownerId,
    conversationId: row.conversationId,
    question: row.question,
    status: researchStatusSchema.parse(row.status),
    style,
    filters: filters as Record<string, unknown>,
    clarifications: clarifyingQuestionSchema.array().parse(row.clarifications),
    tasks: researchTaskSchema.array().parse(row.tasks),
    report: row.report === null ? null : researchReportSchema.parse(row.report),
    events: row.events === null ? [] : researchLogEntrySchema.array().parse(row.events),
    answerId: row.answerId,
    note: row.note,
    runnerId: row.runnerId,
    heartbeatAt: row.heartbeatAt,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export interface NewResearchRun {
  id: string;
  ownerId: string;
  conversationId: string | null;
  question: string;
  status: ResearchStatus;
  style: string;
  filters: object;
  clarifications: ClarifyingQuestion[];
  tasks: ResearchTask[];
  events: ResearchLogEntry[];
  note: string | null;
  /** When the run lives in a conversation: create it with this title (new) and add the two messages. */
  conversation: { newTitle: string | null } | null;
}

/**
 * Creates the run and, when it has a conversation, in the same transaction: the conversation (when new), the
 * user's message and an assistant message that shows the run (a `data-research` part naming it).
 */
export async function createResearchRun(input: NewResearchRun): Promise<ResearchRunRow> {
  const db = getDb();
  const { ownerId, conversationId } = input;
  const run = db.researchRun.create({
    data: {
      id: input.id,
      ownerId,
      conversationId,
      question: input.question,
      status: input.status,
      style: input.style,
      filters: toJsonColumn(input.filters),
      clarifications: toJsonColumn(input.clarifications),
      tasks: toJsonColumn(input.tasks),
      events: toJsonColumn(input.events),
      note: input.note,
    },
  });
  if (!conversationId || !input.conversation) {
    return parseRow(await run);
  }
  const writes = [
    ...(input.conversation.newTitle !== null
      ? [db.conversation.create({ data: { id: conversationId, ownerId, title: input.conversation.newTitle } })]
      : []),
  ];
  const results = await db.$transaction([
    ...writes,
    run,
    db.message.create({
      data: {
        conversationId,
        ownerId,
        role: 'user',
        content: input.question,
        parts: [{ type: 'text', text: input.question }],
      },
    }),
    db.message.create({
      data: {
        conversationId,
        ownerId,
        role: 'assistant',
        content: `Research: ${input.question}`.slice(0, 500),
        parts: [{ type: 'data-research', id: `research-${input.id}`, data: { runId: input.id } }],
      },
    }),
  ]);
  await db.conversation.updateMany({ where: { id: conversationId, ownerId }, data: { updatedAt: new Date() } });
  const created = results[writes.length];
  return parseRow(created as NonNullable<DbRow>);
}

/** One of the owner's runs, or null (missing, malformed id, or another owner's). */
export async function findResearchRun({
  ownerId,
  id,
}: {
  ownerId: string;
  id: string;
}): Promise<ResearchRunRow | null> {
  if (!isUuid(id)) return null;
  const row = await getDb().researchRun.findFirst({ where: { id, ownerId } });
  return row ? parseRow(row) : null;
}

/** Whether the owner has this conversation (for continuing it). */
export async function ownsConversation({
  ownerId,
  conversationId,
}: {
  ownerId: string;
  conversationId: string;
}): Promise<boolean> {
  if (!isUuid(conversationId)) return false;
  return (await getDb().conversation.count({ where: { id: conversationId, ownerId } })) > 0;
}

export interface ResearchRunPatch {
  status?: ResearchStatus;
  clarifications?: ClarifyingQuestion[];
  tasks?: ResearchTask[];
  report?: ResearchReport | null;
  events?: ResearchLogEntry[];
  answerId?: string | null;
  note?: string | null;
  runnerId?: string | null;
  heartbeatAt?: Date | null;
}

/**
 * Applies `patch` when the run is the owner's and (with `from`) its status is one of `from`; returns whether it
 * did (false for a missing run, another owner's, or one that moved on).
 */
export async function updateResearchRun({
  ownerId,
  id,
  from,
  patch,
}: {
  ownerId: string;
  id: string;
  from?: readonly ResearchStatus[];
  patch: ResearchRunPatch;
}): Promise<boolean> {
  if (!isUuid(id)) return false;
  const result = await getDb().researchRun.updateMany({
    where: { id, ownerId, ...(from ? { status: { in: [...from] } } : {}) },
    data: {
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      ...(patch.clarifications !== undefined ? { clarifications: toJsonColumn(patch.clarifications) } : {}),
      ...(patch.tasks !== undefined ? { tasks: toJsonColumn(patch.tasks) } : {}),
      ...(patch.report !== undefined ? { report: patch.report === null ? undefined : toJsonColumn(patch.report) } : {}),
      ...(patch.events !== undefined ? { events: toJsonColumn(patch.events) } : {}),
      ...(patch.answerId !== undefined ? { answerId: patch.answerId } : {}),
      ...(patch.note !== undefined ? { note: patch.note } : {}),
      ...(patch.runnerId !== undefined ? { runnerId: patch.runnerId } : {}),
      ...(patch.heartbeatAt !== undefined ? { heartbeatAt: patch.heartbeatAt } : {}),
    },
  });
  return result.count > 0;
}

export interface ResearchAnswer {
  ownerId: string;
  runId: string;
  answerId: string;
  conversationId: string | null;
  question: string;
  style: string;
  text: string;
  citations: object;
  report: ResearchReport;
  trace: object;
  confidence: string;
  safetyFlags: string[];
  models: object;
  timings: object;
}

/**
 * Saves a finished report as an Answer row (mode `research`, shareable like any answer) and links it to the run
 * and to the run's assistant message in its conversation.
 */
export async function saveResearchAnswer(input: ResearchAnswer): Promise<void> {
  const db = getDb();
  const { ownerId } = input;
  await db.answer.create({
    data: {
      id: input.answerId,
      ownerId,
      conversationId: input.conversationId,
      question: input.question,
      text: input.text,
      status: 'complete',
      mode: 'research',
      style: input.style,
      citations: toJsonColumn(input.citations),
      insufficiencies: [],
      trace: toJsonColumn(input.trace),
      confidence: input.confidence,
      safetyFlags: input.safetyFlags,
      models: toJsonColumn(input.models),
      timings: toJsonColumn(input.timings),
      report: toJsonColumn(input.report),
    },
  });
  await db.researchRun.updateMany({ where: { id: input.runId, ownerId }, data: { answerId: input.answerId } });
  if (input.conversationId) {
    const candidates = await db.message.findMany({
      where: { conversationId: input.conversationId, ownerId, role: 'assistant', answerId: null },
      orderBy: { createdAt: 'desc' },
      select: { id: true, parts: true },
    });
    const message = candidates.find((m) =>
      (Array.isArray(m.parts) ? m.parts : []).some((p) => showsRun(p, input.runId)),
    );
    if (message)
      await db.message.updateMany({
        where: { id: message.id, ownerId },
        data: { answerId: input.answerId, content: input.text.slice(0, 20_000) },
      });
  }
}

/** Whether a stored message part is the `data-research` part of this run. */
function showsRun(part: unknown, runId: string): boolean {
  if (typeof part !== 'object' || part === null || !('type' in part) || part.type !== 'data-research') return false;
  const data = 'data' in part ? part.data : null;
  return typeof data === 'object' && data !== null && 'runId' in data && data.runId === runId;
}
