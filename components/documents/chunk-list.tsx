import clsx from 'clsx';
import Link from 'next/link';
import type { ChunkPosition } from '@/lib/db/document-view';
import { chunkLocation } from './document-view';
import { EvidenceText } from './evidence-text';

/**
 * The chunks of a document as the index holds them: number, position (page, sheet and rows, heading path,
 * character offsets in their unit), size, and their text (sheet chunks as tables), each linking to its place in
 * the document. One page of them; `pageHref` builds the links to the other pages.
 */
export function ChunkList({
  chunks,
  total,
  from,
  pageSize,
  citedId,
  chunkHref,
  pageHref,
}: {
  chunks: readonly ChunkPosition[];
  total: number;
  /** 0-based index of the first chunk shown. */
  from: number;
  pageSize: number;
  citedId: string | null;
  chunkHref: (chunk: ChunkPosition) => string;
  pageHref: (page: number) => string;
}) {
  if (total === 0) {
    return <p className="text-sm text-slate-500">This document has no chunks: nothing of it is searchable.</p>;
  }
  const page = Math.floor(from / pageSize);
  const pages = Math.ceil(total / pageSize);
  const pager =
    pages > 1 ? (
      <nav aria-label="Chunk pages" className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
        {page > 0 ? (
          <Link
            href={pageHref(page - 1)}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 hover:bg-slate-50"
          >
            Previous
          </Link>
        ) : null}
        <span className="tabular-nums">
          Chunks {from + 1}–{Math.min(total, from + chunks.length)} of {total}
        </span>
        {page < pages - 1 ? (
          <Link
            href={pageHref(page + 1)}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 hover:bg-slate-50"
          >
            Next
          </Link>
        ) : null}
      </nav>
    ) : null;
  return (
    <div className="flex flex-col gap-3">
      {pager}
      <ol className="flex flex-col gap-3" aria-label="Chunks">
        {chunks.map((c) => {
          const cited = c.id === citedId;
          return (
            <li
              key={c.id}
              id={`chunk-${c.id}`}
              data-testid="chunk-item"
              className={clsx(
                'rounded-lg border bg-white p-3 shadow-sm sm:p-4',
                cited ? 'border-brand-400 ring-2 ring-brand-100' : 'border-slate-200',
              )}
            >
              <div className="mb-2 flex flex-wrap items-baseline gap-x-3 gap-y-1 text-xs text-slate-500">
                <span className="font-mono font-semibold text-slate-700">#{c.index + 1}</span>
                <span className="font-medium text-slate-700" data-testid="chunk-location">
                  {chunkLocation(c)}
                </span>
                <span className="tabular-nums" title="Character offsets in its page, sheet or section">
                  chars {c.charStart.toLocaleString('en-US')}–{c.charEnd.toLocaleString('en-US')}
                </span>
                <span className="tabular-nums">{c.tokenCount.toLocaleString('en-US')} tokens</span>
                {cited ? (
                  <span className="rounded bg-brand-50 px-1.5 py-px font-medium text-brand-700">Cited</span>
                ) : null}
                <Link href={chunkHref(c)} className="ml-auto font-medium text-brand-700 hover:underline">
                  Show in the document
                </Link>
              </div>
              <div className="max-h-72 overflow-y-auto text-[0.85rem] leading-relaxed" data-testid="chunk-text">
                <EvidenceText text={c.text} sheet={c.sheet} chunk={null} quote={null} compact />
              </div>
            </li>
          );
        })}
      </ol>
      {pager}
    </div>
  );
}
