import { matchesMetaFilters } from '@/lib/domain/typed-meta';
import { analyze } from '@/lib/retrieval/analyzer';
import { reciprocalRankFusion } from '@/lib/retrieval/fusion';
import type {
  ChunkDocumentAttributes,
  ChunkIndex,
  ChunkIndexHealth,
  ChunkVectorUpdate,
  IndexedChunk,
  SearchFilters,
  SearchHit,
  SearchRequest,
} from '@/lib/retrieval/types';

/**
 * An in-memory ChunkIndex for tests and the agent benchmark: keyword scoring by idf-weighted term overlap,
 * cosine for vectors, RRF for hybrid, the same filter semantics as the contract. Owner-scoped like the real ones.
 */
export function createMemoryChunkIndex(): ChunkIndex & { size(): number } {
  const chunks = new Map<string, IndexedChunk>();
  const terms = new Map<string, Set<string>>();
  const df = new Map<string, number>();

  const matches = (c: IndexedChunk, ownerId: string, f: SearchFilters | undefined): boolean => {
    if (c.ownerId !== ownerId) return false;
    if (!f) return true;
    if (f.bucketIds && !f.bucketIds.includes(c.bucketId ?? '')) return false;
    if (f.documentIds && !f.documentIds.includes(c.documentId)) return false;
    if (f.mimeTypes && !f.mimeTypes.includes(c.mime)) return false;
    if (f.dateFrom && (c.documentDate === null || c.documentDate < f.dateFrom)) return false;
    if (f.dateTo && (c.documentDate === null || c.documentDate > f.dateTo)) return false;
    if (f.tags && !f.tags.every((t) => c.tags.includes(t))) return false;
    if (f.fields && !Object.entries(f.fields).every(([k, v]) => c.fields[k] === v)) return false;
    if (f.meta && !matchesMetaFilters(c.meta ?? {}, f.meta)) return false;
    return true;
  };

  const snippetFor = (text: string, queryTerms: Set<string>): string => {
    const words = text.split(/\s+/);
    let best = 0;
    for (let i = 0; i < words.length; i++) {
      const w = analyze(words[i] ?? '');
      if (w.some((t) => queryTerms.has(t))) {
        best = i;
        break;
      }
    }
    return words.slice(Math.max(0, best - 8), best + 32).join(' ');
  };

  const toHit = (
    c: IndexedChunk,
    score: number,
    scores: SearchHit['scores'],
    queryTerms: Set<string>,
    includeText: boolean,
  ): SearchHit => ({
    chunkId: c.chunkId,
    documentId: c.documentId,
    index: c.index,
    filename: c.filename,
    title: c.title,
    snippet: snippetFor(c.text, queryTerms),
    ...(includeText ? { text: c.text } : {}),
    score,
    scores,
    page: c.page,
    sheet: c.sheet,
    rowStart: c.rowStart,
    rowEnd: c.rowEnd,
    headingPath: c.headingPath,
    charStart: c.charStart,
    charEnd: c.charEnd,
  });

  const cosine = (a: number[], b: number[]): number => {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const x = a[i] ?? 0;
      const y = b[i] ?? 0;
      dot += x * y;
      na += x * x;
      nb += y * y;
    }
    return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
  };

  function keyword(req: SearchRequest, pool: IndexedChunk[], queryTerms: string[]): [IndexedChunk, number][] {
    const n = chunks.size || 1;
    const scored: [IndexedChunk, number][] = [];
    for (const c of pool) {
      const have = terms.get(c.chunkId);
      if (!have) continue;
      let s = 0;
      for (const t of queryTerms) if (have.has(t)) s += Math.log(1 + n / (df.get(t) ?? 1));
      if (s > 0) scored.push([c, s]);
    }
    return scored
      .sort((a, b) => b[1] - a[1] || a[0].chunkId.localeCompare(b[0].chunkId))
      .slice(0, req.candidates ?? 50);
  }

  return {
    engine: 'memory',
    size: () => chunks.size,
    async upsert(list) {
      for (const c of list) {
        const old = terms.get(c.chunkId);
        if (old) for (const t of old) df.set(t, (df.get(t) ?? 1) - 1);
        const set = new Set(analyze(`${c.contextPrefix} ${c.text}`));
        for (const t of set) df.set(t, (df.get(t) ?? 0) + 1);
        terms.set(c.chunkId, set);
        chunks.set(c.chunkId, { ...c });
      }
    },
    async deleteDocument(ownerId, documentId) {
      for (const c of [...chunks.values()]) {
        if (c.ownerId !== ownerId || c.documentId !== documentId) continue;
        for (const t of terms.get(c.chunkId) ?? []) df.set(t, (df.get(t) ?? 1) - 1);
        terms.delete(c.chunkId);
        chunks.delete(c.chunkId);
      }
    },
    async search(req) {
      const pool = [...chunks.values()].filter((c) => matches(c, req.ownerId, req.filters));
      const queryTerms = [...new Set(analyze(req.query))];
      const qSet = new Set(queryTerms);
      const includeText = req.includeText ?? false;
      const kw = req.mode === 'semantic' ? [] : keyword(req, pool, queryTerms);
      const vector = req.queryVector ?? null;
      const sem: [IndexedChunk, number][] =
        req.mode === 'keyword' || !vector
          ? []
          : pool
              .filter((c) => c.vector)
              .map((c): [IndexedChunk, number] => [c, cosine(vector, c.vector ?? [])])
              .sort((a, b) => b[1] - a[1])
              .slice(0, req.candidates ?? 50);
      if (req.mode === 'keyword' || (req.mode === 'hybrid' && !vector)) {
        return kw.slice(0, req.topK).map(([c, s]) => toHit(c, s, { keyword: s }, qSet, includeText));
      }
      if (req.mode === 'semantic')
        return sem.slice(0, req.topK).map(([c, s]) => toHit(c, s, { semantic: s }, qSet, includeText));
      const fused = reciprocalRankFusion([kw.map(([c]) => c.chunkId), sem.map(([c]) => c.chunkId)], {
        limit: req.topK,
      });
      return fused.flatMap((f) => {
        const c = chunks.get(f.id);
        return c ? [toHit(c, f.score, { hybrid: f.score }, qSet, includeText)] : [];
      });
    },
    async get(ownerId, chunkIds) {
      return chunkIds.flatMap((id) => {
        const c = chunks.get(id);
        return c && c.ownerId === ownerId ? [{ ...c }] : [];
      });
    },
    async setVectors(ownerId: string, model: string, updates: ChunkVectorUpdate[]) {
      for (const u of updates) {
        const c = chunks.get(u.chunkId);
        if (c && c.ownerId === ownerId) chunks.set(u.chunkId, { ...c, vector: u.vector, embeddingModel: model });
      }
    },
    async updateDocumentAttributes(ownerId: string, documentId: string, attributes: ChunkDocumentAttributes) {
      for (const c of chunks.values())
        if (c.ownerId === ownerId && c.documentId === documentId)
          chunks.set(c.chunkId, { ...c, ...attributes, meta: attributes.meta ?? {} });
    },
    async countChunks(ownerId) {
      return [...chunks.values()].filter((c) => c.ownerId === ownerId).length;
    },
    async health(): Promise<ChunkIndexHealth> {
      return { ok: true, engine: 'memory', detail: `${chunks.size} chunks` };
    },
    async close() {},
  };
}
