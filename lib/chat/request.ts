import { z } from 'zod';
import { metaFilterInputSchema } from '@/lib/domain/typed-meta';

/**
 * The request bodies that ask for an answer, in one place: the chat page's stream (`/api/chat`) and the agent
 * API (`/api/agent/run`, `/api/agent/stream`). Both carry the same answer options; they differ in how the
 * question and the conversation are named. Every string and array is capped; the byte cap on the whole body is
 * `requestLimits.agentBytes` (lib/config.ts).
 */

const MAX_QUESTION_CHARS = 20_000; // the agent's guard gives the precise limit and message
const MAX_FILTER_FIELDS = 20;

/** Search filters a question may carry (the agent's tools search only within them). */
export const searchFiltersSchema = z
  .object({
    bucketIds: z.array(z.uuid()).max(50).optional(),
    documentIds: z.array(z.uuid()).max(200).optional(),
    mimeTypes: z.array(z.string().max(100)).max(20).optional(),
    dateFrom: z.iso.date().optional(),
    dateTo: z.iso.date().optional(),
    tags: z.array(z.string().max(60)).max(20).optional(),
    fields: z
      .record(z.string().max(60), z.string().max(500))
      .refine((f) => Object.keys(f).length <= MAX_FILTER_FIELDS, `At most ${MAX_FILTER_FIELDS} field filters.`)
      .optional(),
    /** Typed filters on the buckets' schema fields, e.g. {"field":"total_amount","op":">","value":1000}. */
    meta: z.array(metaFilterInputSchema).max(10).optional(),
  })
  .strict();

/** How to answer: agent or quick mode, the answer's style, and the search filters. */
export const answerOptionsSchema = z.object({
  mode: z.enum(['agent', 'quick']).default('agent'),
  style: z.enum(['concise', 'detailed', 'bullet']).default('concise'),
  filters: searchFiltersSchema.optional(),
});
export type AnswerOptions = z.infer<typeof answerOptionsSchema>;

/** The agent API's body: a question, optionally continuing a conversation, and whether to return the trace. */
export const agentRunBodySchema = answerOptionsSchema
  .extend({
    question: z.string().max(MAX_QUESTION_CHARS, 'The question is too long.'),
    conversationId: z.string().max(64).nullish(),
    returnTrace: z.boolean().default(false),
  })
  .strict();
export type AgentRunBody = z.infer<typeof agentRunBodySchema>;

/**
 * The agent API routes' body: the agent run's, where `mode` may also be `research`, which starts a research run
 * (lib/research) instead of answering at once.
 */
export const agentApiBodySchema = agentRunBodySchema.extend({
  mode: z.enum(['agent', 'quick', 'research']).default('agent'),
});

const messagePartSchema = z
  .object({ type: z.string().max(100), text: z.string().max(MAX_QUESTION_CHARS).optional() })
  .loose();

/** The useChat transport body: only the last user message's text is used; history comes from the database. */
export const chatBodySchema = answerOptionsSchema.extend({
  id: z.string().max(64),
  messages: z
    .array(
      z
        .object({
          id: z.string().max(200).optional(),
          role: z.enum(['user', 'assistant', 'system']),
          parts: z.array(messagePartSchema).max(500),
        })
        .loose(),
    )
    .min(1)
    .max(500),
  trigger: z.string().max(40).optional(),
  messageId: z.string().max(200).optional(),
});
export type ChatBody = z.infer<typeof chatBodySchema>;

/** The text of the last user message of a chat request. */
export function lastUserText(messages: ChatBody['messages']): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user') {
      return m.parts
        .filter((p) => p.type === 'text' && typeof p.text === 'string')
        .map((p) => p.text)
        .join('\n');
    }
  }
  return '';
}

/** The answer options of a request body, without absent filters. */
export function answerOptionsOf(body: AnswerOptions): AnswerOptions {
  return { mode: body.mode, style: body.style, ...(body.filters ? { filters: body.filters } : {}) };
}
