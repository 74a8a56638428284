import type { ChunkIndex, SearchFilters, SearchHit, SearchMode } from '@/lib/retrieval/types';
import { type RankedSummary, rankSummaries, type SummaryRecord } from './search';

/**
 * The summary → segment route for conceptual questions over long documents: rank section summaries, keep the
 * best few sections, then search segments only inside them (the chunk index, filtered to their documents, hits
 * kept when they lie in a chosen section). Hits are ordered by reciprocal-rank fusion of the section's rank and
 * the segment's own rank, so a strong passage in the second section can beat a weak one in the first.
 */

/** Where the route reads summaries from: lib/db/summaries.ts in the app, an array in the eval and tests. */
export interface SummarySource {
  /** The owner's section summaries (only of the given documents when `documentIds` is set). */
  listSummaries(ownerId: string, documentIds?: readonly string[]): Promise<SummaryRecord[]>;
}

export interface SectionHit extends SearchHit {
  /** Label of the section the hit lies in ("Treatment > Surgery", "pp. 12–14"). */
  section: string;
  sectionRank: number;
}

export interface SummaryRouteResult {
  sections: RankedSummary[];
  hits: SectionHit[];
  /** Summaries scanned (the route's cost grows with it). */
  scanned: number;
}

export const ROUTE_TOP_SECTIONS = 3;
const FUSION_K = 10;
/** Sections whose summaries are ranked before their segments are looked at. */
const SUMMARY_CANDIDATES = 10;

export async function summaryRoute(args: {
  index: ChunkIndex;
  source: SummarySource;
  ownerId: string;
  query: string;
  mode: SearchMode;
  queryVector?: number[] | null;
  filters?: SearchFilters;
  topK: number;
  topSections?: number;
}): Promise<SummaryRouteResult> {
  const records = await args.source.listSummaries(args.ownerId, args.filters?.documentIds);
  const limit = args.topSections ?? ROUTE_TOP_SECTIONS;
  const bySummary = rankSummaries(args.query, records, SUMMARY_CANDIDATES);
  if (bySummary.length === 0) return { sections: [], hits: [], scanned: records.length };
  const candidates = await args.index.search({
    ownerId: args.ownerId,
    query: args.query,
    mode: args.mode,
    topK: 100,
    candidates: 100,
    filters: { ...args.filters, documentIds: [...new Set(bySummary.map((s) => s.documentId))] },
    queryVector: args.queryVector ?? null,
    includeText: true,
  });
  const within = (s: SummaryRecord, hit: SearchHit) =>
    s.documentId === hit.documentId && hit.index >= s.chunkStart && hit.index <= s.chunkEnd;
  // A section's rank: its summary's rank fused with the rank of the best segment inside it ("hydrated").
  const fusedSections = bySummary
    .map((s, rank) => {
      const best = candidates.findIndex((hit) => within(s, hit));
      return { s, score: 1 / (FUSION_K + rank + 1) + (best >= 0 ? 1 / (FUSION_K + best + 1) : 0) };
    })
    .sort((a, b) => b.score - a.score)
    .slice(0, limit);
  const sections = fusedSections.map((f) => f.s);
  const hits: (SectionHit & { fused: number })[] = [];
  for (const [rank, hit] of candidates.entries()) {
    const sectionRank = sections.findIndex((s) => within(s, hit));
    const section = sections[sectionRank];
    if (!section) continue;
    hits.push({
      ...hit,
      section: section.label,
      sectionRank: sectionRank + 1,
      fused: (fusedSections[sectionRank]?.score ?? 0) + 1 / (FUSION_K + rank + 1),
    });
  }
  hits.sort((a, b) => b.fused - a.fused);
  return {
    sections,
    hits: hits.slice(0, args.topK).map(({ fused: _fused, ...h }) => h),
    scanned: records.length,
  };
}
