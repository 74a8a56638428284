import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../test/support/agent/mock-models';
import { buildTextPdf } from '../../test/support/ingest/minimal-pdf';
import { classifyPage, flagVisualPages, LITTLE_TEXT_CHARS, MIN_SHAPED_SEGMENTS, shapedSegments } from './flag-pages';
import { interpretImage } from './interpret';
import { createVisionPort } from './port';
import { renderPdfPage, scaleImage } from './render';

const DOCS = '/work/shared/data/documents';
const FIGURE_PDF = path.join(DOCS, 'pdfplumber/figure_structure.pdf');
const PHOTO = path.join(DOCS, 'unstructured/img/english-and-korean.png');

describe('page flags', () => {
  it('flags figures (images or drawn shapes) and little text, and leaves plain text and ruled tables alone', () => {
    const page = (c: Partial<Parameters<typeof classifyPage>[0]>) =>
      classifyPage({ imageCount: 0, pathCount: 0, shapedSegments: 0, textChars: 2400, ...c });
    expect(page({ pathCount: 3 })).toBeNull();
    expect(page({ pathCount: 440 })).toBeNull(); // a ruled table: hundreds of boxes, no shapes
    expect(page({ imageCount: 1 })).toBe('figures');
    expect(page({ pathCount: 1, shapedSegments: MIN_SHAPED_SEGMENTS })).toBe('figures');
    expect(page({ pathCount: 4, shapedSegments: MIN_SHAPED_SEGMENTS - 1 })).toBeNull();
    expect(page({ textChars: LITTLE_TEXT_CHARS - 1 })).toBe('little_text');
    expect(page({ imageCount: 2, textChars: 40 })).toBe('figures,little_text');
    expect(page({ textChars: 0 })).toBeNull();
  });

  it('counts curves and slanted lines of a path, not axis-aligned rules and boxes', () => {
    const box = [0, 10, 10, 1, 100, 10, 1, 100, 50, 1, 10, 50, 4];
    expect(shapedSegments([28, [new Float32Array(box)], null])).toBe(0);
    const polyline = [0, 0, 0, 1, 10, 5, 1, 20, 3, 1, 30, 9, 1, 30, 20];
    expect(shapedSegments([23, [new Float32Array(polyline)], null])).toBe(3);
    const curves = [0, 0, 0, 2, 1, 1, 2, 2, 3, 3, 3, 1, 1, 4, 4, 4];
    expect(shapedSegments([23, [curves], null])).toBe(2);
    expect(shapedSegments(null)).toBe(0);
    expect(shapedSegments([23, 'garbage'])).toBe(0);
  });

  it('a text-only PDF has no flagged page', async () => {
    const text = 'A plain paragraph of running text that fills the page with words. '.repeat(8);
    const doc = await getDocumentProxy(buildTextPdf([[text], [text]]));
    expect(await flagVisualPages(doc, () => text.length)).toEqual([]);
    await doc.destroy();
  });

  it.skipIf(!existsSync(FIGURE_PDF))('flags the page of a real PDF that draws a figure', async () => {
    const doc = await getDocumentProxy(new Uint8Array(readFileSync(FIGURE_PDF)));
    const flags = await flagVisualPages(doc, () => 116);
    await doc.destroy();
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ page: 1, textChars: 116 });
    expect(flags[0]?.reason).toContain('little_text');
  });
});

describe('page images', () => {
  it('renders a PDF page as PNG with its longest side bounded, and refuses pages outside the document', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'visual-'));
    const file = path.join(dir, 'a.pdf');
    await writeFile(file, buildTextPdf([['Page one text'], ['Page two text']]));
    const image = await renderPdfPage(file, 2, 400);
    expect([...image.png.slice(1, 4)].map((c) => String.fromCharCode(c)).join('')).toBe('PNG');
    expect(Math.max(image.width, image.height)).toBeLessThanOrEqual(400);
    expect(Math.max(image.width, image.height)).toBeGreaterThan(200);
    await expect(renderPdfPage(file, 3, 400)).rejects.toThrow(RangeError);
  });

  it.skipIf(!existsSync(PHOTO))('scales an uploaded image down to the bound, never up', async () => {
    const small = await scaleImage(PHOTO, 256);
    expect(Math.max(small.width, small.height)).toBe(256);
    const big = await scaleImage(PHOTO, 100_000);
    expect(Math.max(big.width, big.height)).toBeLessThan(100_000);
  });
});

describe('vision reading', () => {
  it('sends the question and the image to the model and returns its text', async () => {
    const model = scriptedModel({ json: ['The chart shows three bars.'] });
    const reading = await interpretImage({
      model,
      png: new Uint8Array([137, 80, 78, 71]),
      question: 'What does the chart show?',
      timeoutMs: 1000,
    });
    expect(reading.text).toBe('The chart shows three bars.');
    const prompt = model.prompts()[0] ?? '';
    expect(prompt).toContain('"type":"file"');
    expect(prompt).toContain('image/png');
    expect(prompt).toContain('What does the chart show?');
  });

  it('the port reads only files the owner can locate, and only PDFs (with a page) and images', async () => {
    const rendered: number[] = [];
    const port = createVisionPort({
      model: scriptedModel({ json: ['A diagram of a pump.'] }),
      modelName: 'fake-vl',
      timeoutMs: 1000,
      maxImagePx: 512,
      flaggedPages: async () => [],
      locate: async (ownerId, documentId) =>
        ownerId !== 'alice'
          ? null
          : { path: `/x/${documentId}`, mime: documentId === 'doc' ? 'text/plain' : 'application/pdf' },
      renderPdfPage: async (_path, page, maxPx) => {
        rendered.push(page, maxPx);
        return { png: new Uint8Array([1]), width: 362, height: 512 };
      },
      scaleImage: async () => ({ png: new Uint8Array([1]), width: 1, height: 1 }),
    });
    expect(await port.read({ ownerId: 'bob', documentId: 'pdf', page: 1, question: 'q' })).toBeNull();
    expect(await port.read({ ownerId: 'alice', documentId: 'doc', page: 1, question: 'q' })).toBeNull();
    expect(await port.read({ ownerId: 'alice', documentId: 'pdf', page: null, question: 'q' })).toBeNull();
    expect(await port.read({ ownerId: 'alice', documentId: 'pdf', page: 4, question: 'q' })).toMatchObject({
      text: 'A diagram of a pump.',
      page: 4,
      width: 362,
      height: 512,
    });
    expect(rendered).toEqual([4, 512]);
  });
});
