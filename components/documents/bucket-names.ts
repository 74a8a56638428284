import type { BucketSummary } from '@/lib/db/buckets';
import { AppError } from '@/lib/errors';

/** Bucket name rules and helpers of the dashboard (pure; the server's bucketNameSchema stays the authority). */

export const BUCKET_NAME_MAX = 80;

/** Client-side check of a bucket name (the server's rules: 1–80 characters, no control characters, unique). */
export function validateBucketName(name: string, buckets: readonly BucketSummary[], exceptId?: string): string | null {
  const clean = name.trim();
  if (!clean) return 'Give the bucket a name.';
  if (clean.length > BUCKET_NAME_MAX) return `Bucket names have at most ${BUCKET_NAME_MAX} characters.`;
  if (/[\u0000-\u001f\u007f]/.test(clean)) return 'Bucket names cannot contain control characters.';
  const lower = clean.toLocaleLowerCase();
  if (buckets.some((b) => b.id !== exceptId && b.name.toLocaleLowerCase() === lower)) {
    return `You already have a bucket named “${clean}”.`;
  }
  return null;
}

/** Sorts buckets alphabetically by name, ignoring case (in place; returns the same array). */
export function sortBuckets(list: BucketSummary[]): BucketSummary[] {
  return list.sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }));
}

/** The message to show inline for a bucket save that failed on a field, or null when it was something else. */
export function bucketFieldMessage(error: unknown): string | null {
  if (!(error instanceof AppError)) return null;
  if (error.type === 'conflict') return error.message;
  if (error.type === 'unprocessable') {
    const fields = error.details?.fields;
    const name = fields && typeof fields === 'object' ? (fields as Record<string, unknown>).name : undefined;
    return typeof name === 'string' ? name : error.message;
  }
  return null;
}
