import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { MIN_SHAPED_SEGMENTS } from '@/lib/visual/flag-pages';
import { buildPlacedTextPdf, buildTextPdf } from '@/test/support/ingest/minimal-pdf';
import { shutdownOcr } from '../ocr';
import { parsePdf } from './pdf';

const DOCS = '/work/shared/data/documents';
const load = async (relative: string) => new Uint8Array(await readFile(`${DOCS}/${relative}`));

afterAll(async () => {
  await shutdownOcr();
});

describe('parsePdf', () => {
  it('extracts text per page with 1-based page numbers and the title', async () => {
    const parsed = await parsePdf(
      buildTextPdf([['alpha one', 'alpha two'], [], ['gamma']], { title: 'Three (pages)' }),
    );
    expect(parsed.title).toBe('Three (pages)');
    expect(parsed.pageCount).toBe(3);
    expect(parsed.units.map((u) => [u.page, u.text])).toEqual([
      [1, 'alpha one\nalpha two'],
      [2, ''],
      [3, 'gamma'],
    ]);
  });

  it('flags a drawing that follows the text on a page, on every page (the whole operator list is read)', async () => {
    // Node 20 lacks ArrayBuffer#transferToFixedLength, which pdf.js calls when it first hands over a font: without
    // array-buffer-transfer.ts the operator list ended at the first text of each new font, and the paths after it
    // were lost. Slanted strokes: a drawing, not table rules.
    const lines = Array.from({ length: MIN_SHAPED_SEGMENTS + 5 }, (_, i) => `${50 + i} 100 m ${90 + i} 300 l S`).join(
      '\n',
    );
    const prose = Array.from({ length: 8 }, (_, i) => ({
      text: `Line ${i} of a page about rivers and their deltas.`,
      x: 50,
      y: 700 - 14 * i,
    }));
    const parsed = await parsePdf(
      buildPlacedTextPdf([
        { texts: prose, drawing: lines },
        { texts: prose, drawing: lines },
      ]),
    );
    expect(parsed.visualPages?.map((p) => [p.page, p.reason])).toEqual([
      [1, 'figures'],
      [2, 'figures'],
    ]);
  });

  it('skips the page flags when asked (no vision model configured): same text, no flags', async () => {
    const lines = Array.from({ length: MIN_SHAPED_SEGMENTS + 5 }, (_, i) => `${50 + i} 100 m ${90 + i} 300 l S`).join(
      '\n',
    );
    // pdf.js takes over the bytes it is given: one copy per parse
    const pdf = () =>
      buildPlacedTextPdf([{ texts: [{ text: 'A chart of river flow.', x: 50, y: 700 }], drawing: lines }]);
    const flagged = await parsePdf(pdf());
    const unflagged = await parsePdf(pdf(), { visualFlags: false });
    expect(flagged.visualPages?.length).toBe(1);
    expect(unflagged.visualPages).toEqual([]);
    expect(unflagged.units).toEqual(flagged.units);
  });

  it('reads a real multi-page PDF', async () => {
    const parsed = await parsePdf(await load('pypdf_sample_files/004-pdflatex-4-pages/pdflatex-4-pages.pdf'));
    expect(parsed.pageCount).toBe(4);
    expect(parsed.units.every((u) => u.text.length > 100)).toBe(true);
  });

  it('says password-protected for encrypted PDFs that need a password', async () => {
    await expect(parsePdf(await load('pdfplumber/password-example.pdf'))).rejects.toMatchObject({
      code: 'password-protected',
      message: 'password-protected',
    });
  });

  it('opens PDFs encrypted with an empty user password', async () => {
    const parsed = await parsePdf(await load('pdfplumber/pr-138-example.pdf'));
    expect(parsed.units.some((u) => u.text.length > 1000)).toBe(true);
  });

  it('fails image-only PDFs with "no extractable text (scanned?)" when OCR is off', async () => {
    await expect(
      parsePdf(await load('unstructured/pdf/loremipsum-flat.pdf'), { ocr: { enabled: false } }),
    ).rejects.toMatchObject({
      code: 'no-text',
      message: 'no extractable text (scanned?)',
    });
  });

  it('reads scanned pages by OCR, marking them with their confidence', async () => {
    const parsed = await parsePdf(await load('unstructured/pdf/loremipsum-flat.pdf'), {
      ocr: { maxPixels: 2_000_000 },
    });
    expect(parsed.units).toHaveLength(1);
    expect(parsed.units[0]?.text).toMatch(/Lorem ipsum dolor sit amet/);
    expect(parsed.units[0]?.ocrConfidence).toBeGreaterThan(60);
  }, 240_000); // OCR of a full page: seconds on an idle machine, minutes when the cores are shared

  it('keeps the text layer of pages that have one (no OCR)', async () => {
    const parsed = await parsePdf(buildTextPdf([['A page with a real text layer, long enough to count as text.']]));
    expect(parsed.units[0]?.ocrConfidence).toBeUndefined();
  });

  it('fails broken PDFs with a specific reason', async () => {
    await expect(
      parsePdf(await load('pypdf_sample_files/017-unreadable-meta-data/unreadablemetadata.pdf')),
    ).rejects.toMatchObject({
      code: 'malformed',
      message: expect.stringMatching(/^malformed PDF: /),
    });
    const pdf = buildTextPdf([['some text']]);
    await expect(parsePdf(pdf.subarray(0, 40))).rejects.toMatchObject({
      code: expect.stringMatching(/malformed|no-text/),
    });
  });
});
