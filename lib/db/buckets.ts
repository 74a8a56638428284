import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { type MetaField, readBucketMetaSchema } from '@/lib/domain/typed-meta';
import { AppError } from '@/lib/errors';
import { isUuid } from '@/lib/validation/ids';

export const bucketNameSchema = z
  .string()
  .trim()
  .min(1, 'Give the bucket a name.')
  .max(80, 'Bucket names have at most 80 characters.')
  .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'Bucket names cannot contain control characters.');

export interface BucketSummary {
  id: string;
  name: string;
  documentCount: number;
  /** The typed fields the bucket declares (lib/domain/typed-meta.ts); absent or empty when none. */
  metaFields?: MetaField[];
}

export async function listBuckets({ ownerId }: { ownerId: string }): Promise<BucketSummary[]> {
  const rows = await getDb().bucket.findMany({
    where: { ownerId },
    orderBy: { name: 'asc' },
    select: { id: true, name: true, metaSchema: true, _count: { select: { documents: true } } },
  });
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    documentCount: r._count.documents,
    metaFields: readBucketMetaSchema(r.metaSchema).fields,
  }));
}

export async function findBucket({ ownerId, id }: { ownerId: string; id: string }) {
  if (!isUuid(id)) return null;
  return getDb().bucket.findFirst({ where: { id, ownerId }, select: { id: true, name: true } });
}

export async function getBucketOrThrow({ ownerId, id }: { ownerId: string; id: string }) {
  const bucket = await findBucket({ ownerId, id });
  if (!bucket) throw new AppError('not_found:bucket', 'Bucket not found.');
  return bucket;
}

function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === 'P2002'
  );
}

/** Bucket names are unique per owner regardless of case ("Contracts" and "contracts" are the same bucket). */
async function assertNameFree(ownerId: string, name: string, exceptId?: string): Promise<void> {
  const rows = await getDb().bucket.findMany({ where: { ownerId }, select: { id: true, name: true } });
  const wanted = name.toLocaleLowerCase();
  if (rows.some((r) => r.id !== exceptId && r.name.toLocaleLowerCase() === wanted)) {
    throw new AppError('conflict:bucket', `You already have a bucket named “${name}”.`);
  }
}

export async function createBucket({ ownerId, name }: { ownerId: string; name: string }): Promise<BucketSummary> {
  const clean = bucketNameSchema.parse(name);
  await assertNameFree(ownerId, clean);
  try {
    const row = await getDb().bucket.create({ data: { ownerId, name: clean }, select: { id: true, name: true } });
    return { ...row, documentCount: 0, metaFields: [] };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict:bucket', `You already have a bucket named “${clean}”.`);
    throw error;
  }
}

export async function renameBucket({ ownerId, id, name }: { ownerId: string; id: string; name: string }) {
  const clean = bucketNameSchema.parse(name);
  if (!isUuid(id)) throw new AppError('not_found:bucket', 'Bucket not found.');
  await getBucketOrThrow({ ownerId, id });
  await assertNameFree(ownerId, clean, id);
  try {
    const result = await getDb().bucket.updateMany({ where: { id, ownerId }, data: { name: clean } });
    if (result.count === 0) throw new AppError('not_found:bucket', 'Bucket not found.');
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('conflict:bucket', `You already have a bucket named “${clean}”.`);
    throw error;
  }
}

/** Deletes the bucket; its documents stay, without a bucket. */
export async function deleteBucket({ ownerId, id }: { ownerId: string; id: string }): Promise<string[]> {
  if (!isUuid(id)) throw new AppError('not_found:bucket', 'Bucket not found.');
  const db = getDb();
  return db.$transaction(async (tx) => {
    const bucket = await tx.bucket.findFirst({ where: { id, ownerId }, select: { id: true } });
    if (!bucket) throw new AppError('not_found:bucket', 'Bucket not found.');
    const docs = await tx.document.findMany({ where: { ownerId, bucketId: id }, select: { id: true } });
    await tx.document.updateMany({ where: { ownerId, bucketId: id }, data: { bucketId: null } });
    await tx.bucket.deleteMany({ where: { id, ownerId } });
    return docs.map((d) => d.id);
  });
}

/** The id of the owner's bucket with exactly this name, created when missing (the bulk-ingest CLI's --bucket). */
export async function ensureBucketNamed({ ownerId, name }: { ownerId: string; name: string }): Promise<string> {
  const bucket = await getDb().bucket.upsert({
    where: { ownerId_name: { ownerId, name } },
    create: { ownerId, name },
    update: {},
    select: { id: true },
  });
  return bucket.id;
}
