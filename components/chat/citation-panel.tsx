'use client';

import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { displayTitle } from '@/components/documents/display-title';
import { EvidenceText } from '@/components/documents/evidence-text';
import { sheetHeaderLines, sheetQuoteTable } from '@/components/documents/sheet-table';
import { SheetTableView } from '@/components/documents/sheet-table-view';
import { ExternalIcon, Spinner, XIcon } from '@/components/icons';
import type { AgentCitation } from '@/lib/agent/types';
import { fetchJson } from '@/lib/client/fetch-json';
import type { ChunkView } from '@/lib/db/chunks';
import { AppError } from '@/lib/errors';
import { locatePassage, locateQuoteInChunk } from './highlight';
import { InstructionLikeNote } from './instruction-like-note';
import { locationLabel } from './trace-format';
import { viewerHref } from './viewer-href';

type LoadState = { kind: 'loading' } | { kind: 'ready'; chunk: ChunkView } | { kind: 'missing'; message: string };

/**
 * The side panel for a clicked [n]: the document, its location, the quoted span highlighted inside the chunk and
 * the chunk inside its page/sheet/section text (fetched from /api/chunks/:id), and a link to the document viewer.
 */
export function CitationPanel({ citation, onClose }: { citation: AgentCitation; onClose: () => void }) {
  const [state, setState] = useState<LoadState>({ kind: 'loading' });
  const closeRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let cancelled = false;
    setState({ kind: 'loading' });
    fetchJson<{ chunk: ChunkView }>(`/api/chunks/${encodeURIComponent(citation.chunkId)}`)
      .then(({ chunk }) => {
        if (!cancelled) setState({ kind: 'ready', chunk });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        const message =
          error instanceof AppError && error.status === 404
            ? 'This passage is no longer available (its document was deleted or re-indexed).'
            : 'The passage could not be loaded.';
        setState({ kind: 'missing', message });
      });
    return () => {
      cancelled = true;
    };
  }, [citation.chunkId]);

  useEffect(() => {
    closeRef.current?.focus({ preventScroll: true });
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const name = displayTitle(citation);
  const loc = locationLabel(citation);
  const where = loc && loc !== name ? loc : '';
  const chunk = state.kind === 'ready' ? state.chunk : null;
  // a spreadsheet chunk is shown alone, as a table with its header (its sheet may have thousands of rows)
  const headerLines = chunk?.sheet ? sheetHeaderLines(chunk) : null;
  const passage = chunk
    ? headerLines !== null
      ? {
          text: chunk.text,
          chunk: null,
          quote: locateQuoteInChunk(chunk.text, citation.quote || null, citation.quoteStart, citation.quoteEnd),
        }
      : locatePassage({
          unitText: chunk.unitText,
          chunkText: chunk.text,
          charStart: chunk.charStart,
          charEnd: chunk.charEnd,
          quote: citation.quote || null,
          quoteStart: citation.quoteStart,
          quoteEnd: citation.quoteEnd,
        })
    : null;

  // a quote of spreadsheet rows is shown as those rows under the sheet's column header
  const quotedTable = sheetQuoteTable(passage && headerLines !== null ? passage : null, headerLines);

  return (
    <aside
      aria-label={`Source ${citation.n}`}
      className="fixed inset-y-0 right-0 z-40 flex w-full max-w-md flex-col border-l border-slate-200 bg-white shadow-xl lg:static lg:z-auto lg:w-[26rem] lg:max-w-none lg:shadow-none"
      data-testid="citation-panel"
    >
      <header className="flex items-start gap-3 border-b border-slate-200 px-4 py-3">
        <span className="mt-0.5 rounded bg-brand-50 px-1.5 font-mono text-sm font-semibold text-brand-700 ring-1 ring-brand-200">
          [{citation.n}]
        </span>
        <div className="min-w-0 flex-1">
          <h2 className="truncate text-sm font-semibold text-slate-900" title={name}>
            {name}
          </h2>
          <p className="truncate text-xs text-slate-500" data-testid="citation-location">
            {[name !== citation.filename ? citation.filename : null, where].filter(Boolean).join(' · ')}
          </p>
        </div>
        <button
          ref={closeRef}
          type="button"
          onClick={onClose}
          className="rounded p-1 text-slate-400 hover:bg-slate-100 hover:text-slate-700"
          aria-label="Close source"
        >
          <XIcon />
        </button>
      </header>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-4">
        {citation.instructionLike ? <InstructionLikeNote /> : null}
        {citation.quote ? (
          <figure className="mb-4">
            <figcaption className="mb-1 text-[0.7rem] font-semibold uppercase tracking-wide text-slate-400">
              Quoted
            </figcaption>
            {quotedTable ? (
              <div className="border-l-4 border-amber-300 pl-3" data-testid="quoted-table">
                <SheetTableView table={quotedTable} sheet={chunk?.sheet ?? null} compact />
              </div>
            ) : (
              <blockquote className="whitespace-pre-wrap break-words border-l-4 border-amber-300 pl-3 text-sm text-slate-800">
                {citation.quote}
              </blockquote>
            )}
          </figure>
        ) : null}
        <p className="mb-1 text-[0.7rem] font-semibold uppercase tracking-wide text-slate-400">
          {chunk ? `In context${where ? ` (${where})` : ''}` : 'Passage'}
        </p>
        {state.kind === 'loading' ? (
          <p className="flex items-center gap-2 text-sm text-slate-500">
            <Spinner /> Loading the passage…
          </p>
        ) : null}
        {state.kind === 'missing' ? (
          <div className="space-y-2">
            <p className="rounded bg-slate-100 px-3 py-2 text-sm text-slate-600">{state.message}</p>
            {citation.snippet ? (
              <p className="whitespace-pre-wrap break-words text-sm text-slate-700">{citation.snippet}</p>
            ) : null}
          </div>
        ) : null}
        {passage ? (
          <div
            className="rounded-md bg-slate-50 p-3 text-[0.85rem] leading-relaxed ring-1 ring-slate-200"
            data-testid="source-text"
          >
            <EvidenceText
              text={passage.text}
              sheet={chunk?.sheet ?? null}
              headerLines={headerLines}
              chunk={passage.chunk}
              quote={passage.quote}
              compact
            />
          </div>
        ) : null}
        {chunk && chunk.ocrConfidence !== null ? (
          <p className="mt-2 text-xs text-slate-500" data-testid="ocr-note">
            Recognised by OCR from a scan ({Math.round(chunk.ocrConfidence)}% confidence): the wording may differ from
            the original.
          </p>
        ) : null}
      </div>
      <footer className="border-t border-slate-200 px-4 py-3">
        <Link
          href={viewerHref(citation)}
          target="_blank"
          className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700 hover:underline"
          data-testid="open-document"
        >
          <ExternalIcon className="h-3.5 w-3.5" />
          {citation.page !== null ? `Open document at page ${citation.page}` : 'Open document'}
        </Link>
      </footer>
    </aside>
  );
}
