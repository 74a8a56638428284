import { z } from 'zod';

/**
 * The stored shape of one cited source ([n] in an answer): the agent's citation as answers, research sections and
 * share snapshots keep it. The API's `Citation` schema extends it with stricter ids and descriptions.
 */
export const citationFieldsSchema = z.object({
  n: z.number().int(),
  documentId: z.string(),
  chunkId: z.string(),
  filename: z.string(),
  title: z.string().nullable(),
  page: z.number().int().nullable(),
  sheet: z.string().nullable(),
  headingPath: z.string().nullable(),
  chunkIndex: z.number().int(),
  snippet: z.string(),
  quote: z.string(),
  quoteStart: z.number().int(),
  quoteEnd: z.number().int(),
  charStart: z.number().int(),
  charEnd: z.number().int(),
  score: z.number(),
  /** The passage holds instruction-like text (quoted as data, never followed). Absent in answers stored before. */
  instructionLike: z.boolean().optional(),
});
