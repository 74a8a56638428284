import type { AgentEvent } from '@/lib/agent/events';
import { runAgent } from '@/lib/agent/run-agent';
import { buildAgentDeps } from '@/lib/chat/agent-deps';
import { type AnswerRunInput, type AnswerRunOutput, type AnswerSession, runAnswer } from '@/lib/chat/answer-run';
import { type AgentRunBody, answerOptionsOf, type ChatBody, lastUserText } from '@/lib/chat/request';
import { getConfig } from '@/lib/config';
import { enforceRateLimit } from '@/lib/rate-limit';

/** Per-user limit on agent runs (429 with Retry-After); called before a response starts streaming. */
export async function checkAgentRateLimit(userId: string): Promise<void> {
  await enforceRateLimit({
    userId,
    action: 'agent-run',
    max: getConfig().rateLimits.agentRunsPerMinute,
    surface: 'agent',
  });
}

/** Builds today's dependencies and runs one persisted answer for the signed-in user. */
export async function runAnswerForUser(
  input: AnswerRunInput,
  listeners: { onSession?: (s: AnswerSession) => void; onEvent?: (e: AgentEvent) => void } = {},
): Promise<AnswerRunOutput> {
  const agentDeps = await buildAgentDeps();
  return runAnswer(input, { agentDeps, runAgent }, listeners);
}

/**
 * What one answer run needs, from either request body: the agent API persists a conversation only when the
 * caller names one; the chat page always does (its `id` is the conversation).
 */
export function answerRunInputOf(
  body: { kind: 'agent'; value: AgentRunBody } | { kind: 'chat'; value: ChatBody },
  { ownerId, signal }: { ownerId: string; signal: AbortSignal },
): AnswerRunInput {
  if (body.kind === 'chat') {
    return {
      ownerId,
      question: lastUserText(body.value.messages),
      conversationId: body.value.id,
      options: answerOptionsOf(body.value),
      signal,
      persistConversation: true,
    };
  }
  return {
    ownerId,
    question: body.value.question,
    conversationId: body.value.conversationId ?? null,
    options: answerOptionsOf(body.value),
    signal,
    persistConversation: Boolean(body.value.conversationId),
  };
}
