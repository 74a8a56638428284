import { analyzeQueryTerms } from '@/lib/retrieval/analyzer';
import { compileFilters } from '@/lib/retrieval/embedded/filter-predicate';
import type { TermLookup } from '@/lib/retrieval/embedded/keyword-store';
import type { StoredChunk } from '@/lib/retrieval/embedded/lance-rows';
import type { OwnerPartition } from '@/lib/retrieval/embedded/owner-partition';
import { makeSnippet } from '@/lib/retrieval/embedded/snippet';
import { reciprocalRankFusion } from '@/lib/retrieval/fusion';
import type { SearchHit, SearchRequest } from '@/lib/retrieval/types';

/** Candidates per mode before fusion when the request does not say (types.ts: default 50, max 100). */
export const DEFAULT_CANDIDATES = 50;
export const MAX_CANDIDATES = 100;

function toHit(
  chunk: StoredChunk,
  score: number,
  scores: SearchHit['scores'],
  queryTerms: ReadonlySet<string>,
  includeText: boolean,
): SearchHit {
  const hit: SearchHit = {
    chunkId: chunk.chunkId,
    documentId: chunk.documentId,
    index: chunk.index,
    filename: chunk.filename,
    title: chunk.title,
    page: chunk.page,
    sheet: chunk.sheet,
    rowStart: chunk.rowStart,
    rowEnd: chunk.rowEnd,
    headingPath: chunk.headingPath,
    charStart: chunk.charStart,
    charEnd: chunk.charEnd,
    snippet: makeSnippet(chunk.text, queryTerms),
    score,
    scores,
  };
  if (includeText) hit.text = chunk.text;
  return hit;
}

/**
 * The terms a keyword query searches, analysed in every language of the owner's chunks (`analyzeQueryTerms`):
 * its content words (function words dropped), or, when none of those occurs in the owner's chunks ("what is
 * it", a misspelt name next to "how"), every word the index keeps, so a query with any indexed word always
 * returns the chunks that contain it.
 */
function queryTerms(partition: OwnerPartition, query: string, lookup: TermLookup): string[] {
  const { content, all } = analyzeQueryTerms(query, partition.languages());
  if (partition.hasAnyTerm(content, lookup)) return content;
  return all;
}

/**
 * Runs one (already validated) search inside one owner's partition:
 * - keyword: BM25F over text + context prefix, score = BM25;
 * - semantic: cosine similarity over chunks that have a vector (none without a query vector), score = cosine;
 * - hybrid: both lists (max(candidates, topK) each) fused by RRF (k = 60), score = RRF; without a query vector
 *   it is exactly a keyword search.
 * Filters mean the same in every mode (filter-predicate.ts); every hit is this owner's and still present.
 * Only the returned hits are read from the doc store (text, location); ranking runs on in-memory data.
 */
export async function searchPartition(partition: OwnerPartition, request: SearchRequest): Promise<SearchHit[]> {
  // Each term is looked up once in every segment: for the choice of terms, then for their weights and postings.
  const lookup = partition.termLookup();
  const terms = queryTerms(partition, request.query, lookup);
  const termSet = new Set(terms);
  const includeText = request.includeText === true;
  const vector = request.queryVector ?? null;
  const perMode = Math.max(request.topK, Math.min(request.candidates ?? DEFAULT_CANDIDATES, MAX_CANDIDATES));

  if (request.mode === 'keyword' || (request.mode === 'hybrid' && !vector)) {
    // Records read from the state the search ranked (a write committed meanwhile does not change them).
    const matches = await partition.searchKeyword(terms, request.topK, request.filters, { records: true, lookup });
    return matches.flatMap((match) =>
      match.record ? [toHit(match.record, match.score, { keyword: match.score }, termSet, includeText)] : [],
    );
  }
  if (!vector) return [];
  if (request.mode === 'semantic') {
    const matches = await partition.searchSemantic(vector, request.topK, request.filters);
    return matches.flatMap((match) => {
      const chunk = partition.chunk(match.chunkId);
      return chunk ? [toHit(chunk, match.similarity, { semantic: match.similarity }, termSet, includeText)] : [];
    });
  }

  // Both at once: the vector search (LanceDB's own threads) is started first, so keyword scoring (here or in a
  // search worker) overlaps it.
  const [semantic, keyword] = await Promise.all([
    partition.searchSemantic(vector, perMode, request.filters),
    partition.searchKeyword(terms, perMode, request.filters, { lookup }),
  ]);
  const keywordScores = new Map(keyword.map((match) => [match.chunkId, match.score]));
  const semanticScores = new Map(semantic.map((match) => [match.chunkId, match.similarity]));
  const fused = reciprocalRankFusion([keyword.map((match) => match.chunkId), semantic.map((match) => match.chunkId)], {
    limit: request.topK,
  });
  const predicate = compileFilters(request.filters);
  const hits: SearchHit[] = [];
  for (const candidate of fused) {
    // Re-check the chunk now: one deleted or re-filed while the vector search was in flight is not returned.
    const attributes = partition.attributes(candidate.id);
    if (!attributes || (predicate && !predicate(attributes))) continue;
    const chunk = partition.chunk(candidate.id);
    if (!chunk) continue;
    const scores: SearchHit['scores'] = { hybrid: candidate.score };
    const keywordScore = keywordScores.get(candidate.id);
    const semanticScore = semanticScores.get(candidate.id);
    if (keywordScore !== undefined) scores.keyword = keywordScore;
    if (semanticScore !== undefined) scores.semantic = semanticScore;
    hits.push(toHit(chunk, candidate.score, scores, termSet, includeText));
  }
  return hits;
}
