import '@/lib/ingest/parsers/array-buffer-transfer';
import { getResolvedPDFJS } from 'unpdf';
import type { VisualPageFlag } from '@/lib/ingest/types';

/**
 * Flags the PDF pages worth reading as pictures, at ingest, so the agent knows when visual_interpretation is worth
 * a call: a page that paints raster images or draws many vector paths (figures, charts, diagrams), or one with
 * little text. One operator-list pass per page (pdf.js parses the content stream without rasterising), bounded by
 * FLAG_MAX_PAGES and FLAG_BUDGET_MS; pages past either bound are simply not flagged.
 */

/** A page drawing at least this many path operations holds a drawing (chart, diagram, plot), not just rules. */
export const MIN_VECTOR_PATHS = 60;
/** A page with fewer text characters than this (and something on it) says little in words. */
export const LITTLE_TEXT_CHARS = 300;
const FLAG_MAX_PAGES = 500;
const FLAG_BUDGET_MS = 15_000;

interface PageLike {
  getOperatorList(): Promise<{ fnArray: number[] }>;
  cleanup(): void;
}
interface DocLike {
  numPages: number;
  getPage(n: number): Promise<PageLike>;
}

let ops: { images: Set<number>; path: number } | null = null;

async function operatorCodes(): Promise<{ images: Set<number>; path: number }> {
  if (ops) return ops;
  const { OPS } = await getResolvedPDFJS();
  ops = {
    images: new Set(
      [
        OPS.paintImageXObject,
        OPS.paintInlineImageXObject,
        OPS.paintImageXObjectRepeat,
        OPS.paintInlineImageXObjectGroup,
      ].filter((op): op is number => typeof op === 'number'),
    ),
    path: OPS.constructPath,
  };
  return ops;
}

/** The flag for one page from its counts, or null when the page is plain text. Pure. */
export function classifyPage(counts: { imageCount: number; pathCount: number; textChars: number }): string | null {
  const reasons: string[] = [];
  if (counts.imageCount > 0 || counts.pathCount >= MIN_VECTOR_PATHS) reasons.push('figures');
  const drawsSomething = counts.imageCount > 0 || counts.pathCount > 0;
  if (counts.textChars < LITTLE_TEXT_CHARS && (counts.textChars > 0 || drawsSomething)) reasons.push('little_text');
  return reasons.length > 0 ? reasons.join(',') : null;
}

/** Flags pages of a loaded pdf.js document; `textChars(page)` gives each page's extracted text length. */
export async function flagVisualPages(doc: DocLike, textChars: (page: number) => number): Promise<VisualPageFlag[]> {
  const codes = await operatorCodes();
  const started = performance.now();
  const flags: VisualPageFlag[] = [];
  const last = Math.min(doc.numPages, FLAG_MAX_PAGES);
  for (let n = 1; n <= last && performance.now() - started < FLAG_BUDGET_MS; n++) {
    let imageCount = 0;
    let pathCount = 0;
    try {
      const page = await doc.getPage(n);
      try {
        const list = await page.getOperatorList();
        for (const fn of list.fnArray) {
          if (codes.images.has(fn)) imageCount++;
          else if (fn === codes.path) pathCount++;
        }
      } finally {
        page.cleanup();
      }
    } catch {
      continue; // a page pdf.js cannot list is not flagged
    }
    const chars = textChars(n);
    const reason = classifyPage({ imageCount, pathCount, textChars: chars });
    if (reason) flags.push({ page: n, imageCount, textChars: chars, reason });
  }
  return flags;
}
