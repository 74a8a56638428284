import { findBucket } from '@/lib/db/buckets';
import {
  cancelQueuedDocument,
  type DocumentSummary,
  deleteDocumentRecord,
  getDocumentOrThrow,
  requestDocumentCancel,
  requeueDocument,
  updateDocumentRecord,
} from '@/lib/db/documents';
import { getDocumentTypedMeta } from '@/lib/db/typed-meta';
import { type DocumentMetadata, readMetadata } from '@/lib/domain/document';
import { indexedMetaValues } from '@/lib/domain/typed-meta';
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
  const doc = await deleteDocumentRecord({ ownerId, id }, () => deps.index.deleteDocument(ownerId, id));
  if (!doc) throw new AppError('not_found:document', 'Document not found.');
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
  await requeueDocument({ ownerId, id });
  deps.kickWorker?.();
  return getDocumentOrThrow({ ownerId, id });
}

/** Asks a queued or running job to stop; it ends FAILED with a "Cancelled" reason and can be retried. */
export async function cancelDocument({ ownerId, id }: { ownerId: string; id: string }): Promise<DocumentSummary> {
  const doc = await getDocumentOrThrow({ ownerId, id });
  if (doc.status === 'PENDING') {
    await cancelQueuedDocument({ ownerId, id });
  } else if (doc.status === 'PROCESSING') {
    await requestDocumentCancel({ ownerId, id });
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
  const current = await getDocumentOrThrow({ ownerId, id });
  if (bucketId !== undefined && bucketId !== null && !(await findBucket({ ownerId, id: bucketId }))) {
    throw new AppError('not_found:bucket', 'Bucket not found.');
  }
  const nextMetadata = metadata ?? current.metadata;
  await updateDocumentRecord({
    ownerId,
    id,
    ...(bucketId !== undefined ? { bucketId } : {}),
    ...(metadata ? { metadata } : {}),
  });
  const updated = await getDocumentOrThrow({ ownerId, id });
  if (updated.status === 'INDEXED') {
    await syncIndexAttributes({ ownerId, document: updated, metadata: nextMetadata }, deps);
  }
  return updated;
}

/**
 * Writes a document's filterable attributes onto its indexed chunks, its typed values included (read from the
 * database: what typed filters run on inside the chunk index; none while the document is in no bucket).
 */
export async function syncIndexAttributes(
  { ownerId, document, metadata }: { ownerId: string; document: DocumentSummary; metadata: DocumentMetadata },
  deps: Pick<ManageDeps, 'index'>,
): Promise<void> {
  const meta = readMetadata(metadata);
  const typed = await getDocumentTypedMeta({ ownerId, documentId: document.id });
  await deps.index.updateDocumentAttributes(ownerId, document.id, {
    bucketId: document.bucketId,
    mime: document.mime,
    filename: document.filename,
    title: meta.title,
    documentDate: meta.documentDate,
    tags: meta.tags,
    fields: meta.fields,
    meta: indexedMetaValues(document.bucketId, typed.meta.values),
  });
}

/**
 * After a document's typed values changed (hand edit, re-extraction): copies them onto its indexed chunks, so
 * typed filters see the new values at once. A document not indexed yet gets them when its chunks are written.
 */
export async function syncIndexedTypedValues(
  { ownerId, documentId }: { ownerId: string; documentId: string },
  deps: Pick<ManageDeps, 'index'>,
): Promise<void> {
  const document = await getDocumentOrThrow({ ownerId, id: documentId });
  if (document.status !== 'INDEXED') return;
  await syncIndexAttributes({ ownerId, document, metadata: document.metadata }, deps);
}
