'use client';

import './pdf-text-layer.css';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { ChevronIcon, Spinner } from '@/components/icons';
import { findLoose, type Range, rangeOverPieces, segmentText } from './highlight';

type PdfJs = typeof import('pdfjs-dist');
type PdfDocument = Awaited<ReturnType<PdfJs['getDocument']>['promise']>;

let pdfjsPromise: Promise<PdfJs> | null = null;

/** pdf.js (legacy build, for older browsers) with its worker, loaded once and only in the browser. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= import('pdfjs-dist/legacy/build/pdf.mjs').then((pdfjs) => {
    if (!pdfjs.GlobalWorkerOptions.workerPort) {
      pdfjs.GlobalWorkerOptions.workerPort = new Worker(
        new URL('pdfjs-dist/legacy/build/pdf.worker.min.mjs', import.meta.url),
        { type: 'module' },
      );
    }
    return pdfjs;
  });
  return pdfjsPromise;
}

/**
 * Marks the chunk and the quote inside a rendered text layer. The layer's spans hold the page's text pieces; the
 * needles are matched ignoring whitespace and case, and each touched span is rebuilt from text nodes and mark
 * spans (never from markup: the text is the document's). Returns the first quote mark (else chunk mark), if any.
 */
export function highlightTextLayer(
  divs: HTMLElement[],
  needles: { chunk: string | null; quote: string | null },
): HTMLElement | null {
  const pieces = divs.map((d) => d.textContent ?? '');
  const joined = pieces.join('');
  const chunkRange = needles.chunk ? findLoose(joined, needles.chunk) : null;
  const quoteRange = needles.quote ? findLoose(joined, needles.quote) : null;
  if (!chunkRange && !quoteRange) return null;
  const perPiece = new Map<number, { chunk: Range | null; quote: Range | null }>();
  for (const [key, range] of [
    ['chunk', chunkRange],
    ['quote', quoteRange],
  ] as const) {
    if (!range) continue;
    for (const p of rangeOverPieces(pieces, range)) {
      const entry = perPiece.get(p.piece) ?? { chunk: null, quote: null };
      entry[key] = { start: p.start, end: p.end };
      perPiece.set(p.piece, entry);
    }
  }
  let firstQuote: HTMLElement | null = null;
  let firstChunk: HTMLElement | null = null;
  for (const [index, ranges] of perPiece) {
    const div = divs[index];
    const text = pieces[index] ?? '';
    if (!div) continue;
    const nodes: Node[] = [];
    for (const seg of segmentText(text, ranges.chunk, ranges.quote)) {
      if (seg.level === 0) {
        nodes.push(document.createTextNode(seg.text));
        continue;
      }
      const mark = document.createElement('span');
      mark.className = seg.level === 2 ? 'dc-hl dc-hl-quote' : 'dc-hl dc-hl-chunk';
      mark.textContent = seg.text;
      if (seg.level === 2) mark.dataset.testid = 'pdf-quoted-span';
      if (seg.level === 2 && !firstQuote) firstQuote = mark;
      if (seg.level === 1 && !firstChunk) firstChunk = mark;
      nodes.push(mark);
    }
    div.replaceChildren(...nodes);
  }
  return firstQuote ?? firstChunk;
}

type Status = { kind: 'loading' } | { kind: 'ready'; highlighted: boolean | null } | { kind: 'error'; message: string };

/**
 * One page of a PDF rendered with pdf.js (canvas plus a selectable text layer), the cited chunk and quote
 * highlighted on the cited page where the text layer allows. Pages can be stepped through; `fallback` (the
 * extracted page text) is shown when the PDF cannot be rendered.
 */
export function PdfPageViewer({
  documentId,
  initialPage,
  highlightPage,
  chunkText,
  quote,
  fallback,
}: {
  documentId: string;
  initialPage: number;
  /** The page the highlight belongs to (null: highlight nowhere). */
  highlightPage: number | null;
  chunkText: string | null;
  quote: string | null;
  fallback: ReactNode;
}) {
  const [doc, setDoc] = useState<PdfDocument | null>(null);
  const [page, setPage] = useState(initialPage);
  const [status, setStatus] = useState<Status>({ kind: 'loading' });
  const pageRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const textRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let cancelled = false;
    let loaded: PdfDocument | null = null;
    (async () => {
      try {
        const pdfjs = await loadPdfJs();
        const response = await fetch(`/api/documents/${encodeURIComponent(documentId)}/file`);
        if (!response.ok)
          throw new Error(
            response.status === 404
              ? 'The file is no longer available.'
              : `The file could not be loaded (${response.status}).`,
          );
        const data = new Uint8Array(await response.arrayBuffer());
        loaded = await pdfjs.getDocument({ data, isEvalSupported: false, enableXfa: false, stopAtErrors: false })
          .promise;
        if (cancelled) {
          void loaded.destroy();
          return;
        }
        setDoc(loaded);
      } catch (error) {
        if (!cancelled)
          setStatus({
            kind: 'error',
            message: error instanceof Error ? error.message : 'The PDF could not be rendered.',
          });
      }
    })();
    return () => {
      cancelled = true;
      if (loaded) void loaded.destroy();
    };
  }, [documentId]);

  useEffect(() => {
    if (!doc) return;
    const container = pageRef.current;
    const canvas = canvasRef.current;
    const textHost = textRef.current;
    if (!container || !canvas || !textHost) return;
    let cancelled = false;
    let cancelRender: (() => void) | null = null;
    setStatus({ kind: 'loading' });
    (async () => {
      try {
        const pdfjs = await loadPdfJs();
        const number = Math.min(Math.max(1, page), doc.numPages);
        const pdfPage = await doc.getPage(number);
        const base = pdfPage.getViewport({ scale: 1 });
        // Fit the page to the frame's content box (clientWidth includes its padding), down to a phone's width.
        const frame = container.parentElement;
        const pad = frame
          ? Number.parseFloat(getComputedStyle(frame).paddingLeft) +
            Number.parseFloat(getComputedStyle(frame).paddingRight)
          : 0;
        const width = frame ? frame.clientWidth - pad : base.width;
        const scale = Math.min(2, Math.max(0.25, width / base.width));
        const viewport = pdfPage.getViewport({ scale });
        const ratio = window.devicePixelRatio || 1;
        canvas.width = Math.floor(viewport.width * ratio);
        canvas.height = Math.floor(viewport.height * ratio);
        canvas.style.width = `${Math.floor(viewport.width)}px`;
        canvas.style.height = `${Math.floor(viewport.height)}px`;
        container.style.width = `${Math.floor(viewport.width)}px`;
        container.style.height = `${Math.floor(viewport.height)}px`;
        container.style.setProperty('--total-scale-factor', String(scale));
        const task = pdfPage.render({
          canvas,
          viewport,
          ...(ratio !== 1 ? { transform: [ratio, 0, 0, ratio, 0, 0] } : {}),
        });
        cancelRender = () => task.cancel();
        await task.promise;
        if (cancelled) return;
        textHost.replaceChildren();
        const textLayer = new pdfjs.TextLayer({
          textContentSource: pdfPage.streamTextContent(),
          container: textHost,
          viewport,
        });
        await textLayer.render();
        if (cancelled) return;
        let highlighted: boolean | null = null;
        if (highlightPage === number && (chunkText || quote)) {
          const mark = highlightTextLayer(textLayer.textDivs, { chunk: chunkText, quote });
          highlighted = mark !== null;
          mark?.scrollIntoView({ block: 'center' });
        }
        setStatus({ kind: 'ready', highlighted });
      } catch (error) {
        if (cancelled || (error instanceof Error && error.name === 'RenderingCancelledException')) return;
        setStatus({
          kind: 'error',
          message: error instanceof Error ? error.message : 'The page could not be rendered.',
        });
      }
    })();
    return () => {
      cancelled = true;
      cancelRender?.();
    };
  }, [doc, page, highlightPage, chunkText, quote]);

  const go = (next: number) => {
    if (!doc) return;
    const clamped = Math.min(Math.max(1, next), doc.numPages);
    setPage(clamped);
    const url = new URL(window.location.href);
    url.searchParams.set('page', String(clamped));
    window.history.replaceState(null, '', url.toString());
  };

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <button
          type="button"
          onClick={() => go(page - 1)}
          disabled={!doc || page <= 1}
          className="inline-flex items-center rounded-md border border-slate-300 bg-white px-2 py-1 text-slate-700 hover:bg-slate-50 disabled:opacity-40"
          aria-label="Previous page"
        >
          <ChevronIcon className="h-4 w-4 rotate-180" />
        </button>
        <span className="tabular-nums text-slate-700" data-testid="pdf-page-number">
          Page {page}
          {doc ? ` of ${doc.numPages}` : ''}
        </span>
        <button
          type="button"
          onClick={() => go(page + 1)}
          disabled={!doc || page >= doc.numPages}
          className="inline-flex items-center rounded-md border border-slate-300 bg-white px-2 py-1 text-slate-700 hover:bg-slate-50 disabled:opacity-40"
          aria-label="Next page"
        >
          <ChevronIcon className="h-4 w-4" />
        </button>
        {status.kind === 'loading' ? (
          <span className="flex items-center gap-1.5 text-slate-500">
            <Spinner /> Rendering…
          </span>
        ) : null}
        {status.kind === 'ready' && status.highlighted === false ? (
          <span className="text-xs text-amber-700">
            The quoted passage could not be located in this page’s text layer; see the extracted text below.
          </span>
        ) : null}
        {highlightPage !== null && page !== highlightPage ? (
          <button
            type="button"
            onClick={() => go(highlightPage)}
            className="text-xs font-medium text-brand-700 hover:underline"
          >
            Back to the cited page ({highlightPage})
          </button>
        ) : null}
      </div>
      {status.kind === 'error' ? (
        <div className="space-y-3">
          <p className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
            The PDF could not be rendered here ({status.message}).
            {fallback ? ' Its extracted text is shown instead.' : ' Download the original to open it elsewhere.'}
          </p>
          {fallback}
        </div>
      ) : (
        <div className="overflow-x-auto rounded-lg bg-slate-200/60 p-1.5 sm:p-3">
          <div ref={pageRef} className="pdf-page mx-auto bg-white shadow-md" data-testid="pdf-page">
            <canvas ref={canvasRef} className="block" />
            <div ref={textRef} className="textLayer" />
          </div>
        </div>
      )}
      {status.kind === 'ready' && status.highlighted === false ? fallback : null}
    </div>
  );
}
