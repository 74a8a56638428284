import type { Db } from '@/lib/db/client';
import { type DocumentEmbedder, embeddingText } from '@/lib/ingest/pipeline';
import type { ChunkIndex } from '@/lib/retrieval/types';

const BATCH = 64;

/**
 * Gives vectors to documents that were indexed while no embedder answered (vectorsPending), oldest first,
 * a bounded number per call. Keyword search worked for them all along; afterwards semantic and hybrid do too.
 * Returns how many documents were completed.
 */
export async function backfillVectors({
  db,
  index,
  embedder,
  maxDocuments = 5,
  ownerId,
  signal,
}: {
  db: Db;
  index: ChunkIndex;
  embedder: DocumentEmbedder;
  maxDocuments?: number;
  /** Only this owner's documents (all owners when absent). */
  ownerId?: string;
  signal?: AbortSignal;
}): Promise<number> {
  const docs = await db.document.findMany({
    where: { status: 'INDEXED', vectorsPending: true, ...(ownerId ? { ownerId } : {}) },
    orderBy: { indexedAt: 'asc' },
    select: { id: true, ownerId: true },
    take: maxDocuments,
  });
  let done = 0;
  for (const doc of docs) {
    if (signal?.aborted) break;
    const ids = await db.chunk.findMany({
      where: { documentId: doc.id, ownerId: doc.ownerId },
      orderBy: { index: 'asc' },
      select: { id: true },
    });
    let found = 0;
    for (let i = 0; i < ids.length; i += BATCH) {
      // The index holds each chunk's exact text and context prefix: embed what ingestion would have embedded.
      const batch = await index.get(
        doc.ownerId,
        ids.slice(i, i + BATCH).map((c) => c.id),
      );
      found += batch.length;
      if (batch.length === 0) continue;
      const vectors = await embedder.embedDocuments(batch.map(embeddingText), signal);
      await index.setVectors(
        doc.ownerId,
        embedder.model,
        batch.map((c, j) => ({ chunkId: c.chunkId, vector: vectors[j] ?? [] })).filter((u) => u.vector.length > 0),
      );
    }
    if (found < ids.length) {
      // The index lost some of this document's chunks (e.g. its folder was replaced): index it again from scratch.
      await db.document.updateMany({
        where: { id: doc.id, status: 'INDEXED' },
        data: { status: 'PENDING', stage: 'queued', progress: 0, attempts: 0 },
      });
      continue;
    }
    // Only if the document was not re-queued or deleted meanwhile.
    const marked = await db.document.updateMany({
      where: { id: doc.id, status: 'INDEXED', vectorsPending: true },
      data: { vectorsPending: false, embeddingModel: embedder.model },
    });
    if (marked.count === 1) done++;
  }
  return done;
}
