import { readStorageUsage, type StorageUsage } from '@/lib/db/storage-usage';
import { describeStorageUsage, formatStorageBytes, type StorageQuota } from '@/lib/documents/quota-text';
import { AppError } from '@/lib/errors';

/**
 * The per-user storage quota (QUOTA_MAX_BYTES, QUOTA_MAX_DOCUMENTS), enforced at upload in three places: before
 * the body is read (the document count, and Content-Length when the client sent one), while it streams (the
 * stored bytes stop at what is left), and once stored (usage read again, so parallel uploads that each fitted
 * alone cannot together overshoot by more than what was in flight at that instant).
 */

/**
 * The refusal: 413 `quota_exceeded:upload`, saying what is used and allowed. `incomingBytes`: the file's size when
 * known (declared or stored), null when the upload was stopped while streaming at the space left.
 */
export function quotaExceeded(usage: StorageUsage, quota: StorageQuota, incomingBytes: number | null): AppError {
  const used = describeStorageUsage(usage, quota);
  const left = Math.max(0, quota.maxBytes - usage.bytes);
  const message =
    usage.documents >= quota.maxDocuments
      ? `Your document quota is full (${used}). Delete documents to upload more.`
      : `This file does not fit in your storage quota (${used}; ${formatStorageBytes(left)} left` +
        `${incomingBytes === null ? '' : `, the file is ${formatStorageBytes(incomingBytes)}`}). Delete documents to make room.`;
  return new AppError('quota_exceeded:upload', message, {
    details: {
      usedBytes: usage.bytes,
      maxBytes: quota.maxBytes,
      usedDocuments: usage.documents,
      maxDocuments: quota.maxDocuments,
    },
  });
}

/**
 * Before reading an upload: refuses when the owner has no document left, no byte left, or declared more bytes
 * than are left; otherwise answers how many bytes the upload may still use.
 */
export async function checkUploadQuota({
  ownerId,
  quota,
  declaredBytes,
}: {
  ownerId: string;
  quota: StorageQuota;
  declaredBytes: number | null;
}): Promise<{ usage: StorageUsage; remainingBytes: number }> {
  const usage = await readStorageUsage({ ownerId });
  const remainingBytes = quota.maxBytes - usage.bytes;
  if (usage.documents >= quota.maxDocuments || remainingBytes <= 0) throw quotaExceeded(usage, quota, declaredBytes);
  if (declaredBytes !== null && declaredBytes > remainingBytes) throw quotaExceeded(usage, quota, declaredBytes);
  return { usage, remainingBytes };
}

/** Once stored: usage read again (uploads may run in parallel); refuses when this file no longer fits. */
export async function confirmStoredUploadFits({
  ownerId,
  quota,
  storedBytes,
}: {
  ownerId: string;
  quota: StorageQuota;
  storedBytes: number;
}): Promise<void> {
  const usage = await readStorageUsage({ ownerId });
  if (usage.documents >= quota.maxDocuments || usage.bytes + storedBytes > quota.maxBytes) {
    throw quotaExceeded(usage, quota, storedBytes);
  }
}
