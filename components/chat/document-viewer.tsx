'use client';

import dynamic from 'next/dynamic';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useId } from 'react';
import { EvidenceText } from '@/components/documents/evidence-text';
import { locateSheetChunk } from '@/components/documents/sheet-table';
import { ChevronIcon } from '@/components/icons';
import { locatePassage } from './highlight';

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
  /** The heading the unit starts under (sections), when known. */
  heading?: string | null;
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
  sheet: string | null;
  headingPath: string | null;
}

export function unitLabel(u: Pick<ViewerUnit, 'page' | 'sheet' | 'heading'>, index: number): string {
  if (u.page !== null) return `Page ${u.page}`;
  if (u.sheet) return `Sheet ${u.sheet}`;
  const heading = u.heading?.split(' > ').at(-1)?.trim();
  return heading
    ? `${index + 1}. ${heading.length > 60 ? `${heading.slice(0, 59)}…` : heading}`
    : `Section ${index + 1}`;
}

/**
 * The text of one unit (page/sheet/section), the cited chunk tinted and the quote marked; a sheet as a table with
 * its header row. Text only: document text is never parsed as markup.
 */
function UnitText({
  unit,
  chunk,
  quote,
  headerLines,
}: {
  unit: ViewerUnit;
  chunk: ViewerChunk | null;
  quote: { text: string; start: number; end: number } | null;
  headerLines: number | null;
}) {
  const cited = chunk && chunk.unitOrdinal === unit.ordinal ? chunk : null;
  const sheetPlace =
    cited && unit.sheet !== null
      ? locateSheetChunk({
          unitText: unit.text,
          chunkText: cited.text,
          charStart: cited.charStart,
          charEnd: cited.charEnd,
          quoteStart: quote?.start ?? null,
          quoteEnd: quote?.end ?? null,
        })
      : null;
  const located = sheetPlace
    ? { text: unit.text, chunk: sheetPlace.chunk, quote: sheetPlace.quote }
    : cited
      ? locatePassage({
          unitText: unit.text,
          chunkText: cited.text,
          charStart: cited.charStart,
          charEnd: cited.charEnd,
          quote: quote?.text ?? null,
          quoteStart: quote?.start ?? null,
          quoteEnd: quote?.end ?? null,
        })
      : { text: unit.text, chunk: null, quote: null };
  return (
    <div
      className="rounded-lg border border-slate-200 bg-white p-4 text-[0.9rem] leading-relaxed shadow-sm sm:p-5"
      data-testid="unit-text"
    >
      {typeof unit.ocrConfidence === 'number' ? (
        <p className="mb-3 text-xs text-slate-500" data-testid="unit-ocr-note">
          Text recognised by OCR ({Math.round(unit.ocrConfidence)}% confidence).
        </p>
      ) : null}
      {located.text.trim() ? (
        <EvidenceText
          text={located.text}
          sheet={unit.sheet}
          headerLines={sheetPlace?.headerLines ?? headerLines}
          chunk={located.chunk}
          quote={located.quote}
        />
      ) : (
        <p className="text-slate-500">This part has no text.</p>
      )}
    </div>
  );
}

/** Prev/next and a jump list over the units, as links (the server renders the chosen unit). */
function UnitNav({
  units,
  index,
  href,
  citedOrdinal,
}: {
  units: ViewerUnit[];
  index: number;
  href: (u: ViewerUnit) => string;
  citedOrdinal: number | null;
}) {
  const router = useRouter();
  const pickerId = useId();
  const unit = units[index];
  if (!unit || units.length < 2) return null;
  const prev = units[index - 1];
  const next = units[index + 1];
  const cited = citedOrdinal !== null ? units.find((u) => u.ordinal === citedOrdinal) : undefined;
  const button =
    'inline-flex items-center rounded-md border border-slate-300 bg-white px-2 py-1 text-slate-700 hover:bg-slate-50';
  return (
    <nav aria-label="Parts of the document" className="flex flex-wrap items-center gap-2 text-sm">
      {prev ? (
        <Link href={href(prev)} className={button} aria-label="Previous part">
          <ChevronIcon className="h-4 w-4 rotate-180" />
        </Link>
      ) : (
        <span className={`${button} opacity-40`} aria-hidden="true">
          <ChevronIcon className="h-4 w-4 rotate-180" />
        </span>
      )}
      <label htmlFor={pickerId} className="sr-only">
        Go to part
      </label>
      <select
        id={pickerId}
        value={unit.ordinal}
        onChange={(event) => {
          const target = units.find((u) => u.ordinal === Number(event.target.value));
          if (target) router.push(href(target));
        }}
        className="max-w-[14rem] min-w-0 truncate rounded-md border border-slate-300 bg-white py-1 pr-7 pl-2 text-sm text-slate-700"
      >
        {units.map((u, i) => (
          <option key={u.ordinal} value={u.ordinal}>
            {unitLabel(u, i)}
          </option>
        ))}
      </select>
      <span className="text-slate-400 tabular-nums">
        {index + 1} of {units.length}
      </span>
      {next ? (
        <Link href={href(next)} className={button} aria-label="Next part">
          <ChevronIcon className="h-4 w-4" />
        </Link>
      ) : (
        <span className={`${button} opacity-40`} aria-hidden="true">
          <ChevronIcon className="h-4 w-4" />
        </span>
      )}
      {cited && cited.ordinal !== unit.ordinal ? (
        <Link href={href(cited)} className="text-xs font-medium text-brand-700 hover:underline">
          Back to the cited part
        </Link>
      ) : null}
    </nav>
  );
}

/**
 * The document viewer body. `original`: a PDF rendered page by page with pdf.js (the cited span highlighted in its
 * text layer; the extracted text when rendering fails or the span cannot be found). `text`: the extracted text of
 * one unit at a time (spreadsheets as tables), the cited chunk and quote highlighted.
 */
export function DocumentViewer({
  documentId,
  mode,
  units,
  currentOrdinal,
  initialPage,
  chunk,
  quote,
  headerLines = null,
  isImage = false,
  alt = '',
}: {
  documentId: string;
  mode: 'original' | 'text';
  /** The original is an image (shown as one) rather than a PDF. */
  isImage?: boolean;
  /** The image's text alternative (the document's name). */
  alt?: string;
  units: ViewerUnit[];
  currentOrdinal: number | null;
  initialPage: number;
  chunk: ViewerChunk | null;
  quote: { text: string; start: number; end: number } | null;
  /** Header-block lines of the current sheet unit, when known from its chunks. */
  headerLines?: number | null;
}) {
  const index = units.findIndex((u) => u.ordinal === currentOrdinal);
  const unit = index >= 0 ? units[index] : undefined;
  const fallback = unit ? <UnitText unit={unit} chunk={chunk} quote={quote} headerLines={headerLines} /> : null;

  if (mode === 'original' && isImage) {
    return (
      <div className="overflow-x-auto rounded-lg bg-slate-200/60 p-2 sm:p-3">
        {/* biome-ignore lint/performance/noImgElement: the user's own file, served by the file route, not an optimisable asset */}
        <img
          src={`/api/documents/${encodeURIComponent(documentId)}/file`}
          alt={alt}
          className="mx-auto block h-auto max-w-full bg-white shadow-md"
          data-testid="original-image"
        />
      </div>
    );
  }

  if (mode === 'original') {
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
  const href = (u: ViewerUnit) =>
    `/documents/${encodeURIComponent(documentId)}/view?tab=text&unit=${u.ordinal}${chunk ? `&chunk=${encodeURIComponent(chunk.id)}` : ''}`;
  return (
    <div className="space-y-3">
      <UnitNav units={units} index={index} href={href} citedOrdinal={chunk?.unitOrdinal ?? null} />
      {fallback}
    </div>
  );
}
