import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { containsPattern } from '@/lib/db/like';
import { AppError } from '@/lib/errors';

/** Document metadata the user edits; stored as JSON and used by search filters. */
export const documentMetadataSchema = z.object({
  title: z.string().trim().max(300).nullable().default(null),
  documentDate: z.iso.date().nullable().default(null),
  tags: z.array(z.string().trim().min(1).max(60)).max(50).default([]),
  fields: z.record(z.string().trim().min(1).max(60), z.string().max(500)).default({}),
});
export type DocumentMetadata = z.infer<typeof documentMetadataSchema>;

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
  metadata: unknown;
  embeddingModel: string | null;
  vectorsPending: boolean;
  createdAt: Date;
  updatedAt: Date;
  indexedAt: Date | null;
};

/** Parses stored metadata JSON; anything malformed reads as empty metadata rather than failing the page. */
export function readMetadata(value: unknown): DocumentMetadata {
  const parsed = documentMetadataSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : documentMetadataSchema.parse({});
}

function toSummary(row: SummaryRow): DocumentSummary {
  return {
    ...row,
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

export async function countIndexedDocuments({ ownerId }: { ownerId: string }): Promise<number> {
  return getDb().document.count({ where: { ownerId, status: 'INDEXED' } });
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

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}
