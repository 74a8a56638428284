import { getDb } from '@/lib/db/client';

export interface VisualPageInput {
  page: number;
  imageCount: number;
  textChars: number;
  reason: string;
}

export interface VisualPageFlag extends VisualPageInput {
  documentId: string;
}

/** Replaces a document's visual-page flags (re-ingest writes them anew). */
export async function replaceVisualPages({
  ownerId,
  documentId,
  pages,
}: {
  ownerId: string;
  documentId: string;
  pages: readonly VisualPageInput[];
}): Promise<void> {
  const db = getDb();
  await db.visualPage.deleteMany({ where: { documentId, ownerId } });
  if (pages.length === 0) return;
  await db.visualPage.createMany({ data: pages.map((p) => ({ ...p, documentId, ownerId })) });
}

/** Flagged pages of the owner's INDEXED documents among `documentIds`; others' ids answer with nothing. */
export async function listVisualPages(ownerId: string, documentIds: readonly string[]): Promise<VisualPageFlag[]> {
  if (documentIds.length === 0) return [];
  return getDb().visualPage.findMany({
    where: { ownerId, documentId: { in: [...documentIds] }, document: { ownerId, status: 'INDEXED' } },
    orderBy: [{ documentId: 'asc' }, { page: 'asc' }],
    select: { documentId: true, page: true, imageCount: true, textChars: true, reason: true },
  });
}
