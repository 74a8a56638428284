import { compileFilters } from '@/lib/retrieval/embedded/filter-predicate';
import type { AttributeSet, SegmentReader } from '@/lib/retrieval/embedded/keyword-segment';
import { maxScoreSearch, TermList, type TermPart } from '@/lib/retrieval/embedded/maxscore';
import type { ScoredSlot } from '@/lib/retrieval/embedded/top-k';
import type { SearchFilters } from '@/lib/retrieval/types';

/**
 * The scoring step of a keyword search, shared by the owner's thread and the search workers (keyword-pool.ts):
 * both build the same term lists from the same inputs and call the same maxscore.ts functions, so a query scores
 * the same, bit for bit, wherever it runs. Everything here is plain data (numbers, typed arrays over shared
 * memory, segment readers over shared bytes), so a worker can rebuild it from a message.
 */

/** BM25F length normalisation of one generation: b per field, the context weight, average lengths over live chunks. */
export interface LengthNormalisation {
  bBody: number;
  bContext: number;
  contextWeight: number;
  avgBody: number;
  avgContext: number;
}

/** One committed state of an owner's keyword index, as scoring sees it. */
export interface ScoringGeneration {
  /** Unique in the process (a worker keeps the generations it was sent under this id). */
  id: number;
  readers: readonly SegmentReader[];
  /** First global slot of each segment. */
  bases: readonly number[];
  /** 1 for live slots (all segments). */
  alive: Uint8Array;
  /** Per global slot: 1 / (1 - b + b * len / avgLen) of the body, and contextWeight / (...) of the context. */
  bodyInverse: Float32Array;
  contextFactor: Float32Array;
  k1: number;
  lengths: LengthNormalisation;
}

/**
 * A query term resolved against one generation: idf x query weight x (k1 + 1), and the segments holding it
 * (index into the generation's readers) with the term's index in each.
 */
export interface ResolvedTerm {
  weight: number;
  segments: number[];
  terms: number[];
}

/** The per-length norm functions of a generation (the same arithmetic the per-slot arrays were filled with). */
export function lengthNorms(lengths: LengthNormalisation): {
  body: (len: number) => number;
  context: (len: number) => number;
} {
  const { bBody, bContext, contextWeight, avgBody, avgContext } = lengths;
  return {
    body: (len: number) => 1 / (1 - bBody + (bBody * len) / avgBody),
    context: (len: number) => contextWeight / (1 - bContext + (bContext * len) / avgContext),
  };
}

/** Index of the segment holding a global slot (bases ascending, the first 0). */
function segmentOf(bases: readonly number[], slot: number): number {
  let lo = 0;
  let hi = bases.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((bases[mid] as number) <= slot) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The filter as a slot predicate over a generation: the reference predicate (filter-predicate.ts) on the slot's
 * attribute set, memoised per set for this query (the chunks of a document share one). Undefined without a
 * condition.
 */
export function filterAcceptor(
  generation: Pick<ScoringGeneration, 'readers' | 'bases'>,
  filters: SearchFilters | undefined,
): ((slot: number) => boolean) | undefined {
  const predicate = compileFilters(filters);
  if (!predicate) return undefined;
  const { readers, bases } = generation;
  const verdicts = new Map<AttributeSet, boolean>();
  return (slot) => {
    const segment = segmentOf(bases, slot);
    const reader = readers[segment] as SegmentReader;
    const attributes = reader.attributeSets[
      reader.attributeRef[slot - (bases[segment] as number)] as number
    ] as AttributeSet;
    let verdict = verdicts.get(attributes);
    if (verdict === undefined) {
      verdict = predicate(attributes);
      verdicts.set(attributes, verdict);
    }
    return verdict;
  };
}

/** Best live slots for resolved terms (BM25F, exact scores), best first, ties by lower slot. */
export function scoreTerms(
  generation: ScoringGeneration,
  terms: readonly ResolvedTerm[],
  limit: number,
  accept?: (slot: number) => boolean,
): ScoredSlot[] {
  if (limit <= 0 || terms.length === 0) return [];
  const { readers, bases, k1 } = generation;
  const norms = lengthNorms(generation.lengths);
  const lists = terms.map((term) => {
    const parts: TermPart[] = term.segments.map((segment, i) => ({
      reader: readers[segment] as SegmentReader,
      base: bases[segment] as number,
      term: term.terms[i] as number,
    }));
    return new TermList(parts, term.weight, k1, norms.body, norms.context);
  });
  return maxScoreSearch(
    lists,
    limit,
    {
      k1,
      bodyInverse: generation.bodyInverse,
      contextFactor: generation.contextFactor,
      alive: generation.alive,
    },
    accept,
  );
}
