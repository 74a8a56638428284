import type { ChatMessage } from '@/lib/chat/message';
import { getDb } from '@/lib/db/client';
import { AppError } from '@/lib/errors';
import { isUuid } from '@/lib/validation/ids';

/** Conversations and their messages; every function takes the owner id. */

export interface ConversationSummary {
  id: string;
  title: string;
  createdAt: string;
  updatedAt: string;
}

function toSummary(r: { id: string; title: string; createdAt: Date; updatedAt: Date }): ConversationSummary {
  return { id: r.id, title: r.title, createdAt: r.createdAt.toISOString(), updatedAt: r.updatedAt.toISOString() };
}

export async function listConversations({ ownerId }: { ownerId: string }): Promise<ConversationSummary[]> {
  const rows = await getDb().conversation.findMany({
    where: { ownerId },
    orderBy: { updatedAt: 'desc' },
    select: { id: true, title: true, createdAt: true, updatedAt: true },
    take: 500,
  });
  return rows.map(toSummary);
}

export async function findConversation({
  ownerId,
  id,
}: {
  ownerId: string;
  id: string;
}): Promise<ConversationSummary | null> {
  if (!isUuid(id)) return null;
  const row = await getDb().conversation.findFirst({
    where: { id, ownerId },
    select: { id: true, title: true, createdAt: true, updatedAt: true },
  });
  return row ? toSummary(row) : null;
}

export async function getConversationOrThrow({
  ownerId,
  id,
}: {
  ownerId: string;
  id: string;
}): Promise<ConversationSummary> {
  const c = await findConversation({ ownerId, id });
  if (!c) throw new AppError('not_found:conversation', 'Conversation not found.');
  return c;
}

/** A title from the first question: its first line, at most 80 characters. */
export function titleFromQuestion(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  return line.length > 80 ? `${line.slice(0, 77)}…` : line || 'New conversation';
}

export async function renameConversation({ ownerId, id, title }: { ownerId: string; id: string; title: string }) {
  if (!isUuid(id)) throw new AppError('not_found:conversation', 'Conversation not found.');
  const result = await getDb().conversation.updateMany({ where: { id, ownerId }, data: { title } });
  if (result.count === 0) throw new AppError('not_found:conversation', 'Conversation not found.');
  return getConversationOrThrow({ ownerId, id });
}

/** Deletes the conversation with its messages and answers (their shares go too). */
export async function deleteConversation({ ownerId, id }: { ownerId: string; id: string }): Promise<void> {
  if (!isUuid(id)) throw new AppError('not_found:conversation', 'Conversation not found.');
  const result = await getDb().conversation.deleteMany({ where: { id, ownerId } });
  if (result.count === 0) throw new AppError('not_found:conversation', 'Conversation not found.');
}

/** The stored messages of a conversation as ChatMessages (parts as they were streamed). */
export async function listMessages({
  ownerId,
  conversationId,
}: {
  ownerId: string;
  conversationId: string;
}): Promise<ChatMessage[]> {
  await getConversationOrThrow({ ownerId, id: conversationId });
  const rows = await getDb().message.findMany({
    where: { conversationId, ownerId },
    orderBy: { createdAt: 'asc' },
    select: {
      id: true,
      role: true,
      parts: true,
      createdAt: true,
      answerId: true,
      answer: { select: { status: true } },
    },
  });
  return rows.map((r) => ({
    id: r.id,
    role: r.role === 'user' ? 'user' : 'assistant',
    parts: Array.isArray(r.parts) ? (r.parts as ChatMessage['parts']) : [],
    metadata: {
      createdAt: r.createdAt.toISOString(),
      ...(r.answerId ? { answerId: r.answerId } : {}),
      ...(r.answer ? { status: r.answer.status as 'running' | 'complete' | 'stopped' | 'error' | 'interrupted' } : {}),
    },
  }));
}
