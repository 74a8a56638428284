import { readFile } from 'node:fs/promises';
import { getDocumentProxy } from 'unpdf';
import { renderPage } from '@/lib/ingest/parsers/pdf';
import { PDFJS_OPTIONS } from '@/lib/ingest/parsers/pdfjs-options';

/**
 * The picture the vision model reads: a PDF page rendered with pdf.js + @napi-rs/canvas (the renderer OCR uses),
 * or an uploaded image scaled down, as PNG with its longest side at most `maxPx` (pages up to 2:1; a taller page
 * is bounded by area instead). Bounded work: pdf.js cancels a render after 20 s.
 */

const RENDER_DPI = 150;

export interface PageImage {
  png: Uint8Array;
  width: number;
  height: number;
}

async function pngSize(png: Uint8Array): Promise<{ width: number; height: number }> {
  // PNG IHDR: width and height are big-endian 32-bit integers at offsets 16 and 20.
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return png.byteLength >= 24 ? { width: view.getUint32(16), height: view.getUint32(20) } : { width: 0, height: 0 };
}

/** Renders 1-based `page` of the PDF at `path`; throws RangeError for a page outside the document. */
export async function renderPdfPage(path: string, page: number, maxPx: number): Promise<PageImage> {
  const doc = await getDocumentProxy(new Uint8Array(await readFile(path)), PDFJS_OPTIONS);
  try {
    if (!Number.isInteger(page) || page < 1 || page > doc.numPages)
      throw new RangeError(`page ${page} is outside 1–${doc.numPages}`);
    const png = await renderPage(doc, page, RENDER_DPI, Math.floor((maxPx * maxPx) / 2));
    return { png, ...(await pngSize(png)) };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/** An uploaded image scaled to fit `maxPx` (never enlarged), re-encoded as PNG. */
export async function scaleImage(path: string, maxPx: number): Promise<PageImage> {
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(await readFile(path));
  const scale = Math.min(1, maxPx / Math.max(1, image.width, image.height));
  const width = Math.max(1, Math.round(image.width * scale));
  const height = Math.max(1, Math.round(image.height * scale));
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').drawImage(image, 0, 0, width, height);
  return { png: new Uint8Array(await canvas.encode('png')), width, height };
}
