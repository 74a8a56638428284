import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { containsPattern } from '@/lib/db/like';
import { type DocumentMetadata, readMetadata } from '@/lib/domain/document';
import { AppError } from '@/lib/errors';
import { isUuid } from '@/lib/validation/ids';

export type DocumentStatus = 'PENDING' | 'PROCESSING' | 'INDEXED' | 'FAILED';

export interface DocumentSummary {
  id: string;
  filename: string;
  mime: string;
  size: number;
  sha256: string;
  status: DocumentStatus;
  stage: string;
  progress: number;
  error: string | null;
  pageCount: number | null;
  chunkCount: number | null;
  bucketId: string | null;
  /** The e-mail or archive this document came out of, else null. */
  parentId: string | null;
  /** Non-fatal parse problems (e.g. a scanned page OCR could not read with confidence). */
  warnings: string[];
  metadata: DocumentMetadata;
  embeddingModel: string | null;
  vectorsPending: boolean;
  createdAt: string;
  updatedAt: string;
  indexedAt: string | null;
}

const summarySelect = {
  id: true,
  filename: true,
  mime: true,
  size: true,
  sha256: true,
  status: true,
  stage: true,
  progress: true,
  error: true,
  pageCount: true,
  chunkCount: true,
  bucketId: true,
  parentId: true,
  warnings: true,
  metadata: true,
  embeddingModel: true,
  vectorsPending: true,
  createdAt: true,
  updatedAt: true,
  indexedAt: true,
} as const;

type SummaryRow = {
  id: string;
  filename: string;
  mime: string;
  size: number;
  sha256: string;
  status: DocumentStatus;
  stage: string;
  progress: number;
  error: string | null;
  pageCount: number | null;
  chunkCount: number | null;
  bucketId: string | null;
  parentId: string | null;
  warnings: unknown;
  metadata: unknown;
  embeddingModel: string | null;
  vectorsPending: boolean;
  createdAt: Date;
  updatedAt: Date;
  indexedAt: Date | null;
};

const warningsSchema = z.array(z.string()).catch([]);

function toSummary(row: SummaryRow): DocumentSummary {
  return {
    ...row,
    warnings: row.warnings == null ? [] : warningsSchema.parse(row.warnings),
    metadata: readMetadata(row.metadata),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    indexedAt: row.indexedAt ? row.indexedAt.toISOString() : null,
  };
}

export interface DocumentListFilter {
  bucketId?: string | null;
  status?: DocumentStatus;
  name?: string;
}

/** The owner's documents, newest first, optionally filtered by bucket ("none" = no bucket), status and name. */
export async function listDocuments({
  ownerId,
  filter = {},
}: {
  ownerId: string;
  filter?: DocumentListFilter;
}): Promise<DocumentSummary[]> {
  const named = filter.name ? await documentIdsWithNameContaining({ ownerId, name: filter.name }) : null;
  const rows = await getDb().document.findMany({
    where: {
      ownerId,
      ...(filter.bucketId !== undefined ? { bucketId: filter.bucketId } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(named ? { id: { in: named } } : {}),
    },
    orderBy: { createdAt: 'desc' },
    select: summarySelect,
    take: 5000,
  });
  return rows.map(toSummary);
}

const NAME_MATCH_LIMIT = 5000;

/**
 * Ids of the owner's documents whose file name contains `name` literally (`%`, `_` and `\` are not wildcards; see
 * lib/db/like.ts). Case follows the database's LIKE: ASCII case-insensitive on SQLite, case-sensitive on PostgreSQL.
 */
async function documentIdsWithNameContaining({ ownerId, name }: { ownerId: string; name: string }): Promise<string[]> {
  const rows = await getDb().$queryRaw<{ id: string }[]>`
    SELECT "id" FROM "Document"
    WHERE "ownerId" = ${ownerId} AND "filename" LIKE ${containsPattern(name)} ESCAPE '\\'
    ORDER BY "createdAt" DESC
    LIMIT ${NAME_MATCH_LIMIT}`;
  return rows.map((r) => r.id);
}

/** One of the owner's documents, or null; another owner's id answers exactly like a missing one. */
export async function findDocument({ ownerId, id }: { ownerId: string; id: string }): Promise<DocumentSummary | null> {
  if (!isUuid(id)) return null;
  const row = await getDb().document.findFirst({ where: { id, ownerId }, select: summarySelect });
  return row ? toSummary(row) : null;
}

export async function getDocumentOrThrow({ ownerId, id }: { ownerId: string; id: string }): Promise<DocumentSummary> {
  const doc = await findDocument({ ownerId, id });
  if (!doc) throw new AppError('not_found:document', 'Document not found.');
  return doc;
}

/** How many of the owner's documents are queued or being processed. */
export async function countUnfinishedDocuments({ ownerId }: { ownerId: string }): Promise<number> {
  return getDb().document.count({ where: { ownerId, status: { in: ['PENDING', 'PROCESSING'] } } });
}

export interface DocumentOutcome {
  filename: string;
  status: DocumentStatus;
  error: string | null;
  pageCount: number | null;
  chunkCount: number | null;
}

/** Every one of the owner's documents (optionally of one bucket) with how its processing ended; no limit. */
export async function listDocumentOutcomes({
  ownerId,
  bucketId,
}: {
  ownerId: string;
  bucketId?: string | null;
}): Promise<DocumentOutcome[]> {
  return getDb().document.findMany({
    where: { ownerId, ...(bucketId ? { bucketId } : {}) },
    select: { filename: true, status: true, error: true, pageCount: true, chunkCount: true },
  });
}

/** Where the owner's document's file is stored and how to serve it, or null (missing or another owner's). */
export async function findStoredFile({
  ownerId,
  id,
}: {
  ownerId: string;
  id: string;
}): Promise<{ storedName: string; mime: string; filename: string; size: number } | null> {
  if (!isUuid(id)) return null;
  return getDb().document.findFirst({
    where: { id, ownerId },
    select: { storedName: true, mime: true, filename: true, size: true },
  });
}

/** The id of the owner's document with this content hash, or null. */
export async function findDocumentIdBySha256({
  ownerId,
  sha256,
}: {
  ownerId: string;
  sha256: string;
}): Promise<string | null> {
  const row = await getDb().document.findFirst({ where: { ownerId, sha256 }, select: { id: true } });
  return row?.id ?? null;
}

/**
 * Creates a PENDING document (queued for the ingest worker) with empty metadata; returns its id. Throws a
 * unique-violation (see isUniqueViolation) when the owner already has the same content.
 */
export async function createPendingDocument(input: {
  ownerId: string;
  bucketId: string | null;
  filename: string;
  storedName: string;
  mime: string;
  size: number;
  sha256: string;
}): Promise<string> {
  const created = await getDb().document.create({
    data: {
      ...input,
      status: 'PENDING',
      stage: 'queued',
      progress: 0,
      metadata: { title: null, documentDate: null, tags: [], fields: {} },
    },
    select: { id: true },
  });
  return created.id;
}

/** True when the error is the database refusing a duplicate of a unique key. */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'code' in error && (error as { code: unknown }).code === 'P2002'
  );
}

/**
 * Removes the owner's document rows (pages and chunks cascade); returns the stored file name to remove, or null
 * when there is no such document. The running job is asked to stop first (`beforeDelete` runs in between, e.g.
 * to drop its indexed chunks so nothing can cite it).
 */
export async function deleteDocumentRecord(
  { ownerId, id }: { ownerId: string; id: string },
  beforeDelete: () => Promise<void>,
): Promise<{ storedName: string } | null> {
  if (!isUuid(id)) return null;
  const db = getDb();
  const doc = await db.document.findFirst({ where: { id, ownerId }, select: { id: true, storedName: true } });
  if (!doc) return null;
  // Stop a running job first: the worker sees the row vanish and removes anything it indexes afterwards.
  await db.document.updateMany({ where: { id, ownerId }, data: { cancelRequested: true } });
  await beforeDelete();
  await db.document.deleteMany({ where: { id, ownerId } });
  return { storedName: doc.storedName };
}

/** Queues the owner's INDEXED or FAILED document to run through the whole pipeline again. */
export async function requeueDocument({ ownerId, id }: { ownerId: string; id: string }): Promise<void> {
  await getDb().document.updateMany({
    where: { id, ownerId, status: { in: ['INDEXED', 'FAILED'] } },
    data: { status: 'PENDING', stage: 'queued', progress: 0, error: null, attempts: 0, cancelRequested: false },
  });
}

/** Cancels the owner's queued document at once (it ends FAILED and can be retried). */
export async function cancelQueuedDocument({ ownerId, id }: { ownerId: string; id: string }): Promise<void> {
  await getDb().document.updateMany({
    where: { id, ownerId, status: 'PENDING' },
    data: { status: 'FAILED', stage: 'failed', error: 'Cancelled. Retry to process this file again.', progress: 0 },
  });
}

/** Asks the worker processing the owner's document to stop. */
export async function requestDocumentCancel({ ownerId, id }: { ownerId: string; id: string }): Promise<void> {
  await getDb().document.updateMany({ where: { id, ownerId, status: 'PROCESSING' }, data: { cancelRequested: true } });
}

/** Moves the owner's document to a bucket (null = none) and/or replaces its metadata. */
export async function updateDocumentRecord({
  ownerId,
  id,
  bucketId,
  metadata,
}: {
  ownerId: string;
  id: string;
  bucketId?: string | null;
  metadata?: DocumentMetadata;
}): Promise<void> {
  await getDb().document.updateMany({
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
}

export interface OwnerDocumentCounts {
  documents: Record<DocumentStatus, number> & { total: number };
  chunks: number;
}

/** How many documents (by status) and indexed chunks the owner has; the health details show them to their owner. */
export async function countOwnerDocuments({ ownerId }: { ownerId: string }): Promise<OwnerDocumentCounts> {
  const db = getDb();
  const [groups, chunks] = await Promise.all([
    db.document.groupBy({ by: ['status'], where: { ownerId }, _count: { _all: true } }),
    db.chunk.count({ where: { ownerId } }),
  ]);
  const documents = { PENDING: 0, PROCESSING: 0, INDEXED: 0, FAILED: 0, total: 0 };
  for (const group of groups) {
    documents[group.status] = group._count._all;
    documents.total += group._count._all;
  }
  return { documents, chunks };
}
