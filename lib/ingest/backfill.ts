import { listChunkIds } from '@/lib/db/chunks';
import { listDocumentsAwaitingVectors, markVectorsComplete, requeueIndexedDocument } from '@/lib/db/jobs';
import { type DocumentEmbedder, embeddingText } from '@/lib/ingest/pipeline';
import type { ChunkIndex } from '@/lib/retrieval/types';

const BATCH = 64;

/**
 * Gives vectors to documents that were indexed while no embedder answered (vectorsPending), oldest first,
 * a bounded number per call. Keyword search worked for them all along; afterwards semantic and hybrid do too.
 * Returns how many documents were completed.
 */
export async function backfillVectors({
  index,
  embedder,
  maxDocuments = 5,
  ownerId,
  signal,
}: {
  index: ChunkIndex;
  embedder: DocumentEmbedder;
  maxDocuments?: number;
  /** Only this owner's documents (all owners when absent). */
  ownerId?: string;
  signal?: AbortSignal;
}): Promise<number> {
  const docs = await listDocumentsAwaitingVectors({ limit: maxDocuments, ...(ownerId ? { ownerId } : {}) });
  let done = 0;
  for (const doc of docs) {
    if (signal?.aborted) break;
    const ids = await listChunkIds({ ownerId: doc.ownerId, documentId: doc.id });
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
      await requeueIndexedDocument(doc.id);
      continue;
    }
    // Only if the document was not re-queued or deleted meanwhile.
    if (await markVectorsComplete({ documentId: doc.id, embeddingModel: embedder.model })) done++;
  }
  return done;
}
