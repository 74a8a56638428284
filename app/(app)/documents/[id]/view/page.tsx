import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { DocumentViewer, type ViewerChunk } from '@/components/chat/document-viewer';
import { locationLabel } from '@/components/chat/trace-format';
import { requireUserForPage } from '@/lib/auth/session';
import { getChunkViewOrThrow, listDocumentUnits } from '@/lib/db/chunks';
import { findDocument } from '@/lib/db/documents';

export const metadata: Metadata = { title: 'Document' };

type Search = Record<string, string | string[] | undefined>;

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function intParam(value: string | undefined): number | null {
  if (!value || !/^\d{1,7}$/.test(value)) return null;
  return Number(value);
}

export default async function DocumentViewPage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<Search>;
}) {
  const { id } = await params;
  const search = await searchParams;
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) {
    const value = one(v);
    if (value !== undefined) query.set(k, value);
  }
  const user = await requireUserForPage(
    `/documents/${encodeURIComponent(id)}/view${query.size > 0 ? `?${query.toString()}` : ''}`,
  );
  const doc = await findDocument({ ownerId: user.id, id });
  if (!doc) notFound();

  const units = await listDocumentUnits({ ownerId: user.id, documentId: doc.id });
  const chunkId = one(search.chunk);
  let chunk: ViewerChunk | null = null;
  if (chunkId) {
    const view = await getChunkViewOrThrow({ ownerId: user.id, id: chunkId }).catch(() => null);
    if (view && view.documentId === doc.id) {
      chunk = {
        id: view.id,
        text: view.text,
        charStart: view.charStart,
        charEnd: view.charEnd,
        unitOrdinal: view.unitOrdinal,
        page: view.page,
        headingPath: view.headingPath,
      };
    }
  }
  const qs = intParam(one(search.qs));
  const qe = intParam(one(search.qe));
  const quote =
    chunk && qs !== null && qe !== null && qs < qe && qe <= chunk.text.length
      ? { text: chunk.text.slice(qs, qe), start: qs, end: qe }
      : null;

  const requestedPage = intParam(one(search.page));
  const requestedUnit = intParam(one(search.unit));
  const currentOrdinal =
    (requestedUnit !== null && units.some((u) => u.ordinal === requestedUnit) ? requestedUnit : null) ??
    chunk?.unitOrdinal ??
    (requestedPage !== null ? units.find((u) => u.page === requestedPage)?.ordinal : undefined) ??
    units[0]?.ordinal ??
    null;
  const isPdf = doc.mime === 'application/pdf';
  const initialPage = requestedPage ?? chunk?.page ?? 1;
  const where = chunk ? locationLabel({ page: chunk.page, sheet: null, headingPath: chunk.headingPath }) : '';

  return (
    <main className="mx-auto max-w-5xl px-4 py-6 sm:px-6">
      <nav aria-label="Breadcrumb" className="mb-2 text-sm text-slate-500">
        <Link href="/documents" className="hover:text-slate-800 hover:underline">
          Documents
        </Link>{' '}
        / <span className="text-slate-700">{doc.filename}</span>
      </nav>
      <header className="mb-4 flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <h1 className="min-w-0 truncate text-xl font-semibold tracking-tight text-slate-900" title={doc.filename}>
          {doc.filename}
        </h1>
        {doc.status !== 'INDEXED' ? (
          <span className="rounded bg-amber-50 px-2 py-0.5 text-xs text-amber-800">{doc.status.toLowerCase()}</span>
        ) : null}
        {chunk ? (
          <p className="text-sm text-slate-600">
            Cited passage{where ? ` · ${where}` : ''}
            {quote ? (
              <span className="ml-2 rounded bg-amber-200 px-1.5 py-0.5 text-xs text-slate-900">
                quoted span highlighted
              </span>
            ) : null}
          </p>
        ) : null}
      </header>
      <DocumentViewer
        documentId={doc.id}
        isPdf={isPdf}
        units={units}
        currentOrdinal={currentOrdinal}
        initialPage={initialPage}
        chunk={chunk}
        quote={quote}
      />
    </main>
  );
}
