import { createHash } from 'node:crypto';
import path from 'node:path';
import { MIME_BY_KIND } from '@/lib/ingest/mime-by-kind';
import { parseAndChunkPath } from '@/lib/ingest/parse-and-chunk';
import type { IndexedChunk } from '@/lib/retrieval/types';
import type { MemoryDocument } from '@/test/support/agent/memory-catalog';

/**
 * The QA set's documents ingested through the real parse + chunk code (as the upload pipeline does, minus the
 * database and the embedder), as catalog documents and index chunks for one owner.
 */

function uuidFrom(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface QaCorpus {
  docs: MemoryDocument[];
  chunks: IndexedChunk[];
  /** document id → path relative to the documents folder */
  pathOf: Map<string, string>;
  failed: { path: string; reason: string }[];
}

export async function ingestQaDocuments(root: string, paths: readonly string[], ownerId: string): Promise<QaCorpus> {
  const docs: MemoryDocument[] = [];
  const chunks: IndexedChunk[] = [];
  const pathOf = new Map<string, string>();
  const failed: { path: string; reason: string }[] = [];
  for (const rel of [...new Set(paths)].sort()) {
    const filename = path.basename(rel);
    try {
      const { parsed, chunks: pieces } = await parseAndChunkPath(path.join(root, rel), { filename });
      const documentId = uuidFrom(`${ownerId}:${rel}`);
      const mime = MIME_BY_KIND[parsed.kind];
      docs.push({
        documentId,
        ownerId,
        status: 'INDEXED',
        filename,
        title: parsed.title,
        mime,
        bucketId: null,
        bucketName: null,
        documentDate: null,
        tags: [],
        fields: {},
        pageCount: parsed.kind === 'pdf' ? parsed.pageCount : null,
        chunkCount: pieces.length,
        sha256: createHash('sha256').update(rel).digest('hex'),
      });
      pathOf.set(documentId, rel);
      for (const c of pieces) {
        chunks.push({
          chunkId: uuidFrom(`${documentId}:${c.index}`),
          documentId,
          ownerId,
          index: c.index,
          text: c.text,
          contextPrefix: c.contextPrefix,
          tokenCount: c.tokenCount,
          vector: null,
          embeddingModel: null,
          page: c.page,
          sheet: c.sheet,
          rowStart: c.rowStart,
          rowEnd: c.rowEnd,
          headingPath: c.headingPath,
          charStart: c.charStart,
          charEnd: c.charEnd,
          bucketId: null,
          mime,
          filename,
          title: parsed.title,
          documentDate: null,
          tags: [],
          fields: {},
        });
      }
    } catch (error) {
      failed.push({ path: rel, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { docs, chunks, pathOf, failed };
}
