import type { ChunkIndex, IndexedChunk, SearchHit } from '@/lib/retrieval/types';

/**
 * Why an eval answer failed, from what the agent searched and opened: an index wrapper records every chunk a run's
 * searches returned and every chunk it opened, and `failureCause` places a failure on the pipeline stage that lost
 * the gold answer (retrieval, opening, the decline decision, sentence selection).
 */

export interface RunRecord {
  /** Chunks any search of the run returned (id -> document id). */
  searched: Map<string, string>;
  /** Chunks the run opened, in order. */
  opened: IndexedChunk[];
}

/** The index with a recorder: `take()` returns what the run since the last `take()` searched and opened. */
export function recordingIndex(index: ChunkIndex): { index: ChunkIndex; take(): RunRecord } {
  let record: RunRecord = { searched: new Map(), opened: [] };
  const wrapped: ChunkIndex = {
    get engine() {
      return index.engine;
    },
    upsert: (chunks) => index.upsert(chunks),
    deleteDocument: (o, d) => index.deleteDocument(o, d),
    async search(request) {
      const hits: SearchHit[] = await index.search(request);
      for (const h of hits) record.searched.set(h.chunkId, h.documentId);
      return hits;
    },
    async get(ownerId, chunkIds) {
      const chunks = await index.get(ownerId, chunkIds);
      record.opened.push(...chunks);
      return chunks;
    },
    setVectors: (o, m, u) => index.setVectors(o, m, u),
    updateDocumentAttributes: (o, d, a) => index.updateDocumentAttributes(o, d, a),
    countChunks: (o) => index.countChunks(o),
    health: () => index.health(),
    close: () => index.close(),
  };
  return {
    index: wrapped,
    take() {
      const out = record;
      record = { searched: new Map(), opened: [] };
      return out;
    },
  };
}

export const CAUSES = [
  'retrieval miss (no searched chunk holds the gold answer)',
  'not opened (a searched chunk holds it, no opened one does)',
  'false decline (an opened chunk holds it, the answer declined)',
  'answer-type mismatch (asked type not detected)',
  'selection miss (an opened chunk holds it, other sentences quoted)',
  'false answer (unanswerable answered)',
] as const;
export type Cause = (typeof CAUSES)[number];

/**
 * The stage that lost an answerable question's gold answer. `holds(texts)` says whether the texts together hold
 * the gold answer (of the gold documents); `typeMismatch` that the question's detected answer type is not the one
 * the gold answer has.
 */
export async function failureCause(args: {
  record: RunRecord;
  /** Reads chunks by id (the unwrapped index, so reading does not count as opening). */
  read: (chunkIds: string[]) => Promise<IndexedChunk[]>;
  goldDocuments: ReadonlySet<string>;
  holds: (texts: string[]) => boolean;
  declined: boolean;
  typeMismatch: boolean;
}): Promise<Cause> {
  const { record, goldDocuments, holds } = args;
  const opened = record.opened.filter((c) => goldDocuments.has(c.documentId)).map((c) => c.text);
  const ids = [...record.searched].filter(([, doc]) => goldDocuments.has(doc)).map(([id]) => id);
  const searched = ids.length === 0 ? [] : (await args.read(ids)).map((c) => c.text);
  if (!holds([...opened, ...searched])) return CAUSES[0];
  if (!holds(opened)) return CAUSES[1];
  if (args.declined) return CAUSES[2];
  if (args.typeMismatch) return CAUSES[3];
  return CAUSES[4];
}

/** Counts per cause, in CAUSES order (causes with no failure left out). */
export function causeTable(causes: readonly Cause[]): [Cause, number][] {
  return CAUSES.map((c) => [c, causes.filter((x) => x === c).length] as [Cause, number]).filter(([, n]) => n > 0);
}
