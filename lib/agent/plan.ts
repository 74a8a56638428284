import type { LanguageModel } from 'ai';
import { z } from 'zod';
import {
  checkMetaFilters,
  describeFields,
  META_OPERATORS,
  type MetaFilter,
  unionSchemas,
} from '@/lib/domain/typed-meta';
import type { SearchFilters } from '@/lib/retrieval/types';
import { subQuestions } from './answer-type';
import type { PromptConstraints } from './constraints';
import { type DocumentQuestion, documentQuestion } from './document-questions';
import { metaFiltersFromQuestion } from './meta-plan';
import { callStructured, parseLooseJson, type StructuredOutcome } from './model-call';
import type { BucketRef } from './ports';
import { keyTerms } from './text';
import type { AgentFilters } from './types';

/**
 * Stage 3: decomposition (intent, buckets, filters, sub-queries, output format) and 2-5 steps.
 * The model's plan is checked against what exists (bucket names, ISO dates); a plan that does not parse falls
 * back to the default plan, which is also the extractive policy's plan.
 */

export type Intent = 'qa' | 'list' | 'summarize' | 'compare' | 'compute';
export type OutputFormat = 'natural_language' | 'list' | 'table' | 'sections';

export interface AgentPlan {
  intent: Intent;
  buckets: string[];
  filters: AgentFilters;
  subQueries: string[];
  outputFormat: OutputFormat;
  steps: string[];
  source: 'model' | 'default';
  /** A question about the library ("which of my documents …"): searched and answered per document. */
  documents?: DocumentQuestion;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

export function detectIntent(question: string): Intent {
  const q = question.toLowerCase();
  if (/\b(?:compare|comparison|difference|differences|versus|vs\.?)\b/.test(q)) return 'compare';
  if (/\b(?:how\s+many|how\s+much|total|sum|average|count)\b/.test(q)) return 'compute';
  if (/\b(?:summari[sz]e|summary|overview)\b/.test(q)) return 'summarize';
  if (/^\s*(?:list|enumerate)\b|\b(?:list|find|show)\s+(?:all|every)\b|\bwhich\s+\w+\s+(?:are|have)\b.*\ball\b/.test(q))
    return 'list';
  return 'qa';
}

/** Bucket names the question mentions as whole words. */
function bucketsInQuestion(question: string, buckets: BucketRef[]): BucketRef[] {
  const q = question.toLowerCase();
  return buckets.filter((b) => {
    const name = b.name.toLowerCase().trim();
    if (name.length < 3) return false;
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}(?:$|[^\\p{L}\\p{N}])`, 'u').test(q);
  });
}

/** "documents from 2023", "contracts dated 2021" → that year as a date range; nothing for a bare year. */
export function explicitDateFilter(question: string): Pick<SearchFilters, 'dateFrom' | 'dateTo'> {
  const m =
    /\b(?:documents?|files?|contracts?|invoices?|reports?|records?|statements?|versions?)\s+(?:from|dated|of|issued\s+in)\s+((?:19|20)\d{2})\b/i.exec(
      question,
    );
  if (!m?.[1]) return {};
  return { dateFrom: `${m[1]}-01-01`, dateTo: `${m[1]}-12-31` };
}

/**
 * Typed filters the question states for the mentioned buckets' schema fields ("over 1000", "issued in 2023").
 * A typed date filter replaces the document-date range the same wording would give.
 */
function typedFilters(question: string, mentioned: BucketRef[]): Pick<AgentFilters, 'meta' | 'dateFrom' | 'dateTo'> {
  const schema = unionSchemas(mentioned.flatMap((b) => (b.metaSchema ? [b.metaSchema] : [])));
  const meta = metaFiltersFromQuestion(question, schema);
  if (meta.length === 0) return {};
  return meta.some((f) => f.type === 'date') ? { meta, dateFrom: undefined, dateTo: undefined } : { meta };
}

/** Strips answer-format instructions so a sub-query holds what to find, not how to answer. */
export function searchableQuestion(question: string): string {
  const kept = question
    .split(/(?<=[.!?])\s+/)
    .filter(
      (s) =>
        !/\b(?:quote|cite|open_citation|say\s+["'“]|sections?\b|tool\s+(?:calls|searches)|separate\s+searches|explicitly|newest|format|bullet)/i.test(
          s,
        ),
    );
  const text = (kept.length > 0 ? kept.join(' ') : question).trim();
  return text.length > 300 ? text.slice(0, 300) : text;
}

/** Deterministic plan from constraints and key terms (also the fallback when the model's plan fails). */
export function defaultPlan(
  question: string,
  constraints: PromptConstraints,
  buckets: BucketRef[],
  style: string,
  options: { documentQuestions?: boolean } = {},
): AgentPlan {
  const mentioned = bucketsInQuestion(question, buckets);
  const filters: AgentFilters = { ...explicitDateFilter(question), ...typedFilters(question, mentioned) };
  if (mentioned.length > 0) filters.bucketIds = mentioned.map((b) => b.id);

  const subQueries: string[] = [...constraints.requiredTopics];
  const documents =
    constraints.requiredSections.length === 0 && options.documentQuestions !== false
      ? (documentQuestion(searchableQuestion(question)) ?? undefined)
      : undefined;
  // An overview reads the documents' openings (read_opening), not a search.
  const overview = documents?.kind === 'overview';
  // A question about documents searches its subject (the person, the entity, the description) across them.
  if (documents && !overview && subQueries.length === 0) subQueries.push(documents.subject);
  for (const section of constraints.requiredSections) {
    if (subQueries.length >= constraints.minSearches && subQueries.length > 0) break;
    if (!subQueries.some((s) => s.toLowerCase().includes(section.toLowerCase()))) subQueries.push(section);
  }
  // A compound question searches each of its questions (each may live in another document).
  if (subQueries.length === 0 && !overview)
    subQueries.push(...subQuestions(searchableQuestion(question), keyTerms).slice(0, 3));
  const terms = keyTerms(question);
  let variant = 0;
  while (!overview && subQueries.length < constraints.minSearches && variant < 3) {
    const slice =
      variant === 0
        ? terms
        : variant === 1
          ? terms.slice(0, Math.ceil(terms.length / 2))
          : terms.slice(Math.ceil(terms.length / 2));
    const q = slice.join(' ');
    if (q.length > 0 && !subQueries.includes(q)) subQueries.push(q);
    variant++;
  }

  const intent = detectIntent(question);
  const outputFormat: OutputFormat =
    constraints.requiredSections.length > 0
      ? 'sections'
      : /\btable\b/i.test(question)
        ? 'table'
        : style === 'bullet' || intent === 'list'
          ? 'list'
          : 'natural_language';

  const where = mentioned.length > 0 ? ` in ${mentioned.map((b) => b.name).join(', ')}` : '';
  const steps = [
    overview
      ? `Read the opening of ${documents.subject ? `"${documents.subject}"` : 'the documents in scope'}${where}`
      : `Search for ${subQueries.map((s) => `'${s}'`).join(' and ')}${where}`,
    `Open the best matching citations (at least ${Math.max(1, constraints.minOpenCitations)})`,
  ];
  if (constraints.exactQuotes.length > 0)
    steps.push(`Find the exact ${constraints.exactQuotes.join(', ')} to quote verbatim`);
  if (constraints.conflictRule)
    steps.push(
      `Resolve conflicts: ${constraints.conflictRule === 'flag' ? 'point them out' : `${constraints.conflictRule} dated document wins`}`,
    );
  steps.push('Answer with [n] citations to opened sources and list what the documents do not cover');

  return {
    intent,
    buckets: mentioned.map((b) => b.name),
    filters,
    subQueries: subQueries.slice(0, 5),
    outputFormat,
    steps: steps.slice(0, 5),
    source: 'default',
    ...(documents ? { documents } : {}),
  };
}

export const modelPlanSchema = z.object({
  intent: z.enum(['qa', 'list', 'summarize', 'compare', 'compute']).describe('What kind of answer the user wants'),
  buckets: z
    .array(z.string())
    .max(5)
    .describe('Names of the most relevant buckets from the list given, or empty for all'),
  dateFrom: z
    .string()
    .describe('Inclusive YYYY-MM-DD lower bound on document date only if the user asks for it, else empty'),
  dateTo: z
    .string()
    .describe('Inclusive YYYY-MM-DD upper bound on document date only if the user asks for it, else empty'),
  subQueries: z.array(z.string()).min(1).max(5).describe('Short search queries, one per topic'),
  typedFilters: z
    .array(
      z.object({
        field: z.string().describe("A typed field of a chosen bucket's schema"),
        op: z.enum(META_OPERATORS),
        value: z.string().describe('A number, a YYYY-MM-DD date or a text; for between "low..high"; for in "a|b"'),
      }),
    )
    .max(5)
    .optional()
    .describe("Conditions on the buckets' typed fields the user states, e.g. total_amount > 1000; else []"),
  outputFormat: z.enum(['natural_language', 'list', 'table', 'sections']),
  steps: z.array(z.string()).min(2).max(5).describe('2-5 short steps naming tools; the last one answers'),
});
export type ModelPlan = z.infer<typeof modelPlanSchema>;

const PLAN_INSTRUCTIONS = `You are a search planner for a document question-answering agent. You NEVER answer the question.
Output ONE JSON object: intent, buckets (names from the list given, or []), dateFrom/dateTo (YYYY-MM-DD only when the user asks for a date range, else ""), typedFilters (conditions the user states on a chosen bucket's typed fields, else []), subQueries (1-5 short keyword queries, one per topic), outputFormat, steps (2-5 short steps; tools: search_docs, search_text, search_semantic, open_citation, get_document_metadata, follow_reference, read_opening (the start of a document: for "what is this document about"); the last step answers).`;

/** The model's typed filters checked against the chosen buckets' schemas; null when it gave none that hold. */
function modelTypedFilters(model: ModelPlan, chosen: BucketRef[]): MetaFilter[] | null {
  const schema = unionSchemas(chosen.flatMap((b) => (b.metaSchema ? [b.metaSchema] : [])));
  const out: MetaFilter[] = [];
  for (const f of model.typedFilters ?? []) {
    const value =
      f.op === 'between' ? f.value.split('..').map((v) => v.trim()) : f.op === 'in' ? f.value.split('|') : f.value;
    const checked = checkMetaFilters(schema, [{ field: f.field.trim(), op: f.op, value }]);
    if (checked.ok) out.push(...checked.filters);
  }
  return out.length > 0 ? out : null;
}

/** Checks a model plan against reality and the constraints; unknown buckets and malformed dates are dropped. */
export function reconcilePlan(
  model: ModelPlan,
  fallback: AgentPlan,
  constraints: PromptConstraints,
  buckets: BucketRef[],
): AgentPlan {
  const byName = new Map(buckets.map((b) => [b.name.toLowerCase(), b]));
  const chosen = model.buckets
    .map((n) => byName.get(n.trim().toLowerCase()))
    .filter((b): b is BucketRef => b !== undefined);
  const filters: AgentFilters = {};
  if (chosen.length > 0) filters.bucketIds = chosen.map((b) => b.id);
  if (ISO_DATE.test(model.dateFrom)) filters.dateFrom = model.dateFrom;
  if (ISO_DATE.test(model.dateTo)) filters.dateTo = model.dateTo;
  const meta = modelTypedFilters(model, chosen) ?? fallback.filters.meta;
  if (meta && meta.length > 0) {
    filters.meta = meta;
    if (meta.some((f) => f.type === 'date')) {
      delete filters.dateFrom;
      delete filters.dateTo;
    }
  }
  const subQueries = model.subQueries.map((s) => s.trim().slice(0, 200)).filter((s) => s.length > 1);
  for (const topic of constraints.requiredTopics) {
    if (!subQueries.some((s) => s.toLowerCase().includes(topic.toLowerCase()))) subQueries.push(topic);
  }
  const steps = model.steps.map((s) => s.trim().slice(0, 200)).filter((s) => s.length > 0);
  return {
    intent: model.intent,
    buckets: chosen.map((b) => b.name),
    filters,
    subQueries: (subQueries.length > 0 ? subQueries : fallback.subQueries).slice(0, 5),
    outputFormat: constraints.requiredSections.length > 0 ? 'sections' : model.outputFormat,
    steps: steps.length >= 2 ? steps.slice(0, 5) : fallback.steps,
    source: 'model',
    ...(fallback.documents ? { documents: fallback.documents } : {}),
  };
}

/** Steps from text that is not the JSON object: a JSON array of strings, a numbered list or a bulleted list. */
export function parseStepList(text: string): string[] | null {
  const json = parseLooseJson(text);
  if (Array.isArray(json) && json.every((s) => typeof s === 'string')) {
    const steps = json.map((s) => s.trim()).filter((s) => s.length > 0);
    return steps.length >= 2 ? steps.slice(0, 5) : null;
  }
  const lines = text.split('\n').map((l) => l.trim());
  const items = lines.map((l) => /^(?:\d+[.)]|[-*•])\s+(.+)$/.exec(l)?.[1]?.trim()).filter((s): s is string => !!s);
  return items.length >= 2 ? items.slice(0, 5) : null;
}

export interface PlanOutcome {
  plan: AgentPlan;
  failure: string | null;
  modelMs: number;
}

/** Asks the model for a plan; any failure returns the default plan with the reason. */
export async function planWithModel(args: {
  model: LanguageModel;
  question: string;
  constraints: PromptConstraints;
  buckets: BucketRef[];
  fallback: AgentPlan;
  signal?: AbortSignal;
  timeoutMs: number;
  now: () => number;
}): Promise<PlanOutcome> {
  const bucketList =
    args.buckets.length > 0
      ? args.buckets
          .map((b) =>
            b.metaSchema?.fields.length ? `${b.name} (typed fields: ${describeFields(b.metaSchema)})` : b.name,
          )
          .join(', ')
      : '(none)';
  const outcome: StructuredOutcome<ModelPlan> = await callStructured({
    model: args.model,
    instructions: PLAN_INSTRUCTIONS,
    prompt: `Buckets: ${bucketList}\nRequired topics: ${args.constraints.requiredTopics.join('; ') || '(none)'}\nQuestion: ${args.question}`,
    schema: modelPlanSchema,
    name: 'search_plan',
    signal: args.signal,
    timeoutMs: args.timeoutMs,
    now: args.now,
  });
  if (outcome.ok)
    return {
      plan: reconcilePlan(outcome.value, args.fallback, args.constraints, args.buckets),
      failure: null,
      modelMs: outcome.ms,
    };
  const steps = outcome.text ? parseStepList(outcome.text) : null;
  if (steps) return { plan: { ...args.fallback, steps, source: 'model' }, failure: null, modelMs: outcome.ms };
  return { plan: args.fallback, failure: `${outcome.reason}: ${outcome.message}`, modelMs: outcome.ms };
}
