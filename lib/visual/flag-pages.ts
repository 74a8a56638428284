import '@/lib/ingest/parsers/array-buffer-transfer';
import { getResolvedPDFJS } from 'unpdf';
import type { VisualPageFlag } from '@/lib/ingest/types';

/**
 * Flags the PDF pages worth reading as pictures, at ingest, so the agent knows when visual_interpretation is worth
 * a call: a page that paints raster images or draws shapes (curves and slanted lines: charts, plots, diagrams), or
 * one with little text. Axis-aligned lines and boxes do not count: they are table rules, form fields and
 * underlines, whose content the text layer already holds. One operator-list pass per page (pdf.js parses the content stream without rasterising), bounded by
 * FLAG_MAX_PAGES and FLAG_BUDGET_MS; pages past either bound are simply not flagged.
 */

/**
 * A page drawing at least this many curve or slanted-line segments holds a drawing (a line or pie chart, a plot, a
 * diagram): one curve or a few diagonal strokes are a rounded corner, a check mark or a signature line.
 */
export const MIN_SHAPED_SEGMENTS = 10;
/** Below this length (points) a segment is a tick, not a stroke that says anything about the page. */
const AXIS_TOLERANCE = 0.5;
/** A page with fewer text characters than this (and something on it) says little in words. */
export const LITTLE_TEXT_CHARS = 300;
const FLAG_MAX_PAGES = 500;
const FLAG_BUDGET_MS = 15_000;

interface PageLike {
  getOperatorList(): Promise<{ fnArray: number[]; argsArray: unknown[] }>;
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

/**
 * Curve and slanted-line segments of one pdf.js `constructPath` operation. pdf.js 5 gives its arguments as
 * `[paintOp, [pathData], minMax]`, pathData a flat list of drawing ops: 0 moveTo x y, 1 lineTo x y,
 * 2 curveTo x1 y1 x2 y2 x y, 3 quadraticCurveTo x1 y1 x y, 4 closePath. Anything else reads as no shapes.
 */
export function shapedSegments(args: unknown): number {
  const data = Array.isArray(args) && Array.isArray(args[1]) ? (args[1][0] as unknown) : null;
  if (!(data instanceof Float32Array) && !Array.isArray(data)) return 0;
  const at = (i: number): number => Number(data[i] ?? 0);
  let shaped = 0;
  let x = 0;
  let y = 0;
  for (let k = 0; k < data.length; ) {
    const op = at(k);
    if (op === 0 || op === 1) {
      const nx = at(k + 1);
      const ny = at(k + 2);
      if (op === 1 && Math.abs(nx - x) > AXIS_TOLERANCE && Math.abs(ny - y) > AXIS_TOLERANCE) shaped++;
      x = nx;
      y = ny;
      k += 3;
    } else if (op === 2) {
      shaped++;
      x = at(k + 5);
      y = at(k + 6);
      k += 7;
    } else if (op === 3) {
      shaped++;
      x = at(k + 3);
      y = at(k + 4);
      k += 5;
    } else k += 1;
  }
  return shaped;
}

/** The flag for one page from its counts, or null when the page is plain text. Pure. */
export function classifyPage(counts: {
  imageCount: number;
  pathCount: number;
  shapedSegments: number;
  textChars: number;
}): string | null {
  const reasons: string[] = [];
  if (counts.imageCount > 0 || counts.shapedSegments >= MIN_SHAPED_SEGMENTS) reasons.push('figures');
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
    let shaped = 0;
    try {
      const page = await doc.getPage(n);
      try {
        const list = await page.getOperatorList();
        for (const [i, fn] of list.fnArray.entries()) {
          if (codes.images.has(fn)) imageCount++;
          else if (fn === codes.path) {
            pathCount++;
            shaped += shapedSegments(list.argsArray[i]);
          }
        }
      } finally {
        page.cleanup();
      }
    } catch {
      continue; // a page pdf.js cannot list is not flagged
    }
    const chars = textChars(n);
    const reason = classifyPage({ imageCount, pathCount, shapedSegments: shaped, textChars: chars });
    if (reason) flags.push({ page: n, imageCount, textChars: chars, reason });
  }
  return flags;
}
