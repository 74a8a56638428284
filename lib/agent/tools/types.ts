import { z } from 'zod';
import { metaFilterInputSchema } from '@/lib/domain/typed-meta';
import type { ChunkIndex } from '@/lib/retrieval/types';
import type { SummarySource } from '@/lib/summaries/route';
import type { VisionPort } from '@/lib/visual/port';
import { TOOL_NAMES, type ToolName } from '../events';
import type { BucketRef, DocumentCatalog, QueryEmbedder } from '../ports';
import type { AgentState } from '../state';
import type { AgentFilters } from '../types';

/** What every tool factory receives. The owner id comes from here, never from a model's input. */
export interface ToolContext {
  ownerId: string;
  index: ChunkIndex;
  catalog: DocumentCatalog;
  embedder: QueryEmbedder | null;
  state: AgentState;
  buckets: BucketRef[];
  /** The caller's hard filters, applied to every search. */
  baseFilters: AgentFilters;
  signal?: AbortSignal;
  now: () => number;
  embedTimeoutMs: number;
  /** Section summaries of long documents (search_sections); absent = the tool is not offered. */
  summaries?: SummarySource | null;
  /** The vision model's port (visual_interpretation); absent when LLM_VISION_MODEL is not configured. */
  vision?: VisionPort | null;
  /**
   * Resolves once every search call of the same batch made before `callId` has finished (execute.ts). Searches run
   * side by side; each awaits its turn before recording its results in the run's state, so handles (r1, r2 …) and
   * the searched list follow the order of the calls, not the order they finished in: the same question opens the
   * same passages however busy the machine is. Absent outside a batch.
   */
  turn?: (callId: string) => Promise<void>;
}

/** Filters a model may ask for: bucket names and document handles, resolved server-side. */
export const modelFiltersSchema = z.object({
  buckets: z.array(z.string()).max(5).optional().describe('Bucket names'),
  documents: z
    .array(z.string())
    .max(5)
    .optional()
    .describe('Document handles such as d2, or result handles such as r3'),
  dateFrom: z.string().optional().describe('YYYY-MM-DD'),
  dateTo: z.string().optional().describe('YYYY-MM-DD'),
  tags: z.array(z.string()).max(5).optional(),
  meta: z
    .array(metaFilterInputSchema)
    .max(5)
    .optional()
    .describe('Typed field conditions, e.g. [{"field":"total_amount","op":">","value":1000}]'),
});
export type ModelFilters = z.infer<typeof modelFiltersSchema>;

/** One tool call as the model writes it: a flat object, so small models can fill it under a JSON schema. */
export const toolCallSchema = z.object({
  tool: z.enum(TOOL_NAMES),
  query: z.string().max(300).optional().describe('Search query (search tools)'),
  handle: z
    .string()
    .max(20)
    .optional()
    .describe('Result handle such as r3 (open_citation, follow_reference, get_document_metadata)'),
  reference: z.string().max(200).optional().describe('Reference text to follow, e.g. "Section 4.2" (follow_reference)'),
  page: z
    .number()
    .int()
    .min(1)
    .max(100_000)
    .optional()
    .describe('Page number (visual_interpretation with a d# handle)'),
  filters: modelFiltersSchema.optional(),
});
export type ToolCall = z.infer<typeof toolCallSchema>;

export interface ToolError {
  code: string;
  message: string;
  suggestion: string;
}

export type ToolOutcome =
  | { ok: true; hits: number; summary: string; forModel: string }
  | { ok: false; hits: number; summary: string; forModel: string; error: ToolError };

export interface AgentTool {
  name: ToolName;
  kind: 'search' | 'open' | 'inspect';
  /** One line for the model: what it does and its input. */
  description: string;
  /** Availability rule: a tool not available is not offered and a call to it is refused. */
  isAvailable(state: AgentState): boolean;
  run(call: ToolCall, callId: string): Promise<ToolOutcome>;
}

/** A recoverable failure with a suggestion, as the model and the trace see it. */
export function toolError(code: string, message: string, suggestion: string, hits = 0): ToolOutcome {
  return {
    ok: false,
    hits,
    summary: message,
    forModel: `ERROR ${code}: ${message} Suggestion: ${suggestion}`,
    error: { code, message, suggestion },
  };
}

export type { ToolName };
