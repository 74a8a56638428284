import type { IndexedChunk, SearchHit } from '@/lib/retrieval/types';
import type { PromptConstraints } from './constraints';
import type { AgentLimits } from './limits';
import type { AgentPlan } from './plan';
import type { CatalogDocument } from './ports';
import type { RetrievedFlags } from './retrieved-flags';
import type { AgentFilters } from './types';

/**
 * The run's shared environment: results by short handle, opened citations, counters and feedback.
 * The model sees handles (r3, d2), never ids; the maps here turn them back into real ids.
 */

export interface ResultEntry {
  handle: string;
  hit: SearchHit;
  documentHandle: string;
  queries: string[];
  /** Instruction-like spans the rules found in the hit's text (planted: never obeyed, never evidence). */
  injected: string[];
  /** Spans only the learned classifier flags (still evidence, marked, never obeyed; retrieved-flags.ts). */
  suspect: string[];
  /** Marked irrelevant by the model; first to go when evidence is pruned. */
  irrelevant: boolean;
  /** Removed from the model's view by the evidence budget (still resolvable). */
  pruned: boolean;
  /** How the result was found. */
  origin: 'search' | 'follow';
}

export interface OpenedChunk {
  n: number;
  handle: string;
  chunk: IndexedChunk;
  score: number;
  /** Planted instruction spans (rules): cut out of the evidence. */
  injected: string[];
  /** Instruction-like spans only the classifier flags: evidence, but marked (retrieved-flags.ts). */
  suspect: string[];
  /** Text shown to the model may be shortened by the evidence budget; validation always uses the full chunk. */
  modelChars: number;
  /** false for a vision model's reading of a page image: never a source of verbatim quotes (see the gate). */
  verbatim?: boolean;
}

export interface SearchRecord {
  callId: string;
  tool: string;
  query: string;
  mode: 'keyword' | 'semantic' | 'hybrid';
  filters: AgentFilters;
  hits: number;
  relaxed: string[];
  ok: boolean;
}

export interface AgentState {
  ownerId: string;
  question: string;
  constraints: PromptConstraints;
  plan: AgentPlan;
  limits: AgentLimits;
  results: Map<string, ResultEntry>;
  chunkHandles: Map<string, string>;
  docHandles: Map<string, string>;
  docByHandle: Map<string, string>;
  opened: OpenedChunk[];
  searches: SearchRecord[];
  /** How many documents read_opening found in scope (it reads at most a few of them), once it ran. */
  documentsInScope?: number;
  toolCalls: number;
  iterations: number;
  reprompts: number;
  malformed: number;
  /** Errors and hints for the next model step (cleared once shown). */
  feedback: string[];
  safetyFlags: Set<string>;
  injectedSpans: string[];
  /** Every suspect span seen (classifier-only flags): a tool call copying one is blocked. */
  suspectSpans: string[];
  /** One-line summaries of evidence pruned from the model's view. */
  prunedNotes: string[];
  follow: { visited: Set<string>; tokens: number; docCounts: Map<string, number> };
  metadata: Map<string, CatalogDocument | null>;
}

export function createAgentState(args: {
  ownerId: string;
  question: string;
  constraints: PromptConstraints;
  plan: AgentPlan;
  limits: AgentLimits;
}): AgentState {
  return {
    ...args,
    results: new Map(),
    chunkHandles: new Map(),
    docHandles: new Map(),
    docByHandle: new Map(),
    opened: [],
    searches: [],
    toolCalls: 0,
    iterations: 0,
    reprompts: 0,
    malformed: 0,
    feedback: [],
    safetyFlags: new Set(),
    injectedSpans: [],
    suspectSpans: [],
    prunedNotes: [],
    follow: { visited: new Set(), tokens: 0, docCounts: new Map() },
    metadata: new Map(),
  };
}

/** The document handle (d1, d2…) for a document id, created on first sight. */
export function documentHandle(state: AgentState, documentId: string): string {
  const existing = state.docHandles.get(documentId);
  if (existing) return existing;
  const handle = `d${state.docHandles.size + 1}`;
  state.docHandles.set(documentId, handle);
  state.docByHandle.set(handle, documentId);
  return handle;
}

/** Registers a hit under a stable handle (the same chunk keeps its handle across searches). */
export function registerHit(
  state: AgentState,
  hit: SearchHit,
  query: string,
  flags: RetrievedFlags,
  origin: ResultEntry['origin'] = 'search',
): ResultEntry {
  const existingHandle = state.chunkHandles.get(hit.chunkId);
  const existing = existingHandle ? state.results.get(existingHandle) : undefined;
  if (existing) {
    if (!existing.queries.includes(query)) existing.queries.push(query);
    // A result a followed reference resolves to is the referenced passage, however it was first found.
    if (origin === 'follow' && existing.origin !== 'follow') {
      existing.origin = 'follow';
      existing.queries.unshift(existing.queries.splice(existing.queries.indexOf(query), 1)[0] ?? query);
    }
    if (hit.score > existing.hit.score) existing.hit = { ...hit, text: hit.text ?? existing.hit.text };
    existing.pruned = false;
    return existing;
  }
  const handle = `r${state.results.size + 1}`;
  const entry: ResultEntry = {
    handle,
    hit,
    documentHandle: documentHandle(state, hit.documentId),
    queries: [query],
    injected: flags.injected,
    suspect: flags.suspect,
    irrelevant: false,
    pruned: false,
    origin,
  };
  state.results.set(handle, entry);
  state.chunkHandles.set(hit.chunkId, handle);
  return entry;
}

/** Normalises what a model wrote for a handle ("r3", "R3", "[r3]", " r3 ") or null. */
export function normalizeHandle(raw: string | undefined, prefix: 'r' | 'd'): string | null {
  if (!raw) return null;
  const m = new RegExp(`^\\W*${prefix}\\s*(\\d{1,4})\\W*$`, 'i').exec(raw.trim());
  return m?.[1] ? `${prefix}${Number.parseInt(m[1], 10)}` : null;
}

/** Records the instruction-like spans seen in retrieved text (both tiers: retrieved-flags.ts). */
export function recordInjection(state: AgentState, flags: RetrievedFlags): void {
  for (const s of flags.suspect) if (!state.suspectSpans.includes(s)) state.suspectSpans.push(s);
  if (flags.injected.length === 0) return;
  state.safetyFlags.add('injection_in_context');
  for (const s of flags.injected) if (!state.injectedSpans.includes(s)) state.injectedSpans.push(s);
}

export function remainingToolCalls(state: AgentState): number {
  return Math.max(0, state.limits.maxToolCalls - state.toolCalls);
}
