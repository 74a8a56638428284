import { z } from 'zod';
import { chatOptionsSchema, searchFiltersInputSchema } from '@/lib/chat/message';

/** Request bodies of the agent routes (validated before anything runs). */

const MAX_QUESTION_CHARS = 20_000; // the agent's guard gives the precise limit and message

export const agentRunBodySchema = z
  .object({
    question: z.string().max(MAX_QUESTION_CHARS, 'The question is too long.'),
    mode: z.enum(['agent', 'quick']).default('agent'),
    conversationId: z.string().max(64).nullish(),
    style: z.enum(['concise', 'detailed', 'bullet']).default('concise'),
    filters: searchFiltersInputSchema.optional(),
    returnTrace: z.boolean().default(false),
  })
  .strict();

const messagePartSchema = z.object({ type: z.string(), text: z.string().max(MAX_QUESTION_CHARS).optional() }).loose();

/** The useChat transport body: only the last user message's text is used; history comes from the database. */
export const chatBodySchema = chatOptionsSchema.extend({
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

/** The text of the last user message of a chat request. */
export function lastUserText(messages: z.infer<typeof chatBodySchema>['messages']): string {
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
