import { z } from 'zod';

/**
 * The agent's event vocabulary: one zod-described, JSON-serialisable discriminated union on `type`.
 * Every event except `token` carries a stable `id`; an event repeated with the same id updates the same card
 * (a `tool_call` and its `tool_result` share the id of the call).
 */

const toolNameSchema = z.enum([
  'search_docs',
  'search_text',
  'search_semantic',
  'open_citation',
  'get_document_metadata',
  'follow_reference',
  'search_sections',
  'visual_interpretation',
  'read_opening',
]);
export type ToolName = z.infer<typeof toolNameSchema>;
export const TOOL_NAMES = toolNameSchema.options;

export const eventFiltersSchema = z.object({
  bucketIds: z.array(z.string()).optional(),
  documentIds: z.array(z.string()).optional(),
  mimeTypes: z.array(z.string()).optional(),
  dateFrom: z.string().optional(),
  dateTo: z.string().optional(),
  tags: z.array(z.string()).optional(),
  fields: z.record(z.string(), z.string()).optional(),
  /** Typed filters on bucket schema fields (lib/domain/typed-meta.ts MetaFilter). */
  meta: z
    .array(
      z.object({
        field: z.string(),
        type: z.enum(['string', 'number', 'date', 'enum', 'boolean']).optional(),
        op: z.enum(['=', '!=', '<', '<=', '>', '>=', 'in', 'between']),
        values: z.array(z.union([z.string(), z.number(), z.boolean()])),
      }),
    )
    .optional(),
});

const validationIssueSchema = z.object({ code: z.string(), message: z.string() });
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

export const clarificationSchema = z.object({
  type: z.enum(['no_results', 'overload', 'ambiguous']),
  question: z.string(),
  details: z.string(),
});

const constraintsSummarySchema = z.object({
  minSearches: z.number(),
  requiredTopics: z.array(z.string()),
  minOpenCitations: z.number(),
  exactQuotes: z.array(z.string()),
  conflictRule: z.string().nullable(),
  requiredSections: z.array(z.string()),
  insufficiencyPhrase: z.string().nullable(),
  source: z.enum(['patterns', 'patterns+model']),
});

export const planEventSchema = z.object({
  type: z.literal('plan'),
  id: z.string(),
  steps: z.array(z.string()),
  intent: z.string(),
  subQueries: z.array(z.string()),
  buckets: z.array(z.string()),
  filters: eventFiltersSchema,
  outputFormat: z.string(),
  source: z.enum(['model', 'default']),
  constraints: constraintsSummarySchema,
  recommendedMode: z.enum(['quick', 'agent']),
});

export const toolCallEventSchema = z.object({
  type: z.literal('tool_call'),
  id: z.string(),
  tool: toolNameSchema,
  iteration: z.number(),
  input: z.object({
    query: z.string().optional(),
    mode: z.enum(['keyword', 'semantic', 'hybrid']).optional(),
    filters: eventFiltersSchema.optional(),
    handle: z.string().optional(),
    reference: z.string().optional(),
    /** Page a visual_interpretation call reads. */
    page: z.number().optional(),
    documentId: z.string().optional(),
    chunkId: z.string().optional(),
  }),
});

export type ToolCallInput = z.infer<typeof toolCallEventSchema>['input'];

export const toolErrorSchema = z.object({ code: z.string(), message: z.string(), suggestion: z.string() });

export const toolResultEventSchema = z.object({
  type: z.literal('tool_result'),
  id: z.string(),
  tool: toolNameSchema,
  /** The call's input again, so the card that replaces the call keeps its query, mode and filters. */
  input: toolCallEventSchema.shape.input.optional(),
  ok: z.boolean(),
  hits: z.number(),
  summary: z.string(),
  ms: z.number(),
  error: toolErrorSchema.optional(),
});

export const validationEventSchema = z.object({
  type: z.literal('validation'),
  id: z.string(),
  attempt: z.number(),
  stage: z.enum(['process', 'draft']),
  passed: z.boolean(),
  errors: z.array(validationIssueSchema),
});

export const repromptEventSchema = z.object({
  type: z.literal('reprompt'),
  id: z.string(),
  attempt: z.number(),
  codes: z.array(z.string()),
  remainingToolCalls: z.number(),
  message: z.string(),
});

export const limitNameSchema = z.enum([
  'tool_calls',
  'iterations',
  'reprompts',
  'wall_clock',
  'evidence_tokens',
  'context_citations',
  'follow_depth',
  'follow_tokens',
  'follow_convergence',
  'malformed_actions',
]);
export type LimitName = z.infer<typeof limitNameSchema>;

export const limitEventSchema = z.object({
  type: z.literal('limit'),
  id: z.string(),
  limit: limitNameSchema,
  value: z.number(),
  detail: z.string(),
});

export const clarifyEventSchema = z.object({
  type: z.literal('clarify'),
  id: z.string(),
  clarification: clarificationSchema,
});

export const tokenEventSchema = z.object({
  type: z.literal('token'),
  /** Which draft the text belongs to (1-based); a later `draft_rejected` with the same attempt discards it. */
  attempt: z.number(),
  text: z.string(),
});

export const draftRejectedEventSchema = z.object({
  type: z.literal('draft_rejected'),
  id: z.string(),
  attempt: z.number(),
  errors: z.array(validationIssueSchema),
});

export const qualityEventSchema = z.object({
  type: z.literal('quality'),
  id: z.string(),
  attempt: z.number(),
  score: z.number(),
  dimensions: z.record(z.string(), z.number()),
  action: z.enum(['accept', 'retry', 'keep_best']),
});

export const fallbackEventSchema = z.object({
  type: z.literal('fallback'),
  id: z.string(),
  stage: z.enum(['constraints', 'plan', 'decision', 'synthesis', 'quality', 'embedding', 'delivery']),
  reason: z.string(),
});

export const finalEventSchema = z.object({
  type: z.literal('final'),
  id: z.string(),
  status: z.enum(['complete', 'stopped', 'error']),
  confidence: z.enum(['high', 'medium', 'low']),
  citations: z.number(),
  insufficiencies: z.number(),
  extractive: z.boolean(),
  mode: z.enum(['agent', 'quick']),
  note: z.string(),
});

export const errorEventSchema = z.object({
  type: z.literal('error'),
  id: z.string(),
  code: z.string(),
  message: z.string(),
  stage: z.string(),
});

const traceVariants = [
  planEventSchema,
  toolCallEventSchema,
  toolResultEventSchema,
  validationEventSchema,
  repromptEventSchema,
  limitEventSchema,
  clarifyEventSchema,
  draftRejectedEventSchema,
  qualityEventSchema,
  fallbackEventSchema,
  finalEventSchema,
  errorEventSchema,
] as const;

/** Every event kept in the trace (all but `token`). */
export const traceEventSchema = z.discriminatedUnion('type', [...traceVariants]);
/** Every event a run emits. */
export const agentEventSchema = z.discriminatedUnion('type', [...traceVariants, tokenEventSchema]);

export type TraceEvent = z.infer<typeof traceEventSchema>;
export type AgentEvent = z.infer<typeof agentEventSchema>;

/** Distributive Omit so each variant keeps its own fields. */
export type TraceEventInput = TraceEvent extends infer E ? (E extends TraceEvent ? Omit<E, 'id'> : never) : never;

export interface EventSink {
  /** Emits a trace event with a fresh id (prefix from its type) and returns that id. */
  push(event: TraceEventInput, id?: string): string;
  token(attempt: number, text: string): void;
  readonly trace: TraceEvent[];
}

/**
 * Records trace events and forwards every event to `emit`. A throwing listener never breaks the run.
 * Ids are deterministic within a run (`search-3`, `validation-2`), so tests and the UI can rely on them.
 */
export function createEventSink(emit?: (event: AgentEvent) => void): EventSink {
  const trace: TraceEvent[] = [];
  const counters = new Map<string, number>();
  const forward = (event: AgentEvent) => {
    if (!emit) return;
    try {
      emit(event);
    } catch {
      // A listener's failure (closed stream, UI bug) must not end the run.
    }
  };
  return {
    trace,
    push(event, id) {
      let eventId = id;
      if (eventId === undefined) {
        const next = (counters.get(event.type) ?? 0) + 1;
        counters.set(event.type, next);
        eventId = `${event.type}-${next}`;
      }
      const full = { ...event, id: eventId } as TraceEvent;
      trace.push(full);
      forward(full);
      return eventId;
    },
    token(attempt, text) {
      if (text.length > 0) forward({ type: 'token', attempt, text });
    },
  };
}
