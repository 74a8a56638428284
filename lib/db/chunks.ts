import { getDb } from '@/lib/db/client';
import { isUuid } from '@/lib/db/documents';
import { AppError } from '@/lib/errors';

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
  const unit = await db.documentPage.findFirst({
    where: { documentId: chunk.documentId, ownerId, ordinal: chunk.unitOrdinal },
    select: { text: true },
  });
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
  return getDb().documentPage.findMany({
    where: { documentId, ownerId },
    orderBy: { ordinal: 'asc' },
    select: { ordinal: true, page: true, sheet: true, text: true, ocrConfidence: true },
  });
}
