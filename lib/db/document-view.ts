import { getDb } from '@/lib/db/client';
import { type DocumentSummary, findDocument } from '@/lib/db/documents';
import { isUuid } from '@/lib/validation/ids';

/** A document as its view page shows it: the summary plus the processing record the data model keeps. */
export interface DocumentDetail extends DocumentSummary {
  /** The title found in the file's own metadata at ingestion (the user's title is metadata.title). */
  extractedTitle: string | null;
  /** How many times a worker has claimed this document. */
  attempts: number;
  /** A waiting document is not picked up again before this time. */
  retryAt: string | null;
  cancelRequested: boolean;
}

/** One of the owner's documents with its processing record, or null; another owner's id answers like a missing one. */
export async function findDocumentDetail({
  ownerId,
  id,
}: {
  ownerId: string;
  id: string;
}): Promise<DocumentDetail | null> {
  const summary = await findDocument({ ownerId, id });
  if (!summary) return null;
  const row = await getDb().document.findFirst({
    where: { id: summary.id, ownerId },
    select: { title: true, attempts: true, retryAt: true, cancelRequested: true },
  });
  if (!row) return null;
  return {
    ...summary,
    extractedTitle: row.title,
    attempts: row.attempts,
    retryAt: row.retryAt ? row.retryAt.toISOString() : null,
    cancelRequested: row.cancelRequested,
  };
}

/** A chunk with its position in the document (no vectors, nothing of other documents). */
export interface ChunkPosition {
  id: string;
  index: number;
  text: string;
  unitOrdinal: number;
  page: number | null;
  sheet: string | null;
  rowStart: number | null;
  rowEnd: number | null;
  headingPath: string | null;
  charStart: number;
  charEnd: number;
  tokenCount: number;
}

const chunkSelect = {
  id: true,
  index: true,
  text: true,
  unitOrdinal: true,
  page: true,
  sheet: true,
  rowStart: true,
  rowEnd: true,
  headingPath: true,
  charStart: true,
  charEnd: true,
  tokenCount: true,
} as const;

/** One page of the chunks of one of the owner's documents, in document order, with the total count. */
export async function listChunkPositions({
  ownerId,
  documentId,
  skip,
  take,
}: {
  ownerId: string;
  documentId: string;
  skip: number;
  take: number;
}): Promise<{ total: number; chunks: ChunkPosition[] }> {
  if (!isUuid(documentId)) return { total: 0, chunks: [] };
  const db = getDb();
  const where = { documentId, ownerId };
  const [total, chunks] = await Promise.all([
    db.chunk.count({ where }),
    db.chunk.findMany({
      where,
      orderBy: { index: 'asc' },
      skip: Math.max(0, skip),
      take: Math.min(200, Math.max(1, take)),
      select: chunkSelect,
    }),
  ]);
  return { total, chunks };
}

/** The chunks of one unit (page, sheet or section) of one of the owner's documents, in order. */
export async function listUnitChunks({
  ownerId,
  documentId,
  unitOrdinal,
}: {
  ownerId: string;
  documentId: string;
  unitOrdinal: number;
}): Promise<ChunkPosition[]> {
  if (!isUuid(documentId)) return [];
  return getDb().chunk.findMany({
    where: { documentId, ownerId, unitOrdinal },
    orderBy: { index: 'asc' },
    take: 2000,
    select: chunkSelect,
  });
}

/** The heading path each unit starts under (from its first chunk), for naming sections in the viewer. */
export async function listUnitHeadings({
  ownerId,
  documentId,
}: {
  ownerId: string;
  documentId: string;
}): Promise<Map<number, string>> {
  if (!isUuid(documentId)) return new Map();
  const rows = await getDb().chunk.findMany({
    where: { documentId, ownerId, headingPath: { not: null } },
    orderBy: { index: 'asc' },
    distinct: ['unitOrdinal'],
    select: { unitOrdinal: true, headingPath: true },
    take: 5000,
  });
  const headings = new Map<number, string>();
  for (const r of rows) if (r.headingPath) headings.set(r.unitOrdinal, r.headingPath);
  return headings;
}
