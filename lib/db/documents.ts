import { z } from 'zod';
import { getDb } from '@/lib/db/client';
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

/** Parses stored metadata JSON; anything malformed reads as empty metadata rather than failing the page. */
export function readMetadata(value: unknown): DocumentMetadata {
  const parsed = documentMetadataSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : documentMetadataSchema.parse({});
}

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
  const rows = await getDb().document.findMany({
    where: {
      ownerId,
      ...(filter.bucketId !== undefined ? { bucketId: filter.bucketId } : {}),
      ...(filter.status ? { status: filter.status } : {}),
      ...(filter.name ? { filename: { contains: filter.name } } : {}),
    },
    orderBy: { createdAt: 'desc' },
    select: summarySelect,
    take: 5000,
  });
  return rows.map(toSummary);
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

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID_RE.test(value);
}
