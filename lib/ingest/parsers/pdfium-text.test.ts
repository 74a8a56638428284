import { readFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { buildPlacedTextPdf, buildTextPdf, type PlacedText } from '@/test/support/ingest/minimal-pdf';
import { parsePdf } from './pdf';
import { PdfiumTextLayer, type TextRun } from './pdfium-text';
import { PDFJS_OPTIONS } from './pdfjs-options';

const DOCS = '/work/shared/data/documents';
const load = async (relative: string) => new Uint8Array(await readFile(`${DOCS}/${relative}`));
const noOcr = { ocr: { enabled: false }, visualFlags: false };

async function open(bytes: Uint8Array): Promise<PdfiumTextLayer | null> {
  return PdfiumTextLayer.open(bytes, (await getResolvedPDFJS()).normalizeUnicode);
}

async function runsOf(bytes: Uint8Array, page = 1): Promise<TextRun[]> {
  const layer = await open(bytes);
  if (!layer) throw new Error('PDFium did not open the file');
  try {
    const runs = layer.pageRuns(page);
    if (!runs) throw new Error('page left to pdf.js');
    return runs;
  } finally {
    layer.close();
  }
}

/** A one-page PDF whose content stream inflates to `inflated` bytes of spaces and one line of text. */
function flateBombPdf(inflated: number): Uint8Array {
  const content = Buffer.alloc(inflated, ' ');
  content.write('BT /F1 12 Tf 72 700 Td (bomb page) Tj ET', 0, 'latin1');
  const packed = deflateSync(content, { level: 9 });
  const head = Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n' +
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj\n' +
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >> endobj\n' +
      `4 0 obj << /Length ${packed.length} /Filter /FlateDecode >> stream\n`,
    'latin1',
  );
  const tail = Buffer.from(
    '\nendstream endobj\n5 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
    'latin1',
  );
  return new Uint8Array(Buffer.concat([head, packed, tail]));
}

describe('PDFium text layer', () => {
  it('fails a page whose content inflates past the memory cap, drops the instance, and reads on afresh', async () => {
    const { normalizeUnicode } = await getResolvedPDFJS();
    const layer = await PdfiumTextLayer.open(flateBombPdf(160 * 1024 * 1024), normalizeUnicode, {
      maxMemoryBytes: 96 * 1024 * 1024,
    });
    if (!layer) throw new Error('PDFium did not open the file');
    try {
      expect(() => layer.pageRuns(1)).toThrow();
      expect(() => layer.pageRuns(1)).toThrow('PDFium failed on this document');
    } finally {
      layer.close();
    }
    // the next document gets a new instance (default cap), and the small bomb page reads
    const runs = await runsOf(flateBombPdf(1024 * 1024));
    expect(runs.map((r) => r.str.trim())).toEqual(['bomb page']);
  });

  it('gives runs with the positions, sizes and directions pdf.js gives its text items', async () => {
    const texts: PlacedText[] = [
      { text: 'Upright words here', x: 72, y: 700, size: 12 },
      { text: 'Turned a quarter', x: 300, y: 200, size: 10, angle: 90 },
      { text: 'Upside down', x: 500, y: 400, size: 8, angle: 180 },
    ];
    const bytes = buildPlacedTextPdf([{ texts }]);
    const runs = await runsOf(bytes.slice());
    const doc = await getDocumentProxy(bytes, PDFJS_OPTIONS);
    const items = (await (await doc.getPage(1)).getTextContent()).items.flatMap((i) =>
      'str' in i && i.str.trim() !== '' ? [i] : [],
    );
    await doc.destroy();
    expect(runs.map((r) => r.str.trim())).toEqual(items.map((i) => i.str.trim()));
    runs.forEach((run, n) => {
      const item = items[n];
      if (!item) throw new Error('missing item');
      run.transform.forEach((value, k) => {
        expect(value).toBeCloseTo(item.transform[k] as number, 1);
      });
      expect(Math.abs(run.width - item.width)).toBeLessThan(0.5);
    });
  });

  it('keeps a hyphen at the end of a line and the line break after it (no "wellbehaved")', async () => {
    const parsed = await parsePdf(buildTextPdf([['a compound that is well-', 'behaved in every way']]), noOcr);
    expect(parsed.units[0]?.text).toBe('a compound that is well-\nbehaved in every way');
  });

  it('splits words set apart inside one string, and ends lines where the text moves down a line', async () => {
    const texts: PlacedText[] = [
      { text: 'first line', x: 72, y: 700 },
      { text: 'second line', x: 72, y: 686 },
    ];
    const runs = await runsOf(buildPlacedTextPdf([{ texts }]));
    expect(runs.map((r) => [r.str.trim(), r.hasEOL])).toEqual([
      ['first line', true],
      ['second line', false],
    ]);
  });

  it('returns null for bytes it cannot open, and parsePdf still answers as before (pdf.js)', async () => {
    expect(await open(new TextEncoder().encode('%PDF-1.7\nnot really a pdf'))).toBeNull();
    expect(await open(new Uint8Array(0))).toBeNull();
    await expect(parsePdf(new TextEncoder().encode('%PDF-1.4\ngarbage'), noOcr)).rejects.toMatchObject({
      code: 'malformed',
    });
  });

  it('leaves a password-protected file to pdf.js, which refuses it as such', async () => {
    expect(await open(await load('pdfplumber/password-example.pdf'))).toBeNull();
    await expect(parsePdf(await load('pdfplumber/password-example.pdf'), noOcr)).rejects.toMatchObject({
      code: 'password-protected',
    });
  });

  it('answers as pdf.js does for a file neither can open (broken cross-reference table)', async () => {
    const bytes = await load('pypdf_sample_files/017-unreadable-meta-data/unreadablemetadata.pdf');
    expect(await open(bytes.slice())).toBeNull();
    await expect(parsePdf(bytes, noOcr)).rejects.toMatchObject({ code: 'malformed' });
  });

  it('leaves to pdf.js a page whose glyphs have no Unicode mapping (TeX math: a prime read as "0")', async () => {
    const layer = await open(await load('pypdf_sample_files/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf'));
    if (!layer) throw new Error('PDFium did not open the file');
    try {
      expect(layer.pageRuns(74)).toBeNull();
    } finally {
      layer.close();
    }
  });

  it('leaves to pdf.js a page turned by /Rotate (PDFium orders its text as displayed)', async () => {
    const layer = await open(await load('unstructured/rotated-page-90.pdf'));
    if (!layer) throw new Error('PDFium did not open the file');
    try {
      expect(layer.pageRuns(1)).toBeNull();
    } finally {
      layer.close();
    }
  });

  it('never throws on mangled PDFs: open gives a layer or null, a page gives runs, null or an Error', async () => {
    const base = buildTextPdf([['alpha beta gamma', 'delta epsilon'], ['zeta']]);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat({ max: base.length - 1 }), fc.integer({ min: 0, max: 255 })), { maxLength: 12 }),
        fc.nat({ max: base.length }),
        async (edits, cut) => {
          const bytes = base.slice(0, Math.max(cut, 16));
          for (const [at, value] of edits) if (at < bytes.length) bytes[at] = value;
          const layer = await open(bytes);
          if (!layer) return;
          try {
            for (let page = 1; page <= Math.min(layer.pageCount, 3); page++) {
              try {
                const runs = layer.pageRuns(page);
                expect(runs === null || Array.isArray(runs)).toBe(true);
              } catch (error) {
                expect(error).toBeInstanceOf(Error);
              }
            }
          } finally {
            layer.close();
          }
        },
      ),
      { numRuns: 60 },
    );
    // and the module is still usable afterwards
    expect((await runsOf(base)).map((r) => r.str.trim())).toEqual(['alpha beta gamma', 'delta epsilon']);
  });
});
