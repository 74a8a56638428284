import type { MetaFilterInput } from '@/lib/domain/typed-meta';
import type { ChunkIndex, SearchFilters } from '@/lib/retrieval/types';
import type { SummarySource } from '@/lib/summaries/route';
import type { VisionPort } from '@/lib/visual/port';
import type { AgentEvent, TraceEvent } from './events';
import type { AgentLimits } from './limits';
import type { AgentModels, DocumentCatalog, QueryEmbedder } from './ports';

/**
 * The agent's public contract, relied on by the chat/API layer. Stable: extend, do not rename.
 *
 * runAgent(input, deps, emit?) → Promise<AgentResult>   (never throws for model, tool or abort failures)
 */

export type AgentMode = 'agent' | 'quick';

/**
 * Search filters as the agent plans them: the engine's filters, typed filters on the buckets' schema fields
 * included (checked; each engine runs them itself, tools/search-common.ts).
 */
export type AgentFilters = SearchFilters;

/** The caller's hard filters: engine filters plus typed filters as written, checked against the buckets' schemas. */
export type CallerFilters = Omit<SearchFilters, 'meta'> & { meta?: MetaFilterInput[] };
export type AnswerStyle = 'concise' | 'detailed' | 'bullet';
export type Confidence = 'high' | 'medium' | 'low';
export type AgentStatus = 'complete' | 'stopped' | 'error';

export interface ChatTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface RunAgentInput {
  question: string;
  /** Earlier turns of the conversation, oldest first (only the last few are shown to the model). */
  history?: ChatTurn[];
  /** The authenticated user: every search and fetch is scoped to it; never taken from a model. */
  ownerId: string;
  mode: AgentMode;
  style: AnswerStyle;
  /** Hard filters from the caller, applied to every search on top of what the agent chooses. */
  filters?: CallerFilters;
  /** Aborting stops model calls and returns what the run has, with status 'stopped'. */
  signal?: AbortSignal;
}

export interface AgentDeps {
  index: ChunkIndex;
  catalog: DocumentCatalog;
  /** null: semantic search is unavailable (keyword and hybrid-as-keyword still work). */
  embedder: QueryEmbedder | null;
  models: AgentModels;
  /** Section summaries for search_sections (absent: the tool is not offered). */
  summaries?: SummarySource | null;
  /** The vision model for visual_interpretation (absent: LLM_VISION_MODEL unset, the tool is not offered). */
  vision?: VisionPort | null;
  limits?: Partial<AgentLimits>;
  /** Clock in ms (tests); defaults to performance.now(). */
  now?: () => number;
}

/** One source the answer cites as [n]. */
export interface AgentCitation {
  n: number;
  documentId: string;
  chunkId: string;
  filename: string;
  title: string | null;
  page: number | null;
  sheet: string | null;
  headingPath: string | null;
  chunkIndex: number;
  /** Short excerpt of the chunk (around the quote when there is one). */
  snippet: string;
  /** The exact span the answer quotes from this chunk, else the chunk sentence that best supports the citing sentence. */
  quote: string;
  /** Offsets of `quote` within the chunk text (chunk-relative). */
  quoteStart: number;
  quoteEnd: number;
  /** Offsets of the chunk within its page/sheet/section text. */
  charStart: number;
  charEnd: number;
  /** Retrieval score of the chunk (engine scale), 0 when it was reached only by opening. */
  score: number;
  /**
   * The cited passage holds text that reads like instructions to an AI (either detector tier, retrieved-flags.ts).
   * It was treated as what the document says, never followed; the UI marks the source. Absent in older answers.
   */
  instructionLike?: boolean;
  /**
   * The number the source had when it was opened during the run (the trace's `Opened r1 as [k]`); `n` is its number
   * in the answer (renumbered by first use). Lets the trace show the answer's numbers. Absent in older answers.
   */
  openedAs?: number;
}

/** Something the question asked for that the documents did not provide. */
export interface Insufficiency {
  section: string;
  missing: string;
  queriesTried: string[];
}

export interface Clarification {
  type: 'no_results' | 'overload' | 'ambiguous';
  question: string;
  /** For no_results: what was relaxed; for overload: how to narrow; for ambiguous: the readings. */
  details: string;
}

export interface AgentTimings {
  totalMs: number;
  /** Time to the first answer token, null when no token was emitted. */
  firstTokenMs: number | null;
  guardMs: number;
  constraintsMs: number;
  planMs: number;
  loopMs: number;
  synthesisMs: number;
  validationMs: number;
  /** Time spent waiting on language models (plan, decision, synthesis, constraint pass). */
  modelMs: number;
}

export interface AgentResult {
  answer: string;
  citations: AgentCitation[];
  insufficiencies: Insufficiency[];
  clarification: Clarification | null;
  confidence: Confidence;
  /** The 0-1 score the confidence label was cut from (lib/agent/confidence.ts). */
  confidenceScore?: number;
  /** e.g. prompt_injection, injection_in_context, empty_knowledge_base, question_too_short, extractive_mode. */
  safetyFlags: string[];
  /** Citation markers the draft used that matched no opened source, removed from the answer. */
  strippedMarkers: number[];
  /** Every event except tokens, in order. */
  trace: TraceEvent[];
  timings: AgentTimings;
  models: { decision: string | null; synthesis: string | null; embedding: string | null; extractive: boolean };
  mode: AgentMode;
  /** The mode the agent would choose for this question ('quick' for simple questions). */
  recommendedMode: AgentMode;
  /** Whether the final answer passed the validation gate; false means it is the best grounded version. */
  validated: boolean;
  status: AgentStatus;
}

export type AgentEmit = (event: AgentEvent) => void;
