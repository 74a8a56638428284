/**
 * Raster images (PNG, JPEG, TIFF, WebP, BMP, GIF) → one OCR unit. The image's size is read from its header first
 * (image-size) so a decompression bomb is refused before anything is decoded; images over the pixel cap are
 * scaled down with @napi-rs/canvas before recognition.
 */

import { imageSize } from 'image-size';
import { IngestError } from '../errors';
import { lowConfidenceWarning, type OcrOptions, recognizeWithFallback, resolveOcrOptions } from '../ocr';
import type { ParsedDocument } from '../types';

/** Images declaring more pixels than this are refused outright (a 40 MP photo is fine; a 1-gigapixel bomb is not). */
const MAX_DECLARED_PIXELS = 100_000_000;

async function fitToPixels(bytes: Uint8Array, width: number, height: number, maxPixels: number): Promise<Uint8Array> {
  if (width * height <= maxPixels) return bytes;
  const { createCanvas, loadImage } = await import('@napi-rs/canvas');
  const image = await loadImage(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  const scale = Math.sqrt(maxPixels / (width * height));
  const canvas = createCanvas(Math.max(1, Math.floor(width * scale)), Math.max(1, Math.floor(height * scale)));
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0, canvas.width, canvas.height);
  return new Uint8Array(await canvas.encode('png'));
}

export async function parseImage(bytes: Uint8Array, options: { ocr?: OcrOptions } = {}): Promise<ParsedDocument> {
  const ocr = resolveOcrOptions(options.ocr);
  if (!ocr.enabled) throw new IngestError('no-text', 'no extractable text (an image, and OCR is turned off)');
  let width = 0;
  let height = 0;
  try {
    const size = imageSize(bytes);
    width = size.width ?? 0;
    height = size.height ?? 0;
  } catch (error) {
    throw new IngestError('malformed', `malformed image: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (width <= 0 || height <= 0) throw new IngestError('malformed', 'malformed image: no dimensions');
  if (width * height > MAX_DECLARED_PIXELS) {
    throw new IngestError('too-large', `image too large for OCR: ${width}×${height} pixels`);
  }
  let input: Uint8Array;
  try {
    input = await fitToPixels(bytes, width, height, ocr.maxPixels);
  } catch (error) {
    throw new IngestError('malformed', `malformed image: ${error instanceof Error ? error.message : String(error)}`);
  }
  const result = await recognizeWithFallback(input, ocr);
  if (result.words === 0) throw new IngestError('no-text', 'no extractable text (OCR found no words in the image)');
  if (result.confidence < ocr.minConfidence) {
    throw new IngestError(
      'no-text',
      `no readable text: ${lowConfidenceWarning('the image', result, ocr.minConfidence)}`,
    );
  }
  return {
    kind: 'image',
    title: null,
    units: [
      { ordinal: 0, page: null, sheet: null, headingPath: [], text: result.text, ocrConfidence: result.confidence },
    ],
    pageCount: 1,
    warnings: [],
  };
}
