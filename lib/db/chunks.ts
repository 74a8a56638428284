import { insertRowsInBatches } from '@/lib/db/bulk-insert';
import { getDb } from '@/lib/db/client';
import { joinPageParts, splitPageText } from '@/lib/db/page-parts';
import { AppError } from '@/lib/errors';
import type { IngestChunk, ParsedUnit } from '@/lib/ingest/types';
import { isUuid } from '@/lib/validation/ids';

export interface ChunkView {
  id: string;
  documentId: string;
  filename: string;
  title: string | null;
  mime: string;
  page: number | null;
  sheet: string | null;
  headingPath: string | null;
  index: number;
  text: string;
  charStart: number;
  charEnd: number;
  unitOrdinal: number;
  /** The whole page/sheet/section text the chunk lies in (for highlighting in context). */
  unitText: string;
  /** Set when the text was recognised by OCR: mean word confidence, 0..100. */
  ocrConfidence: number | null;
}

/** A chunk of one of the owner's INDEXED documents with its surrounding text; others answer as not found. */
export async function getChunkViewOrThrow({ ownerId, id }: { ownerId: string; id: string }): Promise<ChunkView> {
  const notFound = new AppError('not_found:chunk', 'This passage is no longer available.');
  if (!isUuid(id)) throw notFound;
  const db = getDb();
  const chunk = await db.chunk.findFirst({
    where: { id, ownerId, document: { ownerId, status: 'INDEXED' } },
    select: {
      id: true,
      documentId: true,
      page: true,
      sheet: true,
      headingPath: true,
      index: true,
      text: true,
      charStart: true,
      charEnd: true,
      unitOrdinal: true,
      ocrConfidence: true,
      document: { select: { filename: true, title: true, mime: true } },
    },
  });
  if (!chunk) throw notFound;
  const parts = await db.documentPage.findMany({
    where: { documentId: chunk.documentId, ownerId, ordinal: chunk.unitOrdinal },
    orderBy: { part: 'asc' },
    select: { text: true },
  });
  const unit = parts.length > 0 ? { text: parts.map((p) => p.text).join('') } : null;
  return {
    id: chunk.id,
    documentId: chunk.documentId,
    filename: chunk.document.filename,
    title: chunk.document.title,
    mime: chunk.document.mime,
    page: chunk.page,
    sheet: chunk.sheet,
    headingPath: chunk.headingPath,
    index: chunk.index,
    text: chunk.text,
    charStart: chunk.charStart,
    charEnd: chunk.charEnd,
    unitOrdinal: chunk.unitOrdinal,
    unitText: unit?.text ?? chunk.text,
    ocrConfidence: chunk.ocrConfidence,
  };
}

/** Units (pages/sheets/sections) of one of the owner's documents, for the document viewer. */
export async function listDocumentUnits({ ownerId, documentId }: { ownerId: string; documentId: string }) {
  if (!isUuid(documentId)) throw new AppError('not_found:document', 'Document not found.');
  const rows = await getDb().documentPage.findMany({
    where: { documentId, ownerId },
    orderBy: [{ ordinal: 'asc' }, { part: 'asc' }],
    select: { ordinal: true, page: true, sheet: true, text: true, ocrConfidence: true },
  });
  return joinPageParts(rows);
}

/** Rows per INSERT: one statement stays short (a few ms), so the event loop gets a turn between statements. */
export const WRITE_BATCH = 200;

export type StoredPageInput = Pick<ParsedUnit, 'ordinal' | 'page' | 'sheet' | 'text' | 'ocrConfidence'>;

export type StoredChunkInput = Pick<
  IngestChunk,
  | 'index'
  | 'text'
  | 'page'
  | 'sheet'
  | 'rowStart'
  | 'rowEnd'
  | 'headingPath'
  | 'unitOrdinal'
  | 'charStart'
  | 'charEnd'
  | 'tokenCount'
  | 'ocrConfidence'
>;

/**
 * Replaces a document's stored pages and chunks (the relational source of truth). Used by the ingest worker for
 * the document it claimed; `ownerId` is the document's owner, written onto every row.
 *
 * Not one transaction: ten thousand rows in one would hold SQLite's single connection (every other request's
 * query runs on it meanwhile, inside that transaction) and block the event loop for seconds. Instead, old rows
 * are deleted, then new rows go in multi-row INSERTs of at most WRITE_BATCH rows (lib/db/bulk-insert.ts), yielding to
 * the event loop between statements. That is safe because nothing reads a document's chunks before it is INDEXED, and a job that stops
 * half-way either fails (markJobFailed drops its rows) or runs again (which starts by deleting them). Resolves with
 * the new chunks' ids and indexes (what `listChunkIds` would read back).
 */
export async function replaceDocumentPagesAndChunks({
  documentId,
  ownerId,
  pages,
  chunks,
}: {
  documentId: string;
  ownerId: string;
  pages: readonly StoredPageInput[];
  chunks: readonly StoredChunkInput[];
}): Promise<{ id: string; index: number }[]> {
  const db = getDb();
  await db.chunk.deleteMany({ where: { documentId } });
  await db.documentPage.deleteMany({ where: { documentId } });
  await insertRowsInBatches({
    table: 'DocumentPage',
    columns: ['documentId', 'ownerId', 'ordinal', 'part', 'page', 'sheet', 'text', 'ocrConfidence'],
    rows: pages.flatMap((u) =>
      splitPageText(u.text).map((text, part) => [
        documentId,
        ownerId,
        u.ordinal,
        part,
        u.page,
        u.sheet,
        text,
        u.ocrConfidence ?? null,
      ]),
    ),
    batchRows: WRITE_BATCH,
  });
  const createdAt = new Date();
  const ids = await insertRowsInBatches({
    table: 'Chunk',
    columns: [
      'documentId',
      'ownerId',
      'index',
      'text',
      'page',
      'sheet',
      'rowStart',
      'rowEnd',
      'headingPath',
      'unitOrdinal',
      'charStart',
      'charEnd',
      'tokenCount',
      'ocrConfidence',
      'createdAt',
    ],
    rows: chunks.map((c) => [
      documentId,
      ownerId,
      c.index,
      c.text,
      c.page,
      c.sheet,
      c.rowStart,
      c.rowEnd,
      c.headingPath,
      c.unitOrdinal,
      c.charStart,
      c.charEnd,
      c.tokenCount,
      c.ocrConfidence ?? null,
      createdAt,
    ]),
    batchRows: WRITE_BATCH,
  });
  return chunks.map((c, i) => ({ id: ids[i] ?? '', index: c.index }));
}

/** The ids of a document's stored chunks in order (for the worker that indexes or back-fills it). */
export async function listChunkIds({
  ownerId,
  documentId,
}: {
  ownerId: string;
  documentId: string;
}): Promise<{ id: string; index: number }[]> {
  return getDb().chunk.findMany({
    where: { documentId, ownerId },
    orderBy: { index: 'asc' },
    select: { id: true, index: true },
  });
}
