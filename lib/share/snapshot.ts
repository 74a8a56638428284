import { z } from 'zod';

/**
 * The frozen snapshot a share page renders: only what the answer cited (quoted span and the chunk text it came
 * from), never whole documents. Cited documents' content hashes let a reader verify each [n].
 */
export const snapshotCitationSchema = z.object({
  n: z.number().int().positive(),
  documentId: z.string(),
  filename: z.string(),
  title: z.string().nullable(),
  page: z.number().int().nullable(),
  sheet: z.string().nullable(),
  headingPath: z.string().nullable(),
  /** The exact quoted span, null once redacted. */
  quote: z.string().nullable(),
  /** The cited chunk's text (what the quote is verified against), null once redacted. */
  text: z.string().nullable(),
  snippet: z.string().nullable(),
  quoteStart: z.number().int().nullable(),
  quoteEnd: z.number().int().nullable(),
  sha256: z.string().nullable(),
  redacted: z.boolean(),
  /** The passage holds instruction-like text, quoted as data (absent in snapshots frozen before the flag). */
  instructionLike: z.boolean().optional(),
});

export const shareSnapshotSchema = z.object({
  version: z.literal(1),
  question: z.string(),
  answer: z.string(),
  citations: z.array(snapshotCitationSchema),
  insufficiencies: z.array(z.object({ section: z.string(), missing: z.string(), queriesTried: z.array(z.string()) })),
  confidence: z.enum(['high', 'medium', 'low']),
  models: z.object({ decision: z.string().nullable(), synthesis: z.string().nullable(), extractive: z.boolean() }),
  answeredAt: z.string(),
  trace: z.object({
    searches: z.array(z.object({ tool: z.string(), query: z.string(), hits: z.number().int() })),
    citationsOpened: z.number().int(),
    validationPassed: z.boolean(),
    reprompts: z.number().int(),
  }),
  /** Present when the answer is a research report: its sections, each with the [n] of its own sources. */
  report: z
    .object({
      sections: z.array(z.object({ heading: z.string(), sources: z.array(z.number().int()) })),
      quality: z.number(),
    })
    .optional(),
});

export type ShareSnapshot = z.infer<typeof shareSnapshotSchema>;
export type SnapshotCitation = z.infer<typeof snapshotCitationSchema>;
