import { findBucket } from '@/lib/db/buckets';
import {
  createPendingDocument,
  type DocumentSummary,
  findDocument,
  findDocumentIdBySha256,
  isUniqueViolation,
} from '@/lib/db/documents';
import { AppError } from '@/lib/errors';
import { sniffFile } from '@/lib/ingest/sniff';
import { cleanDisplayName, deleteStoredFile, type StoredUpload } from '@/lib/ingest/storage';
import { isUuid } from '@/lib/validation/ids';

export interface IntakeResult {
  document: DocumentSummary;
  duplicate: boolean;
}

/**
 * Turns a stored upload into a queued document for its owner: checks the real type by content, recognises the
 * same content uploaded before by the same owner (sha256; the new copy is discarded), and creates the PENDING
 * row the ingest worker picks up. The stored file is removed on every refusal, so nothing is left half-done.
 */
export async function registerUpload({
  ownerId,
  stored,
  filename,
  declaredMime,
  bucketId,
}: {
  ownerId: string;
  stored: StoredUpload;
  filename: string;
  declaredMime: string | null;
  bucketId: string | null;
}): Promise<IntakeResult> {
  const displayName = cleanDisplayName(filename);
  try {
    if (bucketId !== null && !(await findBucket({ ownerId, id: bucketId }))) {
      throw new AppError('not_found:bucket', 'Bucket not found.');
    }
    const existingId = await findDocumentIdBySha256({ ownerId, sha256: stored.sha256 });
    if (existingId) {
      await deleteStoredFile(stored.storedName);
      const document = await findDocument({ ownerId, id: existingId });
      if (document) return { document, duplicate: true };
    }
    if (stored.size === 0) throw new AppError('unprocessable:upload', `“${displayName}” is empty (0 bytes).`);
    const sniffed = await sniffFile({ path: stored.path, filename: displayName, declaredMime });
    if ('error' in sniffed) {
      throw new AppError('unsupported_media_type:upload', `“${displayName}” cannot be indexed: ${sniffed.error}`);
    }
    const createdId = await createPendingDocument({
      ownerId,
      bucketId,
      filename: displayName,
      storedName: stored.storedName,
      mime: sniffed.mime,
      size: stored.size,
      sha256: stored.sha256,
    });
    const document = await findDocument({ ownerId, id: createdId });
    if (!document) throw new AppError('internal:upload');
    return { document, duplicate: false };
  } catch (error) {
    await deleteStoredFile(stored.storedName).catch(() => {});
    if (isUniqueViolation(error)) {
      // a concurrent upload of the same content won the race
      const existingId = await findDocumentIdBySha256({ ownerId, sha256: stored.sha256 });
      const document = existingId ? await findDocument({ ownerId, id: existingId }) : null;
      if (document) return { document, duplicate: true };
    }
    throw error;
  }
}

/** Validates an optional bucket id header/field: empty means no bucket. */
export function parseBucketId(value: string | null | undefined): string | null {
  if (!value) return null;
  if (!isUuid(value)) throw new AppError('not_found:bucket', 'Bucket not found.');
  return value;
}
