import { getDb } from '@/lib/db/client';
import { toJsonColumn } from '@/lib/db/json-column';

/**
 * Answer rows and the messages a persisted answer adds to its conversation. Every function takes the owner id;
 * rows of another owner are never read or written (an answer id of theirs matches nothing).
 */

export interface ConversationContext {
  id: string;
  title: string;
  /** The last turns, oldest first (for the agent's follow-up context). */
  history: { role: 'user' | 'assistant'; content: string }[];
}

/** One of the owner's conversations with its last `turns` messages, or null (missing or another owner's). */
export async function findConversationContext({
  ownerId,
  conversationId,
  turns = 6,
}: {
  ownerId: string;
  conversationId: string;
  turns?: number;
}): Promise<ConversationContext | null> {
  const db = getDb();
  const existing = await db.conversation.findFirst({ where: { id: conversationId, ownerId } });
  if (!existing) return null;
  const rows = await db.message.findMany({
    where: { conversationId: existing.id, ownerId },
    orderBy: { createdAt: 'desc' },
    select: { role: true, content: true },
    take: turns,
  });
  return {
    id: existing.id,
    title: existing.title,
    history: rows.reverse().map((t) => ({ role: t.role === 'user' ? 'user' : 'assistant', content: t.content })),
  };
}

export interface StartedAnswer {
  ownerId: string;
  answerId: string;
  question: string;
  mode: string;
  style: string;
  /** Null when the answer is not part of a conversation (API callers). */
  conversationId: string | null;
  /** Create the conversation (with this id) in the same transaction. */
  newConversationTitle: string | null;
}

/**
 * Writes, in one transaction: the new conversation (when asked), the user's message (when there is a
 * conversation) and the `running` Answer row.
 */
export async function recordStartedAnswer(input: StartedAnswer): Promise<void> {
  const db = getDb();
  const { ownerId, conversationId } = input;
  const userMessage = conversationId
    ? db.message.create({
        data: {
          conversationId,
          ownerId,
          role: 'user',
          content: input.question,
          parts: [{ type: 'text', text: input.question }],
        },
      })
    : null;
  await db.$transaction([
    ...(input.newConversationTitle !== null && conversationId
      ? [
          db.conversation.create({
            data: { id: conversationId, ownerId, title: input.newConversationTitle },
            select: { id: true },
          }),
        ]
      : []),
    ...(userMessage ? [userMessage] : []),
    db.answer.create({
      data: {
        id: input.answerId,
        ownerId,
        conversationId,
        question: input.question,
        text: '',
        status: 'running',
        mode: input.mode,
        style: input.style,
        citations: [],
        insufficiencies: [],
        trace: [],
        confidence: 'low',
        safetyFlags: [],
        models: {},
        timings: {},
      },
      select: { id: true },
    }),
  ]);
}

/** Stores the partial trace of a still running answer (no effect once it finished). */
export async function saveRunningTrace({
  ownerId,
  answerId,
  trace,
}: {
  ownerId: string;
  answerId: string;
  trace: unknown[];
}): Promise<void> {
  await getDb().answer.updateMany({
    where: { id: answerId, ownerId, status: 'running' },
    data: { trace: toJsonColumn(trace) },
  });
}

export interface FinishedAnswer {
  text: string;
  status: string;
  citations: object;
  insufficiencies: object;
  clarification?: object | null;
  trace: object;
  confidence: string;
  safetyFlags: string[];
  models: object;
  timings: object;
}

/** Stores the final result of an answer. */
export async function saveFinishedAnswer({
  ownerId,
  answerId,
  result,
}: {
  ownerId: string;
  answerId: string;
  result: FinishedAnswer;
}): Promise<void> {
  await getDb().answer.update({
    where: { id: answerId, ownerId },
    data: {
      text: result.text,
      status: result.status,
      citations: toJsonColumn(result.citations),
      insufficiencies: toJsonColumn(result.insufficiencies),
      clarification: result.clarification ? toJsonColumn(result.clarification) : undefined,
      trace: toJsonColumn(result.trace),
      confidence: result.confidence,
      safetyFlags: result.safetyFlags,
      models: toJsonColumn(result.models),
      timings: toJsonColumn(result.timings),
    },
  });
}

/** Appends the assistant's message to the conversation and marks the conversation as updated. */
export async function appendAssistantMessage({
  ownerId,
  conversationId,
  answerId,
  content,
  parts,
}: {
  ownerId: string;
  conversationId: string;
  answerId: string;
  content: string;
  parts: unknown[];
}): Promise<void> {
  const db = getDb();
  await db.message.create({
    data: { conversationId, ownerId, role: 'assistant', content, parts: toJsonColumn(parts), answerId },
  });
  await db.conversation.updateMany({ where: { id: conversationId, ownerId }, data: { updatedAt: new Date() } });
}

/**
 * At start-up (all owners): answers a killed server left `running` since before `olderThanMs` ago are marked
 * `interrupted` (their partial trace stays).
 */
export async function markInterruptedAnswers(olderThanMs = 0): Promise<number> {
  const cutoff = new Date(Date.now() - olderThanMs);
  const result = await getDb().answer.updateMany({
    where: { status: 'running', updatedAt: { lte: cutoff } },
    data: { status: 'interrupted', text: '' },
  });
  return result.count;
}
