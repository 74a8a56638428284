import { z } from 'zod';

/**
 * Every bound of a run in one object, each with its default. A limit that bites emits a `limit` event.
 */
export const agentLimitsSchema = z.object({
  maxToolCalls: z.number().int().min(1).default(5),
  maxIterations: z.number().int().min(1).default(10),
  maxReprompts: z.number().int().min(0).default(3),
  /** Malformed decision outputs retried before the extractive policy takes that step. */
  maxMalformedRetries: z.number().int().min(0).default(1),
  maxContextCitations: z.number().int().min(1).default(5),
  maxCitationCharsForModel: z.number().int().min(200).default(2000),
  minQuestionChars: z.number().int().min(1).default(10),
  maxQuestionChars: z.number().int().min(10).default(1000),
  /** Whole run, model time included. */
  wallClockMs: z.number().int().min(100).default(300_000),
  planMs: z.number().int().min(50).default(60_000),
  decisionMs: z.number().int().min(50).default(60_000),
  synthesisMs: z.number().int().min(50).default(180_000),
  /** Estimated tokens of evidence (search snippets + opened text) shown to the model before pruning. */
  evidenceTokenBudget: z.number().int().min(200).default(6000),
  searchTopK: z.number().int().min(1).max(50).default(6),
  /** Independent searches one action may run in parallel. */
  maxParallelCalls: z.number().int().min(1).default(3),
  followDepth: z.number().int().min(0).default(2),
  followTokenBudget: z.number().int().min(100).default(4000),
  convergenceSameDoc: z.number().int().min(1).default(3),
  /** Distinct documents matching a listing question above which the agent asks to narrow it. */
  overloadDocuments: z.number().int().min(2).default(50),
  /** Quality score (0-100) below which one remediation retry runs. */
  qualityThreshold: z.number().min(0).max(100).default(60),
  quickTopK: z.number().int().min(1).default(5),
  quickOpen: z.number().int().min(1).default(3),
});

export type AgentLimits = z.infer<typeof agentLimitsSchema>;

/** Defaults merged with the caller's overrides; throws a ZodError on an invalid override. */
export function resolveLimits(overrides: Partial<AgentLimits> = {}): AgentLimits {
  return agentLimitsSchema.parse(overrides);
}
