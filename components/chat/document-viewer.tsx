'use client';

import dynamic from 'next/dynamic';
import Link from 'next/link';
import { locatePassage } from './highlight';
import { ChevronIcon } from './icons';
import { PassageText } from './passage-text';

// pdf.js and its worker only ever run in the browser.
const PdfPageViewer = dynamic(() => import('./pdf-page-viewer').then((m) => m.PdfPageViewer), {
  ssr: false,
  loading: () => <p className="text-sm text-slate-500">Loading the PDF viewer…</p>,
});

export interface ViewerUnit {
  ordinal: number;
  page: number | null;
  sheet: string | null;
  text: string;
  /** Set when the text was recognised by OCR (mean word confidence, 0..100). */
  ocrConfidence?: number | null;
}

export interface ViewerChunk {
  id: string;
  text: string;
  charStart: number;
  charEnd: number;
  unitOrdinal: number;
  page: number | null;
  headingPath: string | null;
}

function unitLabel(u: ViewerUnit, index: number): string {
  if (u.page !== null) return `Page ${u.page}`;
  if (u.sheet) return `Sheet ${u.sheet}`;
  return `Part ${index + 1}`;
}

/** The highlighted text of one unit (page/sheet/section): the chunk tinted and the quote marked, text only. */
function UnitText({
  unit,
  chunk,
  quote,
}: {
  unit: ViewerUnit;
  chunk: ViewerChunk | null;
  quote: { text: string; start: number; end: number } | null;
}) {
  const located =
    chunk && chunk.unitOrdinal === unit.ordinal
      ? locatePassage({
          unitText: unit.text,
          chunkText: chunk.text,
          charStart: chunk.charStart,
          charEnd: chunk.charEnd,
          quote: quote?.text ?? null,
          quoteStart: quote?.start ?? null,
          quoteEnd: quote?.end ?? null,
        })
      : { text: unit.text, chunk: null, quote: null };
  return (
    <div
      className="rounded-lg border border-slate-200 bg-white p-5 text-[0.9rem] leading-relaxed shadow-sm"
      data-testid="unit-text"
    >
      {typeof unit.ocrConfidence === 'number' ? (
        <p className="mb-3 text-xs text-slate-500" data-testid="unit-ocr-note">
          Text recognised by OCR ({Math.round(unit.ocrConfidence)}% confidence).
        </p>
      ) : null}
      {located.text.trim() ? (
        <PassageText text={located.text} chunk={located.chunk} quote={located.quote} />
      ) : (
        <p className="text-slate-500">This part has no text.</p>
      )}
    </div>
  );
}

/**
 * The document viewer body: PDFs rendered page by page with pdf.js (the cited span highlighted in the text layer),
 * other formats as their extracted unit text with the span highlighted. Document text is rendered as text only.
 */
export function DocumentViewer({
  documentId,
  isPdf,
  units,
  currentOrdinal,
  initialPage,
  chunk,
  quote,
}: {
  documentId: string;
  isPdf: boolean;
  units: ViewerUnit[];
  currentOrdinal: number | null;
  initialPage: number;
  chunk: ViewerChunk | null;
  quote: { text: string; start: number; end: number } | null;
}) {
  const index = units.findIndex((u) => u.ordinal === currentOrdinal);
  const unit = index >= 0 ? units[index] : undefined;
  const fallback = unit ? <UnitText unit={unit} chunk={chunk} quote={quote} /> : null;

  if (isPdf) {
    return (
      <PdfPageViewer
        documentId={documentId}
        initialPage={initialPage}
        highlightPage={chunk?.page ?? null}
        chunkText={chunk?.text ?? null}
        quote={quote?.text ?? null}
        fallback={fallback}
      />
    );
  }

  if (!unit) return <p className="text-sm text-slate-500">This document has no extracted text to show.</p>;
  const prev = units[index - 1];
  const next = units[index + 1];
  const href = (u: ViewerUnit) =>
    `/documents/${encodeURIComponent(documentId)}/view?unit=${u.ordinal}${chunk ? `&chunk=${encodeURIComponent(chunk.id)}` : ''}`;
  return (
    <div className="space-y-3">
      {units.length > 1 ? (
        <nav aria-label="Parts of the document" className="flex flex-wrap items-center gap-2 text-sm">
          {prev ? (
            <Link
              href={href(prev)}
              className="inline-flex items-center rounded-md border border-slate-300 bg-white px-2 py-1 text-slate-700 hover:bg-slate-50"
              aria-label="Previous part"
            >
              <ChevronIcon className="h-4 w-4 rotate-180" />
            </Link>
          ) : null}
          <span className="text-slate-700">
            {unitLabel(unit, index)}{' '}
            <span className="text-slate-400">
              ({index + 1} of {units.length})
            </span>
          </span>
          {next ? (
            <Link
              href={href(next)}
              className="inline-flex items-center rounded-md border border-slate-300 bg-white px-2 py-1 text-slate-700 hover:bg-slate-50"
              aria-label="Next part"
            >
              <ChevronIcon className="h-4 w-4" />
            </Link>
          ) : null}
          {chunk && chunk.unitOrdinal !== unit.ordinal ? (
            <Link
              href={href(units.find((u) => u.ordinal === chunk.unitOrdinal) ?? unit)}
              className="text-xs font-medium text-brand-700 hover:underline"
            >
              Back to the cited part
            </Link>
          ) : null}
        </nav>
      ) : null}
      {fallback}
    </div>
  );
}
