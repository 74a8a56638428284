import { findBucket } from '@/lib/db/buckets';
import { getDb } from '@/lib/db/client';
import { type DocumentSummary, getDocumentOrThrow, isUuid } from '@/lib/db/documents';
import { type DocumentMetadata, readMetadata } from '@/lib/domain/document';
import { AppError } from '@/lib/errors';
import { deleteStoredFile } from '@/lib/ingest/storage';
import type { ChunkIndex } from '@/lib/retrieval/types';

/**
 * Document operations that keep the database, the chunk index and the stored files in step. Every function
 * takes the owner id; another owner's document answers exactly like a missing one.
 */

export interface ManageDeps {
  index: ChunkIndex;
  /** Called after a document is removed, so shared answers can redact its quotes. */
  onDocumentDeleted?: (args: { ownerId: string; documentId: string }) => Promise<void>;
  /** Wakes the ingest worker after a job is queued. */
  kickWorker?: () => void;
}

/** Deletes the document: its indexed chunks first (so nothing can cite it), then rows, then the file. */
export async function deleteDocument(
  { ownerId, id }: { ownerId: string; id: string },
  deps: ManageDeps,
): Promise<void> {
  const db = getDb();
  if (!isUuid(id)) throw new AppError('not_found:document', 'Document not found.');
  const doc = await db.document.findFirst({ where: { id, ownerId }, select: { id: true, storedName: true } });
  if (!doc) throw new AppError('not_found:document', 'Document not found.');
  // Stop a running job first: the worker sees the row vanish and removes anything it indexes afterwards.
  await db.document.updateMany({ where: { id, ownerId }, data: { cancelRequested: true } });
  await deps.index.deleteDocument(ownerId, id);
  await db.document.deleteMany({ where: { id, ownerId } });
  await deleteStoredFile(doc.storedName).catch((error: unknown) =>
    console.warn('[documents] file removal failed', error),
  );
  await deps.onDocumentDeleted?.({ ownerId, documentId: id });
}

/** Queues the document to run through the whole pipeline again (re-index, or retry after a failure). */
export async function reindexDocument(
  { ownerId, id }: { ownerId: string; id: string },
  deps: ManageDeps,
): Promise<DocumentSummary> {
  const doc = await getDocumentOrThrow({ ownerId, id });
  if (doc.status === 'PENDING' || doc.status === 'PROCESSING') {
    throw new AppError('conflict:document', 'This document is already being processed.');
  }
  await getDb().document.updateMany({
    where: { id, ownerId, status: { in: ['INDEXED', 'FAILED'] } },
    data: { status: 'PENDING', stage: 'queued', progress: 0, error: null, attempts: 0, cancelRequested: false },
  });
  deps.kickWorker?.();
  return getDocumentOrThrow({ ownerId, id });
}

/** Asks a queued or running job to stop; it ends FAILED with a "Cancelled" reason and can be retried. */
export async function cancelDocument({ ownerId, id }: { ownerId: string; id: string }): Promise<DocumentSummary> {
  const db = getDb();
  const doc = await getDocumentOrThrow({ ownerId, id });
  if (doc.status === 'PENDING') {
    await db.document.updateMany({
      where: { id, ownerId, status: 'PENDING' },
      data: { status: 'FAILED', stage: 'failed', error: 'Cancelled. Retry to process this file again.', progress: 0 },
    });
  } else if (doc.status === 'PROCESSING') {
    await db.document.updateMany({ where: { id, ownerId, status: 'PROCESSING' }, data: { cancelRequested: true } });
  } else {
    throw new AppError('conflict:document', 'Only queued or running documents can be cancelled.');
  }
  return getDocumentOrThrow({ ownerId, id });
}

/** Moves the document to a bucket (or none) and/or replaces its metadata; the index follows at once. */
export async function updateDocument(
  {
    ownerId,
    id,
    bucketId,
    metadata,
  }: { ownerId: string; id: string; bucketId?: string | null; metadata?: DocumentMetadata },
  deps: ManageDeps,
): Promise<DocumentSummary> {
  const db = getDb();
  const current = await getDocumentOrThrow({ ownerId, id });
  if (bucketId !== undefined && bucketId !== null && !(await findBucket({ ownerId, id: bucketId }))) {
    throw new AppError('not_found:bucket', 'Bucket not found.');
  }
  const nextMetadata = metadata ?? current.metadata;
  await db.document.updateMany({
    where: { id, ownerId },
    data: {
      ...(bucketId !== undefined ? { bucketId } : {}),
      ...(metadata
        ? {
            metadata,
            title: metadata.title,
            documentDate: metadata.documentDate ? new Date(`${metadata.documentDate}T00:00:00Z`) : null,
          }
        : {}),
    },
  });
  const updated = await getDocumentOrThrow({ ownerId, id });
  if (updated.status === 'INDEXED') {
    await syncIndexAttributes({ ownerId, document: updated, metadata: nextMetadata }, deps);
  }
  return updated;
}

/** Writes a document's filterable attributes onto its indexed chunks. */
export async function syncIndexAttributes(
  { ownerId, document, metadata }: { ownerId: string; document: DocumentSummary; metadata: DocumentMetadata },
  deps: ManageDeps,
): Promise<void> {
  const meta = readMetadata(metadata);
  await deps.index.updateDocumentAttributes(ownerId, document.id, {
    bucketId: document.bucketId,
    mime: document.mime,
    filename: document.filename,
    title: meta.title,
    documentDate: meta.documentDate,
    tags: meta.tags,
    fields: meta.fields,
  });
}
