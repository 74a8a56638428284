import clsx from 'clsx';
import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { DocumentViewer, type ViewerChunk } from '@/components/chat/document-viewer';
import { ChunkList } from '@/components/documents/chunk-list';
import { displayTitle } from '@/components/documents/display-title';
import { DocumentDetails } from '@/components/documents/document-details';
import {
  chunkLocation,
  describeIndexed,
  fileKind,
  fileKindLabel,
  formatBytes,
  statusLabel,
  unitNoun,
} from '@/components/documents/document-view';
import { failureAdvice } from '@/components/documents/failure-advice';
import { FileKindTile } from '@/components/documents/file-kind-tile';
import { unitHeaderLines } from '@/components/documents/sheet-table';
import { getSessionUser, requireUserForPage } from '@/lib/auth/session';
import { getChunkViewOrThrow, listDocumentUnits } from '@/lib/db/chunks';
import { findDocumentDetail, listChunkPositions, listUnitChunks, listUnitHeadings } from '@/lib/db/document-view';

/** The browser tab names the document (its owner's only; anyone else gets the generic title). */
export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  const { id } = await params;
  const user = await getSessionUser();
  const doc = user ? await findDocumentDetail({ ownerId: user.id, id }) : null;
  return { title: doc ? displayTitle({ filename: doc.filename, title: doc.metadata.title }) : 'Document' };
}

const CHUNKS_PER_PAGE = 25;

type Search = Record<string, string | string[] | undefined>;
type Tab = 'original' | 'text' | 'chunks';

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function intParam(value: string | undefined): number | null {
  if (!value || !/^\d{1,7}$/.test(value)) return null;
  return Number(value);
}

function DownloadIcon({ className }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      className={className}
      aria-hidden="true"
    >
      <path d="M10 3v10m0 0-4-4m4 4 4-4M4 16h12" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}

/**
 * /documents/:id/view – one document: the original (PDF pages via pdf.js), its extracted text by page, sheet or
 * section, its chunks with their positions, its details and processing record, and a download of the file.
 * Deep links: ?page=4&chunk=<id>&qs=&qe= (what citations open), ?tab=text&unit=2, ?tab=chunks&cpage=3.
 */
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
  const doc = await findDocumentDetail({ ownerId: user.id, id });
  if (!doc) notFound();

  const [storedUnits, headings] = await Promise.all([
    listDocumentUnits({ ownerId: user.id, documentId: doc.id }),
    listUnitHeadings({ ownerId: user.id, documentId: doc.id }),
  ]);
  const units = storedUnits.map((u) => ({ ...u, heading: headings.get(u.ordinal) ?? null }));
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
        sheet: view.sheet,
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

  const isPdf = doc.mime === 'application/pdf';
  const isImage = doc.mime.startsWith('image/');
  const hasOriginal = isPdf || isImage;
  const requestedTab = one(search.tab);
  const tab: Tab =
    requestedTab === 'chunks' || requestedTab === 'text' || (requestedTab === 'original' && hasOriginal)
      ? requestedTab
      : hasOriginal && (isPdf || !chunk)
        ? 'original'
        : 'text';

  const requestedPage = intParam(one(search.page));
  const requestedUnit = intParam(one(search.unit));
  const currentOrdinal =
    (requestedUnit !== null && units.some((u) => u.ordinal === requestedUnit) ? requestedUnit : null) ??
    chunk?.unitOrdinal ??
    (requestedPage !== null ? units.find((u) => u.page === requestedPage)?.ordinal : undefined) ??
    units[0]?.ordinal ??
    null;
  const currentUnit = units.find((u) => u.ordinal === currentOrdinal);
  const initialPage = requestedPage ?? chunk?.page ?? 1;
  const headerLines =
    currentUnit?.sheet != null && tab !== 'chunks'
      ? unitHeaderLines(
          currentUnit.text,
          await listUnitChunks({ ownerId: user.id, documentId: doc.id, unitOrdinal: currentUnit.ordinal }),
        )
      : null;

  const chunkPage = Math.max(0, (intParam(one(search.cpage)) ?? 1) - 1);
  const chunkList =
    tab === 'chunks'
      ? await listChunkPositions({
          ownerId: user.id,
          documentId: doc.id,
          skip: chunkPage * CHUNKS_PER_PAGE,
          take: CHUNKS_PER_PAGE,
        })
      : null;

  const base = `/documents/${encodeURIComponent(doc.id)}/view`;
  const citedParams = chunk
    ? `&chunk=${encodeURIComponent(chunk.id)}${quote ? `&qs=${quote.start}&qe=${quote.end}` : ''}`
    : '';
  const tabHref = (t: Tab) =>
    t === 'chunks'
      ? `${base}?tab=chunks${citedParams}`
      : t === 'original'
        ? `${base}?tab=original${chunk?.page != null ? `&page=${chunk.page}` : ''}${citedParams}`
        : `${base}?tab=text${currentOrdinal !== null ? `&unit=${currentOrdinal}` : ''}${citedParams}`;

  const name = displayTitle({ filename: doc.filename, title: doc.metadata.title });
  const kind = fileKind(doc.mime, doc.filename);
  const noun = unitNoun(doc.mime);
  const summary = doc.status === 'INDEXED' ? describeIndexed(doc) : statusLabel(doc.status);
  const advice = doc.status === 'FAILED' ? failureAdvice(doc) : null;
  const tabs: { id: Tab; label: string }[] = [
    ...(hasOriginal ? [{ id: 'original' as const, label: 'Original' }] : []),
    { id: 'text', label: hasOriginal ? 'Text' : `${noun.charAt(0).toUpperCase()}${noun.slice(1)}s` },
    { id: 'chunks', label: `Chunks${doc.chunkCount ? ` (${doc.chunkCount.toLocaleString('en-US')})` : ''}` },
  ];

  return (
    <main className="mx-auto max-w-7xl px-4 py-6 sm:px-6">
      <nav aria-label="Breadcrumb" className="mb-3 flex min-w-0 items-center gap-1.5 text-sm text-slate-500">
        <Link href="/documents" className="flex-none hover:text-slate-800 hover:underline">
          Documents
        </Link>
        <span aria-hidden="true">/</span>
        <span className="min-w-0 truncate text-slate-700" title={doc.filename}>
          <bdi>{doc.filename}</bdi>
        </span>
      </nav>

      <header className="mb-5 flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 items-start gap-3">
          <FileKindTile kind={kind} />
          <div className="min-w-0">
            <h1
              className="text-xl font-semibold tracking-tight break-words text-slate-900 sm:text-2xl"
              data-testid="document-view-title"
            >
              <bdi>{name}</bdi>
            </h1>
            <p className="mt-0.5 flex flex-wrap gap-x-2 text-sm text-slate-500">
              {name !== doc.filename ? (
                <>
                  <span className="min-w-0 break-all">
                    <bdi>{doc.filename}</bdi>
                  </span>
                  <span aria-hidden="true">·</span>
                </>
              ) : null}
              <span>{fileKindLabel(kind)}</span>
              <span aria-hidden="true">·</span>
              <span className="tabular-nums">{formatBytes(doc.size)}</span>
              <span aria-hidden="true">·</span>
              <span
                data-testid="document-view-summary"
                className={clsx(doc.status === 'FAILED' && 'text-red-700', doc.status !== 'INDEXED' && 'font-medium')}
              >
                {summary}
              </span>
            </p>
          </div>
        </div>
        <a
          href={`/api/documents/${encodeURIComponent(doc.id)}/file`}
          download={doc.filename}
          className="inline-flex flex-none items-center justify-center gap-1.5 self-start rounded-md border border-slate-300 bg-white px-3.5 py-2 text-sm font-medium text-slate-800 shadow-sm hover:bg-slate-50"
          data-testid="download-original"
        >
          <DownloadIcon className="h-4 w-4" />
          Download original
        </a>
      </header>

      {advice ? (
        <div
          role="status"
          className="mb-5 rounded-xl border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900"
          data-testid="document-view-failure"
        >
          <p className="font-medium">This document could not be indexed: {doc.error ?? 'unknown reason'}.</p>
          <p className="mt-1 text-red-800">
            {advice.retry ? (
              <>
                {advice.advice} Retry from the{' '}
                <Link href="/documents" className="underline">
                  Documents page
                </Link>
                .
              </>
            ) : (
              <>Retrying will not help. {advice.advice}</>
            )}
          </p>
        </div>
      ) : null}

      {chunk ? (
        <p
          className="mb-4 rounded-lg bg-brand-50 px-3 py-2 text-sm text-brand-900 ring-1 ring-brand-100"
          data-testid="cited-passage-note"
        >
          Showing the cited passage · {chunkLocation({ ...chunk, rowStart: null, rowEnd: null })}
          {quote ? (
            <span className="ml-2 rounded bg-amber-200 px-1.5 py-0.5 text-xs text-slate-900">
              quoted span highlighted
            </span>
          ) : null}
        </p>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_21rem]">
        <section aria-label="Document content" className="min-w-0">
          <nav aria-label="Views" className="mb-4 flex gap-1 overflow-x-auto border-b border-slate-200">
            {tabs.map((t) => (
              <Link
                key={t.id}
                href={tabHref(t.id)}
                aria-current={t.id === tab ? 'page' : undefined}
                data-testid={`view-tab-${t.id}`}
                className={clsx(
                  '-mb-px flex-none border-b-2 px-3 py-2 text-sm font-medium whitespace-nowrap',
                  t.id === tab
                    ? 'border-brand-600 text-brand-700'
                    : 'border-transparent text-slate-500 hover:border-slate-300 hover:text-slate-800',
                )}
              >
                {t.label}
              </Link>
            ))}
          </nav>
          {tab === 'chunks' && chunkList ? (
            <ChunkList
              chunks={chunkList.chunks}
              total={chunkList.total}
              from={chunkPage * CHUNKS_PER_PAGE}
              pageSize={CHUNKS_PER_PAGE}
              citedId={chunk?.id ?? null}
              chunkHref={(c) =>
                isPdf && c.page !== null
                  ? `${base}?tab=original&page=${c.page}&chunk=${encodeURIComponent(c.id)}`
                  : `${base}?tab=text&unit=${c.unitOrdinal}&chunk=${encodeURIComponent(c.id)}`
              }
              pageHref={(p) => `${base}?tab=chunks&cpage=${p + 1}${citedParams}`}
            />
          ) : units.length === 0 && tab === 'text' ? (
            <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm text-slate-500">
              {doc.status === 'INDEXED'
                ? 'This document has no extracted text to show.'
                : doc.status === 'FAILED'
                  ? 'No text was extracted from this file.'
                  : 'The text appears here once processing has finished.'}
            </p>
          ) : (
            <DocumentViewer
              documentId={doc.id}
              mode={tab === 'original' ? 'original' : 'text'}
              units={units}
              currentOrdinal={currentOrdinal}
              initialPage={initialPage}
              chunk={chunk}
              quote={quote}
              headerLines={headerLines}
              isImage={isImage}
              alt={name}
            />
          )}
        </section>
        <aside aria-label="About this document" className="min-w-0">
          <DocumentDetails doc={doc} />
        </aside>
      </div>
    </main>
  );
}
