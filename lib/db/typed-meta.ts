import { getDb } from '@/lib/db/client';
import { toJsonColumn } from '@/lib/db/json-column';
import {
  type BucketMetaSchema,
  bucketMetaSchemaSchema,
  checkTypedValues,
  type MetaEvidence,
  type MetaFilter,
  type MetaValue,
  matchesMetaFilters,
  readBucketMetaSchema,
  readTypedMeta,
  type TypedMeta,
} from '@/lib/domain/typed-meta';
import { AppError } from '@/lib/errors';
import { isUuid } from '@/lib/validation/ids';

/**
 * Typed metadata in the database: a bucket's schema (Bucket.metaSchema) and a document's typed values with their
 * evidence (Document.typedMeta). Every write is validated against the bucket's schema; every function takes the
 * owner id, and another owner's bucket or document answers as missing.
 */

function notFound(what: 'bucket' | 'document'): AppError {
  return what === 'bucket'
    ? new AppError('not_found:bucket', 'Bucket not found.')
    : new AppError('not_found:document', 'Document not found.');
}

export async function getBucketMetaSchema({ ownerId, bucketId }: { ownerId: string; bucketId: string }) {
  if (!isUuid(bucketId)) throw notFound('bucket');
  const row = await getDb().bucket.findFirst({ where: { id: bucketId, ownerId }, select: { metaSchema: true } });
  if (!row) throw notFound('bucket');
  return readBucketMetaSchema(row.metaSchema);
}

/**
 * Replaces a bucket's schema. Values documents already hold for removed fields, or that no longer fit a changed
 * type, stay stored but stop matching filters (matching checks each value's type) until set again.
 */
export async function setBucketMetaSchema({
  ownerId,
  bucketId,
  schema,
}: {
  ownerId: string;
  bucketId: string;
  schema: BucketMetaSchema;
}): Promise<BucketMetaSchema> {
  const clean = bucketMetaSchemaSchema.parse(schema);
  if (!isUuid(bucketId)) throw notFound('bucket');
  const result = await getDb().bucket.updateMany({
    where: { id: bucketId, ownerId },
    data: { metaSchema: toJsonColumn(clean) },
  });
  if (result.count === 0) throw notFound('bucket');
  return clean;
}

export interface DocumentTypedMeta {
  bucketId: string | null;
  schema: BucketMetaSchema;
  meta: TypedMeta;
}

export async function getDocumentTypedMeta({
  ownerId,
  documentId,
}: {
  ownerId: string;
  documentId: string;
}): Promise<DocumentTypedMeta> {
  if (!isUuid(documentId)) throw notFound('document');
  const row = await getDb().document.findFirst({
    where: { id: documentId, ownerId },
    select: { bucketId: true, typedMeta: true, bucket: { select: { metaSchema: true } } },
  });
  if (!row) throw notFound('document');
  return {
    bucketId: row.bucketId,
    schema: readBucketMetaSchema(row.bucket?.metaSchema),
    meta: readTypedMeta(row.typedMeta),
  };
}

/**
 * Sets a document's typed values, validated against its bucket's schema (422 naming each bad field). `replace`
 * (a hand edit) replaces every value and needs the required fields; otherwise (extraction at ingest) the values
 * are merged over the stored ones (never over a hand-set value) and a missing required field is allowed. Evidence
 * is kept per value.
 */
export async function setDocumentTypedValues({
  ownerId,
  documentId,
  values,
  evidence,
  replace,
}: {
  ownerId: string;
  documentId: string;
  values: Record<string, unknown>;
  evidence: Record<string, MetaEvidence>;
  replace: boolean;
}): Promise<TypedMeta> {
  const current = await getDocumentTypedMeta({ ownerId, documentId });
  if (current.bucketId === null && Object.keys(values).length > 0)
    throw new AppError('unprocessable:document', 'Put the document in a bucket with typed fields first.');
  // Extraction never overwrites a value the user set by hand.
  const incoming = replace
    ? values
    : Object.fromEntries(Object.entries(values).filter(([key]) => current.meta.evidence[key]?.source !== 'manual'));
  const checked = checkTypedValues(current.schema, incoming, { partial: !replace });
  if (!checked.ok)
    throw new AppError('unprocessable:document', checked.errors.join(' '), {
      fields: checked.errors.map((message) => ({ path: 'values', message })),
    });
  const merged: Record<string, MetaValue> = replace ? checked.values : { ...current.meta.values, ...checked.values };
  const keptEvidence: Record<string, MetaEvidence> = {};
  for (const key of Object.keys(merged)) {
    // A value saved unchanged keeps the evidence it was read from.
    const unchanged = current.meta.values[key] === merged[key] && current.meta.evidence[key];
    const proof = unchanged || evidence[key] || (replace ? undefined : current.meta.evidence[key]);
    if (proof) keptEvidence[key] = proof;
  }
  const meta: TypedMeta = { values: merged, evidence: keptEvidence };
  const result = await getDb().document.updateMany({
    where: { id: documentId, ownerId },
    data: { typedMeta: toJsonColumn(meta) },
  });
  if (result.count === 0) throw notFound('document');
  return meta;
}

/**
 * The owner's INDEXED documents (in the given buckets, when given) whose typed values pass every filter. Values are
 * matched in memory over the candidate documents' JSON (the same on SQLite and PostgreSQL): one indexed read of
 * the owner's documents that hold typed values, O(documents) per call. Chunk searches do not use it (typed filters
 * run inside the chunk index); section-summary ranking does, since summaries are listed by document id.
 */
export async function findDocumentIdsByMeta({
  ownerId,
  bucketIds,
  filters,
}: {
  ownerId: string;
  bucketIds?: string[];
  filters: readonly MetaFilter[];
}): Promise<string[]> {
  const rows = await getDb().document.findMany({
    where: {
      ownerId,
      status: 'INDEXED',
      ...(bucketIds ? { bucketId: { in: bucketIds.filter(isUuid) } } : { bucketId: { not: null } }),
    },
    select: { id: true, typedMeta: true },
  });
  return rows.filter((row) => matchesMetaFilters(readTypedMeta(row.typedMeta).values, filters)).map((row) => row.id);
}

/** Ids of the owner's INDEXED documents in a bucket (another owner's bucket has none). */
export async function listIndexedDocumentIdsInBucket({ ownerId, bucketId }: { ownerId: string; bucketId: string }) {
  if (!isUuid(bucketId)) return [];
  const rows = await getDb().document.findMany({
    where: { ownerId, bucketId, status: 'INDEXED' },
    select: { id: true },
    orderBy: { createdAt: 'asc' },
  });
  return rows.map((r) => r.id);
}

/** A document's chunk texts in order (what extraction reads), owner-scoped. */
export async function listChunkTexts({ ownerId, documentId }: { ownerId: string; documentId: string }) {
  if (!isUuid(documentId)) return [];
  return getDb().chunk.findMany({
    where: { ownerId, documentId },
    select: { index: true, page: true, text: true },
    orderBy: { index: 'asc' },
  });
}

/**
 * One page (by id, ascending) of INDEXED documents, of every owner, that hold typed values: the owner id and the
 * document id only. For the one-off backfill that copies typed values into chunk indexes written before values were
 * stored there (lib/documents/backfill-typed-index.ts); nothing of a document's content leaves this function.
 */
export async function pageDocumentsWithTypedValues({
  after,
  take,
}: {
  after: string | null;
  take: number;
}): Promise<{ documents: { ownerId: string; id: string }[]; next: string | null }> {
  const rows = await getDb().document.findMany({
    where: { status: 'INDEXED', bucketId: { not: null }, ...(after ? { id: { gt: after } } : {}) },
    select: { id: true, ownerId: true, typedMeta: true },
    orderBy: { id: 'asc' },
    take,
  });
  const documents = rows
    .filter((row) => Object.keys(readTypedMeta(row.typedMeta).values).length > 0)
    .map((row) => ({ ownerId: row.ownerId, id: row.id }));
  return { documents, next: rows.length === take ? (rows.at(-1)?.id ?? null) : null };
}
