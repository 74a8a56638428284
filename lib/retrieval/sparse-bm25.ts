import { analyze, analyzeQueryTerms } from '@/lib/retrieval/analyzer';
import { likelyQueryLanguages } from '@/lib/retrieval/language';

/**
 * BM25 as sparse vectors, for engines that score `sum(query weight * document weight * idf)` themselves
 * (Qdrant with the `idf` modifier on the sparse vector).
 *
 * - Terms come from the same analyser as the embedded keyword index (`analyze` in the chunk's language), so both
 *   stores agree on tokens, stop words and stems. A query is analysed in English and in its detected language
 *   (`likelyQueryLanguages`) and the union of the terms is searched, as the embedded index does with the
 *   languages of the owner's chunks.
 * - A term's dimension is the FNV-1a 32-bit hash of its UTF-8 bytes: stable across processes and versions,
 *   no vocabulary to store or share between app instances. Trade-off: two different terms can share a
 *   dimension. With 2^32 dimensions and a vocabulary of V distinct terms, the expected number of colliding
 *   pairs is about V^2 / 2^33 (≈ 1 pair for 90k terms, ≈ 116 pairs for 1M terms). A collision merges the two
 *   terms: their counts add up in a document and their document frequencies add up for IDF. For a colliding
 *   pair of unrelated terms that adds a little noise to one query term's ranking; no document is lost.
 * - Document weights are BM25's term-frequency saturation with length normalisation:
 *   `tf * (k1 + 1) / (tf + k1 * (1 - b + b * docLength / avgDocLength))`, docLength counted in analysed terms.
 *   The average document length is a parameter, fixed at indexing time (the engine cannot recompute it);
 *   the default 256 matches Qdrant's own `qdrant/bm25` model and a ~500-token chunk after stop-word removal.
 * - Query weights are 1 per unique query term; IDF is applied by the engine at query time.
 */

export interface Bm25Params {
  /** Term-frequency saturation (typical 1.2-2.0). */
  k1: number;
  /** Length normalisation strength, 0 (none) to 1 (full). */
  b: number;
  /** Expected average document length in analysed terms. */
  avgDocLength: number;
}

export const DEFAULT_BM25_PARAMS: Readonly<Bm25Params> = Object.freeze({ k1: 1.2, b: 0.75, avgDocLength: 256 });

export interface SparseVector {
  /** Unique dimensions, ascending. */
  indices: number[];
  /** One weight per index. */
  values: number[];
}

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const encoder = new TextEncoder();

/** The stable u32 dimension of an analysed term (FNV-1a 32-bit over its UTF-8 bytes). */
export function termIndex(term: string): number {
  let hash = FNV_OFFSET_BASIS;
  for (const byte of encoder.encode(term)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME);
  }
  return hash >>> 0;
}

function assertParams(params: Bm25Params): void {
  if (!(params.k1 > 0) || !Number.isFinite(params.k1)) throw new Error(`BM25 k1 must be > 0, got ${params.k1}`);
  if (!(params.b >= 0 && params.b <= 1)) throw new Error(`BM25 b must be within [0, 1], got ${params.b}`);
  if (!(params.avgDocLength > 0) || !Number.isFinite(params.avgDocLength)) {
    throw new Error(`BM25 avgDocLength must be > 0, got ${params.avgDocLength}`);
  }
}

function toSorted(weights: Map<number, number>): SparseVector {
  const indices = [...weights.keys()].sort((a, b) => a - b);
  return { indices, values: indices.map((i) => weights.get(i) ?? 0) };
}

/** BM25 document vector from already analysed terms (terms that hash together are counted together). */
export function documentVectorFromTerms(
  terms: readonly string[],
  params: Bm25Params = DEFAULT_BM25_PARAMS,
): SparseVector {
  assertParams(params);
  const counts = new Map<number, number>();
  for (const term of terms) {
    const index = termIndex(term);
    counts.set(index, (counts.get(index) ?? 0) + 1);
  }
  const norm = params.k1 * (1 - params.b + (params.b * terms.length) / params.avgDocLength);
  const weights = new Map<number, number>();
  for (const [index, tf] of counts) weights.set(index, (tf * (params.k1 + 1)) / (tf + norm));
  return toSorted(weights);
}

/**
 * BM25 document vector of a text (analysed with the shared analyser in `language`, default English). Empty when
 * nothing is indexable.
 */
export function documentSparseVector(
  text: string,
  params: Bm25Params = DEFAULT_BM25_PARAMS,
  language?: string | null,
): SparseVector {
  return documentVectorFromTerms(analyze(text, language), params);
}

/**
 * Query vector: each unique analysed query term with weight 1, analysed in `languages` (default: English and the
 * query's detected language). Empty when the query has no indexable term.
 */
export function querySparseVector(text: string, languages?: readonly string[]): SparseVector {
  const weights = new Map<number, number>();
  for (const term of analyzeQueryTerms(text, languages ?? likelyQueryLanguages(text)).content) {
    weights.set(termIndex(term), 1);
  }
  return toSorted(weights);
}
