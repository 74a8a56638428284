/**
 * PDF → one unit per page (unpdf's pdf.js build), title from the document information or XMP metadata, plus one
 * table unit per table found on a page (pdf-layout.ts, which also reads columns and turned text in order). Pages
 * without a usable text layer that paint an image (scans) are rendered with @napi-rs/canvas and recognised by OCR;
 * pages with text keep their text layer.
 */

import { createIsomorphicCanvasFactory, getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { flagVisualPages } from '@/lib/visual/flag-pages';
import { IngestError } from '../errors';
import {
  lowConfidenceWarning,
  newOcrDocumentMemory,
  type OcrOptions,
  recognizeWithFallback,
  resolveOcrOptions,
} from '../ocr';
import { rgbaToPpm } from '../ppm';
import type { ParsedDocument, ParsedUnit, ProgressCallback } from '../types';
import { layoutPage, type PageLayout } from './pdf-layout';
import { PdfiumTextLayer } from './pdfium-text';
import { PDFJS_OPTIONS } from './pdfjs-options';
import { buildSheetUnit } from './sheet-unit';

type PdfDocument = Awaited<ReturnType<typeof getDocumentProxy>>;

/** Fewer letters or digits than this on a page means its text layer cannot stand for the page. */
const MIN_TEXT_LAYER_CHARS = 20;
/** A text layer where more than this share of characters is unmappable (U+FFFD, private use, control) is garbage. */
const MAX_GARBAGE_SHARE = 0.3;

/**
 * Whether a page's extracted text is real text: enough letters or digits, and not mostly the replacement,
 * private-use or control characters that fonts without a Unicode map produce.
 */
export function textLayerUsable(text: string): boolean {
  const visible = text.replace(/\s+/g, '');
  if (visible.length === 0) return false;
  const alnum = visible.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  if (alnum < MIN_TEXT_LAYER_CHARS) return false;
  const garbage = visible.match(/[\uFFFD\p{Co}\p{Cc}\p{Cn}]/gu)?.length ?? 0;
  return garbage / visible.length <= MAX_GARBAGE_SHARE;
}

let imageOps: Set<number> | null = null;

/** The operator codes that paint a raster image (image masks included). */
async function imageOperatorCodes(): Promise<Set<number>> {
  if (!imageOps) {
    const { OPS } = await getResolvedPDFJS();
    imageOps = new Set(
      [
        OPS.paintImageXObject,
        OPS.paintInlineImageXObject,
        OPS.paintImageMaskXObject,
        OPS.paintImageXObjectRepeat,
        OPS.paintInlineImageXObjectGroup,
        OPS.paintImageMaskXObjectGroup,
        OPS.paintImageMaskXObjectRepeat,
      ].filter((op): op is number => typeof op === 'number'),
    );
  }
  return imageOps;
}

/**
 * Operator lists of a document's pages, each built at most once. Building one is the costly half of reading a
 * PDF (pdf.js decodes every image the page paints), and two passes want them: the scan for OCR candidates (pages
 * without usable text) and the visual page flags (every page). A list is kept only until the flag pass takes it.
 */
/** A page's operator list as pdf.js gives it: operator codes and their arguments. */
interface OperatorList {
  fnArray: number[];
  argsArray: unknown[];
}

class OperatorLists {
  private readonly kept = new Map<number, Promise<OperatorList>>();

  constructor(readonly document: PdfDocument) {}

  /** The page's operator list, built now and kept for one later `take`. */
  async keep(pageNumber: number): Promise<OperatorList> {
    let list = this.kept.get(pageNumber);
    if (!list) {
      list = this.build(pageNumber);
      this.kept.set(pageNumber, list);
    }
    return list;
  }

  /** The page's operator list, the kept one if any (and forgotten), else built now. */
  take(pageNumber: number): Promise<OperatorList> {
    const list = this.kept.get(pageNumber);
    this.kept.delete(pageNumber);
    return list ?? this.build(pageNumber);
  }

  /** A view of the document whose pages answer `getOperatorList` from here (for flagVisualPages). */
  asDocument(): {
    numPages: number;
    getPage(n: number): Promise<{ getOperatorList(): Promise<OperatorList>; cleanup(): void }>;
  } {
    return {
      numPages: this.document.numPages,
      getPage: async (n) => ({
        getOperatorList: () => this.take(n),
        cleanup: () => undefined,
      }),
    };
  }

  private async build(pageNumber: number): Promise<OperatorList> {
    const page = await this.document.getPage(pageNumber);
    try {
      const { fnArray, argsArray } = await page.getOperatorList();
      return { fnArray, argsArray };
    } finally {
      page.cleanup();
    }
  }
}

/** Whether the page paints a raster image (an operator-list scan; only done for pages without usable text). */
async function paintsImage(lists: OperatorLists, pageNumber: number): Promise<boolean> {
  const ops = await imageOperatorCodes();
  return (await lists.keep(pageNumber)).fnArray.some((fn) => ops.has(fn));
}

/** Longest a page may take to render before its render task is cancelled. */
const RENDER_TIMEOUT_MS = 20_000;

interface NodeCanvas {
  width: number;
  height: number;
  encode(format: 'png'): Promise<Buffer>;
  /** The pixels, premultiplied RGBA. */
  data(): Buffer;
}

/**
 * What renderPage returns: PNG (compressed, for a vision model) or binary PPM (uncompressed RGB, for OCR: Tesseract
 * reads it without decoding, and the same pixels give the same text as the PNG did).
 */
export type PageImageFormat = 'png' | 'ppm';

/** Renders a page at `dpi`, scaled down to at most `maxPixels`; cancelled after RENDER_TIMEOUT_MS. */
export async function renderPage(
  doc: PdfDocument,
  pageNumber: number,
  dpi: number,
  maxPixels: number,
  format: PageImageFormat = 'png',
): Promise<Uint8Array> {
  const page = await doc.getPage(pageNumber);
  try {
    const base = page.getViewport({ scale: 1 });
    const scale = Math.min(dpi / 72, Math.sqrt(maxPixels / Math.max(1, base.width * base.height)));
    const viewport = page.getViewport({ scale });
    const CanvasFactory = await createIsomorphicCanvasFactory(() => import('@napi-rs/canvas'));
    const factory = new CanvasFactory();
    const drawing = factory.create(Math.ceil(viewport.width), Math.ceil(viewport.height));
    try {
      const task = page.render({
        canvas: drawing.canvas as unknown as HTMLCanvasElement,
        canvasContext: drawing.context as unknown as CanvasRenderingContext2D,
        viewport,
      });
      const timer = setTimeout(() => task.cancel(), RENDER_TIMEOUT_MS);
      try {
        await task.promise;
      } finally {
        clearTimeout(timer);
      }
      const canvas = drawing.canvas as unknown as NodeCanvas;
      if (format === 'ppm') return rgbaToPpm(canvas.data(), canvas.width, canvas.height);
      return new Uint8Array(await canvas.encode('png'));
    } finally {
      factory.destroy(drawing);
    }
  } finally {
    page.cleanup();
  }
}

/**
 * OCRs the pages whose text layer is unusable and that paint an image, in place, within the page cap and time
 * budget. A page whose OCR confidence is under the threshold keeps its (unusable) text layer and is reported.
 */
async function ocrScannedPages(
  lists: OperatorLists,
  units: ParsedUnit[],
  warnings: string[],
  options: { ocr?: OcrOptions; onProgress?: ProgressCallback },
): Promise<{ pages: number; lowConfidence: string[] }> {
  const lowConfidence: string[] = [];
  const ocr = resolveOcrOptions(options.ocr);
  if (!ocr.enabled) return { pages: 0, lowConfidence };
  const candidates: ParsedUnit[] = [];
  for (const unit of units) {
    if (textLayerUsable(unit.text) || unit.page === null) continue;
    try {
      if (await paintsImage(lists, unit.page)) candidates.push(unit);
    } catch {
      // A page whose content cannot be listed cannot be rendered either.
    }
  }
  if (candidates.length === 0) return { pages: 0, lowConfidence };
  const doc = lists.document;
  const started = performance.now();
  const memory = newOcrDocumentMemory();
  let done = 0;
  for (const unit of candidates) {
    const page = unit.page ?? 0;
    if (done >= ocr.maxPages || performance.now() - started > ocr.budgetMs) {
      const skipped = candidates.length - done;
      warnings.push(
        `OCR stopped after ${done} page${done === 1 ? '' : 's'} (${done >= ocr.maxPages ? `limit ${ocr.maxPages} pages` : 'time limit'}); ${skipped} scanned page${skipped === 1 ? '' : 's'} not read`,
      );
      break;
    }
    try {
      const image = await renderPage(doc, page, ocr.dpi, ocr.maxPixels, 'ppm');
      const result = await recognizeWithFallback(image, ocr, memory);
      if (result.words > 0 && result.confidence < ocr.minConfidence) {
        const warning = lowConfidenceWarning(`page ${page}`, result, ocr.minConfidence);
        lowConfidence.push(warning);
        warnings.push(warning);
      } else if (result.words > 0) {
        unit.text = result.text;
        unit.ocrConfidence = result.confidence;
      }
    } catch (error) {
      if (error instanceof IngestError && error.code === 'internal') throw error;
      warnings.push(`page ${page}: OCR failed (${errorMessage(error).slice(0, 200)})`);
    }
    done++;
    options.onProgress?.({ stage: 'parsing', fraction: done / candidates.length });
  }
  return { pages: done, lowConfidence };
}

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

function pageText(items: readonly unknown[]): string {
  let text = '';
  for (const item of items) {
    const t = item as TextItemLike;
    if (typeof t.str !== 'string') continue;
    text += t.str;
    if (t.hasEOL) text += '\n';
  }
  return text
    .replace(/\u0000/g, '')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function errorName(error: unknown): string {
  return error instanceof Error
    ? error.name
    : typeof error === 'object' && error && 'name' in error
      ? String(error.name)
      : '';
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error && 'message' in error) return String(error.message);
  return String(error);
}

async function readTitle(doc: PdfDocument): Promise<string | null> {
  try {
    const { info, metadata } = await doc.getMetadata();
    const fromXmp = metadata?.get('dc:title');
    const fromInfo = typeof info === 'object' && info && 'Title' in info ? (info as { Title?: unknown }).Title : null;
    for (const candidate of [fromXmp, fromInfo]) {
      if (typeof candidate === 'string') {
        const title = candidate
          .replace(/\u0000/g, '')
          .replace(/\s+/g, ' ')
          .trim();
        if (title) return title;
      }
    }
  } catch {
    // Unreadable metadata is not a reason to refuse the text.
  }
  return null;
}

/**
 * Pages whose positional reading differs from the content-stream order (columns, turned text, tables: see
 * pdf-layout.ts) take their text from the layout, with each table as a unit of its own after its page's text unit
 * (a sheet named "Table n", numbered through the document, `page` set); OCR'd pages and the others keep their text.
 * Ordinals are renumbered in order.
 */
function applyLayout(units: ParsedUnit[], layouts: ReadonlyMap<number, PageLayout>): ParsedUnit[] {
  const out: ParsedUnit[] = [];
  let tables = 0;
  for (const unit of units) {
    const layout = unit.page !== null && typeof unit.ocrConfidence !== 'number' ? layouts.get(unit.page) : undefined;
    if (!layout?.restructured) {
      out.push({ ...unit, ordinal: out.length });
      continue;
    }
    const prose = layout.blocks
      .flatMap((b) => (b.kind === 'text' ? [b.text] : []))
      .join('\n\n')
      .trim();
    const found = layout.blocks.flatMap((b) => (b.kind === 'table' ? [b.rows] : []));
    if (prose !== '' || found.length === 0) out.push({ ...unit, ordinal: out.length, text: prose });
    for (const rows of found) {
      const table = buildSheetUnit(
        out.length,
        `Table ${tables + 1}`,
        rows.map((cells, index) => ({ position: index + 1, cells })),
      );
      if (!table) continue;
      tables++;
      out.push({ ...table, page: unit.page });
    }
  }
  return out;
}

/**
 * Extracts text per page. A password-protected file fails with "password-protected", a broken one with
 * "malformed PDF: ...", one whose pages hold no text with "no extractable text (scanned?)". A page that fails on
 * its own is kept empty with a warning.
 */
export async function parsePdf(
  bytes: Uint8Array,
  options: { onProgress?: ProgressCallback; ocr?: OcrOptions; visualFlags?: boolean } = {},
): Promise<ParsedDocument> {
  // PDFium first: pdf.js may take over the bytes' buffer
  const textLayer = await PdfiumTextLayer.open(bytes, (await getResolvedPDFJS()).normalizeUnicode);
  let doc: PdfDocument;
  try {
    doc = await getDocumentProxy(bytes, PDFJS_OPTIONS);
  } catch (error) {
    textLayer?.close();
    const name = errorName(error);
    if (name === 'PasswordException')
      throw new IngestError('password-protected', 'password-protected', { cause: error });
    throw new IngestError('malformed', `malformed PDF: ${errorMessage(error).slice(0, 300)}`, { cause: error });
  }
  try {
    const title = await readTitle(doc);
    const units: ParsedUnit[] = [];
    const layouts = new Map<number, PageLayout>();
    const warnings: string[] = [];
    let unreadablePages = 0;
    const pageCount = doc.numPages;
    for (let pageNumber = 1; pageNumber <= pageCount; pageNumber++) {
      let text = '';
      try {
        const items = pdfiumRuns(textLayer, pageNumber) ?? (await pdfjsItems(doc, pageNumber));
        text = pageText(items);
        layouts.set(pageNumber, layoutPage(items));
      } catch (error) {
        unreadablePages++;
        warnings.push(`page ${pageNumber}: ${errorMessage(error).slice(0, 200)}`);
      }
      units.push({ ordinal: pageNumber - 1, page: pageNumber, sheet: null, headingPath: [], text });
      options.onProgress?.({ stage: 'parsing', fraction: pageNumber / pageCount });
    }
    const lists = new OperatorLists(doc);
    const ocr = await ocrScannedPages(lists, units, warnings, options);
    if (!units.some((u) => u.text.trim().length > 0)) {
      // Every page failed to parse: the file is broken, not scanned.
      if (pageCount > 0 && unreadablePages >= pageCount) {
        throw new IngestError('malformed', `malformed PDF: no page could be read (${warnings[0] ?? 'unknown error'})`);
      }
      if (ocr.lowConfidence.length > 0) {
        throw new IngestError('no-text', `no readable text: ${ocr.lowConfidence[0]}`);
      }
      if (ocr.pages > 0) {
        throw new IngestError('no-text', 'no extractable text (scanned pages, and OCR found no words in them)');
      }
      throw new IngestError('no-text', 'no extractable text (scanned?)');
    }
    // flagged on the page units (one per page, before the layout splits tables off into units of their own); only
    // when asked: without a vision model nothing reads the flags, and they cost an operator list per page
    const visualPages =
      options.visualFlags === false
        ? []
        : await flagVisualPages(lists.asDocument(), (n) => units[n - 1]?.text.trim().length ?? 0).catch(() => []);
    return { kind: 'pdf', title, units: applyLayout(units, layouts), pageCount, warnings, visualPages };
  } finally {
    textLayer?.close();
    await doc.destroy().catch(() => undefined);
  }
}

/** A page's text runs from PDFium; null when PDFium did not open the file or fails on this page (pdf.js reads it). */
function pdfiumRuns(layer: PdfiumTextLayer | null, pageNumber: number): readonly unknown[] | null {
  if (!layer || pageNumber > layer.pageCount) return null;
  try {
    return layer.pageRuns(pageNumber);
  } catch {
    return null;
  }
}

/** A page's text items from pdf.js `getTextContent`. */
async function pdfjsItems(doc: PdfDocument, pageNumber: number): Promise<readonly unknown[]> {
  const page = await doc.getPage(pageNumber);
  try {
    return (await page.getTextContent()).items;
  } finally {
    page.cleanup();
  }
}
