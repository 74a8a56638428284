import type { AgentEvent, TraceEvent } from '@/lib/agent/events';
import type { AgentDeps, AgentResult, ChatTurn, RunAgentInput } from '@/lib/agent/types';
import type { ChatMessage, ChatResult } from '@/lib/chat/message';
import { replayAnswer } from '@/lib/chat/replay-answer';
import type { AnswerOptions } from '@/lib/chat/request';
import {
  appendAssistantMessage,
  findConversationContext,
  recordStartedAnswer,
  saveFinishedAnswer,
  saveRunningTrace,
} from '@/lib/db/answers';
import { titleFromQuestion } from '@/lib/db/conversations';
import { AppError } from '@/lib/errors';
import { isUuid } from '@/lib/validation/ids';

/**
 * One question → one persisted answer. Creates (or continues) the conversation, stores the user message and a
 * `running` Answer row, runs the agent with the caller's event listener, saves the trace as it grows (so a
 * killed server leaves a partial trace), and stores the final result and the assistant message. Aborting the
 * signal stops the run; what was produced is saved with status `stopped`.
 */

export interface AnswerRunInput {
  ownerId: string;
  question: string;
  conversationId?: string | null;
  options: AnswerOptions;
  signal?: AbortSignal;
  /** Persist a conversation (chat) or only an Answer row (API callers without a conversation). */
  persistConversation: boolean;
}

export interface AnswerSession {
  conversationId: string | null;
  answerId: string;
  title: string;
}

export interface AnswerRunOutput {
  session: AnswerSession;
  result: AgentResult;
  chatResult: ChatResult;
}

export type RunAgentFn = (
  input: RunAgentInput,
  deps: AgentDeps,
  emit?: (event: AgentEvent) => void,
) => Promise<AgentResult>;

export interface AnswerRunDeps {
  agentDeps: AgentDeps;
  runAgent: RunAgentFn;
}

const TRACE_FLUSH_MS = 1000;

export async function runAnswer(
  input: AnswerRunInput,
  deps: AnswerRunDeps,
  listeners: { onSession?: (s: AnswerSession) => void; onEvent?: (e: AgentEvent) => void } = {},
): Promise<AnswerRunOutput> {
  let conversationId: string | null = null;
  let title = titleFromQuestion(input.question);
  let history: ChatTurn[] = [];

  if (input.persistConversation) {
    if (input.conversationId && isUuid(input.conversationId)) {
      const existing = await findConversationContext({
        ownerId: input.ownerId,
        conversationId: input.conversationId,
      });
      if (existing) {
        conversationId = existing.id;
        title = existing.title;
        history = existing.history;
      }
    } else if (input.conversationId && !/^[A-Za-z0-9_-]{1,64}$/.test(input.conversationId)) {
      throw new AppError('bad_request:conversation', 'Invalid conversation id.');
    }
  }

  // Ids are made here so the session can be announced (and the run started) before the rows are written: the
  // writes go in one transaction alongside the run, and everything that touches the answer row waits for them.
  // A chat page proposes the id of a new conversation (a UUID it made) so that it knows where its question went
  // even if the reader presses Stop before the first byte arrives; that write is awaited. Conversation ids are
  // scoped by owner (the key is (ownerId, id)), so another user's conversation under the same id neither blocks
  // the proposal nor shows through it. A proposed id that still cannot be written (the owner's own two requests
  // racing to start the same conversation) is replaced by a fresh one, which the session announces.
  const isNewConversation = input.persistConversation && !conversationId;
  const proposed =
    isNewConversation && input.conversationId && isUuid(input.conversationId) ? input.conversationId : null;
  if (isNewConversation) conversationId = proposed ?? crypto.randomUUID();
  const answerId = crypto.randomUUID();
  const start = (id: string | null) =>
    recordStartedAnswer({
      ownerId: input.ownerId,
      answerId,
      question: input.question,
      mode: input.options.mode,
      style: input.options.style,
      conversationId: id,
      newConversationTitle: isNewConversation ? title : null,
    });
  let written: Promise<void>;
  if (proposed) {
    written = start(proposed).catch(async () => {
      conversationId = crypto.randomUUID();
      await start(conversationId);
    });
    await written;
  } else {
    written = start(conversationId);
  }
  // Awaited below; never left unobserved.
  written.catch(() => {});
  const session: AnswerSession = { conversationId, answerId, title };
  listeners.onSession?.(session);

  // Keep the partial trace in the row while the run goes on.
  const trace: TraceEvent[] = [];
  let lastFlush = 0;
  let flushing: Promise<unknown> = Promise.resolve();
  let trailing: NodeJS.Timeout | undefined;
  const flush = (force = false) => {
    const now = Date.now();
    if (!force && now - lastFlush < TRACE_FLUSH_MS) {
      // Throttled: make sure the latest events are written soon anyway (a killed server keeps them).
      trailing ??= setTimeout(
        () => {
          trailing = undefined;
          flush(true);
        },
        TRACE_FLUSH_MS - (now - lastFlush),
      );
      return;
    }
    clearTimeout(trailing);
    trailing = undefined;
    lastFlush = now;
    const snapshot: unknown[] = structuredClone(trace);
    flushing = flushing
      .then(() => written)
      .then(() => saveRunningTrace({ ownerId: input.ownerId, answerId, trace: snapshot }))
      .catch(() => {});
  };

  let streamedText = false;
  const result = await deps.runAgent(
    {
      question: input.question,
      history,
      ownerId: input.ownerId,
      mode: input.options.mode,
      style: input.options.style,
      ...(input.options.filters ? { filters: input.options.filters } : {}),
      ...(input.signal ? { signal: input.signal } : {}),
    },
    deps.agentDeps,
    (event) => {
      if (event.type !== 'token') {
        trace.push(event);
        flush();
      } else streamedText = true;
      listeners.onEvent?.(event);
    },
  );
  // A run that streamed no text (extractive): its validated answer streams now, a sentence at a time.
  if (listeners.onEvent && !streamedText && result.status === 'complete' && !result.clarification && result.answer) {
    await replayAnswer(result.answer, listeners.onEvent, { signal: input.signal });
  }
  clearTimeout(trailing);
  await written;
  await flushing;

  const chatResult = toChatResult(answerId, result);
  await saveFinishedAnswer({
    ownerId: input.ownerId,
    answerId,
    result: {
      text: result.answer,
      status: result.status,
      citations: result.citations,
      insufficiencies: result.insufficiencies,
      clarification: result.clarification,
      trace: result.trace,
      confidence: result.confidence,
      safetyFlags: result.safetyFlags,
      models: result.models,
      timings: result.timings,
    },
  });
  if (conversationId) {
    await appendAssistantMessage({
      ownerId: input.ownerId,
      conversationId,
      answerId,
      content: result.answer,
      parts: assistantParts(result, chatResult),
    });
  }
  return { session, result, chatResult };
}

export function toChatResult(answerId: string, result: AgentResult): ChatResult {
  return {
    answerId,
    answer: result.answer,
    citations: result.citations,
    insufficiencies: result.insufficiencies,
    clarification: result.clarification,
    confidence: result.confidence,
    safetyFlags: result.safetyFlags,
    strippedMarkers: result.strippedMarkers,
    validated: result.validated,
    status: result.status,
    mode: result.mode,
    recommendedMode: result.recommendedMode,
    models: result.models,
    timings: { totalMs: result.timings.totalMs, firstTokenMs: result.timings.firstTokenMs },
  };
}

/** The assistant message's parts as stored: the final text, the trace (latest state per id), the result. */
export function assistantParts(result: AgentResult, chatResult: ChatResult): ChatMessage['parts'] {
  const latest = new Map<string, TraceEvent>();
  for (const event of result.trace) latest.set(event.id, event);
  return [
    ...[...latest.values()].map((event) => ({ type: 'data-trace' as const, id: event.id, data: event })),
    { type: 'text' as const, text: result.answer, state: 'done' as const },
    { type: 'data-result' as const, id: `result-${chatResult.answerId}`, data: chatResult },
  ];
}
