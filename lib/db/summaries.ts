import { getDb } from '@/lib/db/client';
import type { SummaryRecord } from '@/lib/summaries/search';

export interface SectionSummaryInput {
  ordinal: number;
  label: string;
  chunkStart: number;
  chunkEnd: number;
  pageStart: number | null;
  pageEnd: number | null;
  text: string;
  source: 'model' | 'extractive';
  tokenCount: number;
}

/** Replaces a document's section summaries (re-ingest writes them anew; none for a short document). */
export async function replaceSectionSummaries({
  ownerId,
  documentId,
  summaries,
}: {
  ownerId: string;
  documentId: string;
  summaries: readonly SectionSummaryInput[];
}): Promise<void> {
  const db = getDb();
  await db.sectionSummary.deleteMany({ where: { documentId, ownerId } });
  if (summaries.length === 0) return;
  await db.sectionSummary.createMany({ data: summaries.map((s) => ({ ...s, documentId, ownerId })) });
}

/**
 * The owner's section summaries of INDEXED documents (of `documentIds` only when given), in document order.
 * Another owner's document ids answer as if they had no summaries.
 */
export async function listSectionSummaries(ownerId: string, documentIds?: readonly string[]): Promise<SummaryRecord[]> {
  const rows = await getDb().sectionSummary.findMany({
    where: {
      ownerId,
      document: { ownerId, status: 'INDEXED' },
      ...(documentIds ? { documentId: { in: [...documentIds] } } : {}),
    },
    orderBy: [{ documentId: 'asc' }, { ordinal: 'asc' }],
    select: {
      documentId: true,
      ordinal: true,
      label: true,
      chunkStart: true,
      chunkEnd: true,
      pageStart: true,
      pageEnd: true,
      text: true,
    },
  });
  return rows;
}

/** One of the owner's documents' sections for the API (empty for a short document or another owner's id). */
export async function listDocumentSections(ownerId: string, documentId: string) {
  const rows = await getDb().sectionSummary.findMany({
    where: { ownerId, documentId },
    orderBy: { ordinal: 'asc' },
    select: {
      ordinal: true,
      label: true,
      chunkStart: true,
      chunkEnd: true,
      pageStart: true,
      pageEnd: true,
      text: true,
      source: true,
    },
  });
  return rows.map(({ text, source, ...r }) => ({
    ...r,
    summary: text,
    source: source === 'model' ? ('model' as const) : ('extractive' as const),
  }));
}
