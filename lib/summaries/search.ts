import { analyze, analyzeQuery } from '@/lib/retrieval/analyzer';

/**
 * Ranks section summaries for a query with BM25 over their analysed text (the same analyser as the chunk index),
 * IDF taken over the summaries searched. In memory: the summaries of the owner's long documents are few (one per
 * ~1,200 tokens of text), so a scan costs about a millisecond per thousand sections (see docs/summaries.md).
 */

export interface SummaryRecord {
  documentId: string;
  ordinal: number;
  label: string;
  chunkStart: number;
  chunkEnd: number;
  pageStart: number | null;
  pageEnd: number | null;
  text: string;
}

export interface RankedSummary extends SummaryRecord {
  score: number;
}

const K1 = 1.2;
const B = 0.75;

export function rankSummaries(query: string, summaries: readonly SummaryRecord[], limit: number): RankedSummary[] {
  const terms = [...new Set(analyzeQuery(query))];
  if (terms.length === 0 || summaries.length === 0) return [];
  const docs = summaries.map((s) => {
    const counts = new Map<string, number>();
    const tokens = analyze(s.text);
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    return { counts, length: tokens.length };
  });
  const avg = docs.reduce((n, d) => n + d.length, 0) / docs.length || 1;
  const n = docs.length;
  const idf = new Map(
    terms.map((t) => {
      const df = docs.filter((d) => d.counts.has(t)).length;
      return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
    }),
  );
  return summaries
    .map((s, i) => {
      const d = docs[i];
      let score = 0;
      if (d)
        for (const t of terms) {
          const f = d.counts.get(t) ?? 0;
          if (f > 0) score += (idf.get(t) ?? 0) * ((f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avg)));
        }
      return { ...s, score };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.documentId.localeCompare(b.documentId) || a.ordinal - b.ordinal)
    .slice(0, limit);
}
