/**
 * PDF text layers read with PDFium (Chrome's PDF engine, compiled to WebAssembly by @embedpdf/pdfium; the .wasm ships
 * inside the package and is read from disk, never fetched). On the shared corpus it extracts text and positions for
 * about a third of the CPU of pdf.js `getTextContent`; on dense standard-font pages it saves little
 * (docs/benchmarks-ingest.md, "third pass: PDFium for the text layer").
 *
 * The runs it returns have the shape pdf.js text items have (`str`, `transform`, `width`, `hasEOL`), so the page
 * text and the layout analysis (pdf-layout.ts) read either. A run is a stretch of characters of one text object on
 * one baseline; PDFium's generated characters end runs: a generated space is kept at the end of the run before it
 * (a word gap), a generated line break sets `hasEOL`. Ligatures and the other compatibility characters pdf.js
 * normalises are normalised the same way (pdf.js's own `normalizeUnicode`).
 *
 * PDFium runs synchronously in the calling thread (the parse worker); a file it cannot open returns null and the
 * caller reads pdf.js instead. A WebAssembly trap (out of memory, an abort inside PDFium) discards the instance: the
 * next document gets a fresh one.
 */

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { init, type WrappedPdfiumModule } from '@embedpdf/pdfium';

/** A positioned text run, shaped like a pdf.js text item. */
export interface TextRun {
  str: string;
  /** [a, b, c, d, e, f]: direction and size (font size times the text matrix), origin of the first character. */
  transform: [number, number, number, number, number, number];
  /** Advance of the run along its direction, in page units. */
  width: number;
  hasEOL: boolean;
}

/**
 * The raw WebAssembly exports this file calls per character. The package's typed wrappers go through Emscripten's
 * `ccall` (argument conversion, assertions), which costs more than PDFium itself at one call per character.
 */
interface Exports {
  malloc(size: number): number;
  free(ptr: number): void;
  FPDFText_CountChars(text: number): number;
  FPDFText_GetUnicode(text: number, index: number): number;
  FPDFText_IsGenerated(text: number, index: number): number;
  FPDFText_IsHyphen(text: number, index: number): number;
  FPDFText_HasUnicodeMapError(text: number, index: number): number;
  FPDFText_GetCharOrigin(text: number, index: number, x: number, y: number): number;
  FPDFText_GetTextObject(text: number, index: number): number;
  FPDFText_GetFontSize(text: number, index: number): number;
  FPDFText_GetMatrix(text: number, index: number, matrix: number): number;
  FPDFText_GetLooseCharBox(text: number, index: number, rect: number): number;
}

/** The memory views and exports of the Emscripten module that this file reads. */
interface Heap {
  HEAPU8: Uint8Array;
  HEAPF32: Float32Array;
  HEAPF64: Float64Array;
  wasmExports: Exports;
}

let instance: Promise<WrappedPdfiumModule> | null = null;

/** The wasm file of the installed package, resolved from the working directory (as pdfjs-options.ts does). */
function wasmPath(): string {
  const resolve = createRequire(path.join(process.cwd(), 'package.json')).resolve;
  return path.join(path.dirname(resolve('@embedpdf/pdfium')), 'pdfium.wasm');
}

/**
 * Most memory one PDFium instance may take (bytes). WebAssembly memory lies outside the parse worker's V8 heap limit,
 * so without a cap a hostile file (a decompression bomb in a content stream) could grow it to the build's 4 GB. A
 * growth past the cap fails, PDFium aborts, the page or file goes to pdf.js (inside the heap limit) and the instance
 * is dropped.
 */
const PDFIUM_MAX_MEMORY = 1024 * 1024 * 1024;
let memoryCap = PDFIUM_MAX_MEMORY;

async function pdfium(): Promise<WrappedPdfiumModule> {
  if (!instance) {
    instance = (async () => {
      const wasm = readFileSync(wasmPath());
      const module = await init({
        wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer,
        // PDFium's own complaints (an aborted allocation) are reported by the caller's fallback, not on stderr
        print: () => undefined,
        printErr: () => undefined,
      });
      const memory = (module.pdfium as unknown as { wasmExports: { memory: WebAssembly.Memory } }).wasmExports.memory;
      const grow = memory.grow.bind(memory);
      memory.grow = (pages: number) => {
        if (memory.buffer.byteLength + pages * 65_536 > memoryCap) throw new RangeError('PDFium memory cap reached');
        return grow(pages);
      };
      module.PDFiumExt_Init();
      return module;
    })();
    instance.catch(() => {
      instance = null;
    });
  }
  return instance;
}

const LINE_BREAK = new Set([0x0a, 0x0d]);
/** Memory an idle instance may keep (bytes); a larger one is dropped after its document and made anew on demand. */
const MAX_RETAINED_MEMORY = 256 * 1024 * 1024;
/** A gap along a line wider than this share of the font size separates words (and runs), generated space or not. */
const WORD_GAP = 0.5;
/** A superscript or subscript this close (share of the font size) to the text before it is part of its word. */
const SCRIPT_GAP = 0.1;

/** Whether a point lies outside a box given as [left, top, right, bottom] (PDFium's FS_RECTF, y up). */
function outside(x: number, y: number, [left = 0, top = 0, right = 0, bottom = 0]: number[]): boolean {
  return (
    x < Math.min(left, right) || x > Math.max(left, right) || y < Math.min(top, bottom) || y > Math.max(top, bottom)
  );
}

export class PdfiumTextLayer {
  private closed = false;
  private trapped = false;

  private constructor(
    private readonly module: WrappedPdfiumModule,
    private readonly document: number,
    private readonly bytes: number,
    private readonly scratch: number,
    readonly pageCount: number,
    private readonly normalize: (text: string) => string,
  ) {}

  /**
   * Opens a document (the bytes are copied into PDFium's memory); null when PDFium cannot open it (a password, a
   * structure it cannot repair) or fails on it. The caller owns the layer and must `close()` it.
   */
  static async open(
    bytes: Uint8Array,
    normalize: (text: string) => string,
    options: { maxMemoryBytes?: number } = {},
  ): Promise<PdfiumTextLayer | null> {
    memoryCap = options.maxMemoryBytes ?? PDFIUM_MAX_MEMORY;
    let module: WrappedPdfiumModule;
    try {
      module = await pdfium();
    } catch {
      return null;
    }
    const heap = module.pdfium as unknown as Heap;
    let data = 0;
    try {
      data = heap.wasmExports.malloc(Math.max(1, bytes.length));
      if (!data) return null;
      heap.HEAPU8.set(bytes, data);
      const document = module.FPDF_LoadMemDocument(data, bytes.length, '');
      if (!document) {
        heap.wasmExports.free(data);
        return null;
      }
      const scratch = heap.wasmExports.malloc(80);
      return new PdfiumTextLayer(module, document, data, scratch, module.FPDF_GetPageCount(document), normalize);
    } catch {
      // a trap inside PDFium: its memory may be inconsistent, start the next document on a fresh instance
      instance = null;
      return null;
    }
  }

  /**
   * The runs of a page (1-based), in PDFium's reading order; null when the page holds characters without a Unicode
   * mapping or is turned by /Rotate (read it with pdf.js); throws when PDFium cannot load the page.
   */
  pageRuns(pageNumber: number): TextRun[] | null {
    if (this.closed) throw new Error('PDFium text layer is closed');
    if (this.trapped) throw new Error('PDFium failed on this document');
    const m = this.module;
    let page = 0;
    try {
      page = m.FPDF_LoadPage(this.document, pageNumber - 1);
      if (!page) throw new Error(`PDFium could not load page ${pageNumber}`);
      // PDFium orders the text of a page with /Rotate as displayed; pdf-layout.ts expects content-stream order there
      if (m.FPDFPage_GetRotation(page) !== 0) return null;
      // text placed outside the page's visible box is not shown, and pdf.js leaves it out
      const heap = m.pdfium as unknown as Heap;
      const box = this.scratch + 64;
      const visible = m.FPDF_GetPageBoundingBox(page, box)
        ? [...heap.HEAPF32.subarray(box >> 2, (box >> 2) + 4)]
        : null;
      const text = m.FPDFText_LoadPage(page);
      if (!text) throw new Error(`PDFium could not read the text of page ${pageNumber}`);
      try {
        return this.runs(text, visible);
      } finally {
        m.FPDFText_ClosePage(text);
      }
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        // a trap (an abort, memory exhausted): this instance's state is gone; nothing more is read from it
        this.trapped = true;
        instance = null;
      }
      throw error;
    } finally {
      if (page && !this.trapped) m.FPDF_ClosePage(page);
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.trapped) return;
    try {
      this.module.FPDF_CloseDocument(this.document);
      const heap = this.module.pdfium as unknown as Heap;
      heap.wasmExports.free(this.bytes);
      heap.wasmExports.free(this.scratch);
      // WebAssembly memory never shrinks: after a large document, let the instance go so the worker does not keep it
      if (heap.HEAPU8.length > MAX_RETAINED_MEMORY) instance = null;
    } catch {
      instance = null;
    }
  }

  /** The page's runs; null when a character has no Unicode mapping (PDFium guesses one from its code: pdf.js reads
   * such fonts' glyph names, so the page is left to it). */
  private runs(text: number, visible: number[] | null): TextRun[] | null {
    const heap = this.module.pdfium as unknown as Heap;
    const m = heap.wasmExports;
    const out = this.scratch;
    const count = m.FPDFText_CountChars(text);
    const runs: TextRun[] = [];
    let run: TextRun | null = null;
    let object = 0;
    // the open (or last) run's frame: unit direction along its text, and its font size on the page
    let ux = 1;
    let uy = 0;
    let size = 0;
    // PDFium generated a line break since the last character
    let broken = false;
    // the middle of the last character's box, along the open run from its origin
    let lastMiddle = Number.NEGATIVE_INFINITY;
    // the last character's origin, and whether it shared it with the one before (one glyph read as several)
    let lastX = Number.NaN;
    let lastY = Number.NaN;
    let ligature = false;
    const close = (space: boolean) => {
      if (!run) return;
      if (space && !/\s$/.test(run.str)) run.str += ' ';
      runs.push(run);
      run = null;
    };
    for (let i = 0; i < count; i++) {
      const code = m.FPDFText_GetUnicode(text, i);
      if (m.FPDFText_IsGenerated(text, i)) {
        // PDFium's word gaps end a run with a space; its line breaks end a run, and the geometry decides hasEOL
        close(!LINE_BREAK.has(code));
        if (LINE_BREAK.has(code)) broken = true;
        continue;
      }
      if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) continue;
      // PDFium joins a word hyphenated at a line's end, its hyphen turned into U+0002: kept as the hyphen and line
      // break the page shows (as pdf.js gives them: "well-behaved" must not become "wellbehaved")
      const hyphen = m.FPDFText_IsHyphen(text, i) !== 0;
      const str = hyphen ? '-' : code < 0xa0 ? String.fromCharCode(code) : this.normalize(String.fromCodePoint(code));
      const blank = str.trim() === '';
      if (!blank && m.FPDFText_HasUnicodeMapError(text, i) === 1) return null;
      // whitespace opens no run (pdf.js starts none with it either): a line of spaces is no line of text
      if (!run && blank) continue;
      if (!m.FPDFText_GetCharOrigin(text, i, out, out + 8)) continue;
      const x = heap.HEAPF64[out >> 3] ?? 0;
      const y = heap.HEAPF64[(out >> 3) + 1] ?? 0;
      if (visible && outside(x, y, visible)) continue;
      const owner = m.FPDFText_GetTextObject(text, i);
      const previous: TextRun | undefined = run ?? runs[runs.length - 1];
      // position in the frame of the open or last run: along its text from its end, across from its baseline
      const along = previous ? (x - previous.transform[4]) * ux + (y - previous.transform[5]) * uy - previous.width : 0;
      const across = previous ? -(x - previous.transform[4]) * uy + (y - previous.transform[5]) * ux : 0;
      // a space placed inside a ligature glyph before it (PDFium reads some so: "défi nir") is no word gap
      if (run && blank && ligature && along + run.width < lastMiddle) continue;
      ligature = !blank && x === lastX && y === lastY;
      lastX = x;
      lastY = y;
      if (run) {
        // same text object, same baseline (within half a font size), not moving backwards: the run goes on
        if (owner !== object || Math.abs(across) > 0.5 * size || along < -0.5 * size) close(false);
        // a gap PDFium generated no space for (glyphs placed apart inside one string): a new run, as pdf.js makes
        else if (along > WORD_GAP * size) close(true);
      }
      if (!run) {
        const fontSize = m.FPDFText_GetFontSize(text, i) || 1;
        let [a, b, c, d] = [1, 0, 0, 1];
        if (m.FPDFText_GetMatrix(text, i, out + 16)) {
          const f = heap.HEAPF32;
          const at = (out + 16) >> 2;
          [a, b, c, d] = [f[at] ?? 1, f[at + 1] ?? 0, f[at + 2] ?? 0, f[at + 3] ?? 1];
        }
        const scale = Math.hypot(a, b) || 1;
        const nx = a / scale;
        const ny = b / scale;
        // a line ends where the text turns, moves more than a line's height, or moves back more than half of one
        // (pdf.js's test): a superscript or subscript stays on its line
        if (
          previous &&
          (Math.abs(nx * ux + ny * uy) < 0.99 ||
            Math.abs(across) > size ||
            (along < -size && Math.abs(across) > 0.5 * size))
        ) {
          previous.hasEOL = true;
        } else if (previous && broken && (along > SCRIPT_GAP * size || along < -0.5 * size)) {
          // PDFium broke the line here but the text goes on along it (a cell drawn out of order, a word after an
          // index): a word gap, not a line; only a script set right against its base joins it
          if (!/\s$/.test(previous.str)) previous.str += ' ';
        }
        ux = nx;
        uy = ny;
        size = fontSize * (Math.hypot(c, d) || 1);
        run = {
          str: '',
          transform: [a * fontSize, b * fontSize, c * fontSize, d * fontSize, x, y],
          width: 0,
          hasEOL: false,
        };
        object = owner;
        lastMiddle = Number.NEGATIVE_INFINITY;
      }
      broken = false;
      const current: TextRun = run;
      current.str += str;
      // the run ends at the far side of this character's advance box, measured along the run's direction
      if (m.FPDFText_GetLooseCharBox(text, i, out + 40)) {
        const f = heap.HEAPF32;
        const at = (out + 40) >> 2;
        const left = f[at] ?? x;
        const top = f[at + 1] ?? y;
        const right = f[at + 2] ?? x;
        const bottom = f[at + 3] ?? y;
        const ox = current.transform[4];
        const oy = current.transform[5];
        const corners = [
          (left - ox) * ux + (top - oy) * uy,
          (right - ox) * ux + (top - oy) * uy,
          (left - ox) * ux + (bottom - oy) * uy,
          (right - ox) * ux + (bottom - oy) * uy,
        ];
        const reach = Math.max(...corners);
        lastMiddle = (reach + Math.min(...corners)) / 2;
        if (reach > current.width) current.width = reach;
      }
      if (hyphen) close(false);
    }
    close(false);
    return runs;
  }
}
