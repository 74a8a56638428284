import { readFile } from 'node:fs/promises';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildPlacedTextPdf, buildTextPdf, type PlacedText } from '@/test/support/ingest/minimal-pdf';
import { chunkDocument } from '../chunker';
import { parsePdf } from './pdf';
import { layoutPage } from './pdf-layout';

const DOCS = '/work/shared/data/documents';
const load = async (relative: string) => new Uint8Array(await readFile(`${DOCS}/${relative}`));
const noOcr = { ocr: { enabled: false } };

/** Sentences long enough to fill a 240 pt column at 10 pt Helvetica. */
const left = Array.from({ length: 12 }, (_, i) => `left ${i + 1} the river bends slowly toward the old mill house`);
const right = Array.from({ length: 12 }, (_, i) => `right ${i + 1} a second story begins where the first one ends`);

/** Position of each needle in the text; -1 when missing. */
const positions = (text: string, needles: string[]) => needles.map((n) => text.indexOf(n));
const increasing = (xs: number[]) => xs.every((x, i) => x >= 0 && (i === 0 || x > (xs[i - 1] ?? 0)));

describe('PDF layout: reading order', () => {
  it('reads two columns left then right when the content stream interleaves their lines', async () => {
    const texts: PlacedText[] = [{ text: 'A Two Column Title Spanning The Page Width Of The Layout', x: 150, y: 740 }];
    for (let i = 0; i < 12; i++) {
      texts.push({ text: right[i] ?? '', x: 320, y: 700 - i * 14 });
      texts.push({ text: left[i] ?? '', x: 50, y: 700 - i * 14 });
    }
    const parsed = await parsePdf(buildPlacedTextPdf([{ texts }]), noOcr);
    expect(parsed.units).toHaveLength(1);
    const text = parsed.units[0]?.text ?? '';
    expect(text.split('\n').filter(Boolean).slice(-24)).toEqual([...left, ...right]);
    expect(increasing(positions(text, ['A Two Column Title', 'left 1 ', 'left 12 ', 'right 1 ', 'right 12 ']))).toBe(
      true,
    );
  });

  it('reads text turned a quarter (a landscape page printed on its side) along its lines', async () => {
    // lines run bottom to top; the next line is to the right; each line drawn second half first, last line first
    const texts: PlacedText[] = [];
    for (let i = 5; i >= 0; i--) {
      texts.push({ text: `then ends line ${i + 1}`, x: 100 + i * 14, y: 300, angle: 90 });
      texts.push({ text: `turned line ${i + 1} starts`, x: 100 + i * 14, y: 100, angle: 90 });
    }
    const parsed = await parsePdf(buildPlacedTextPdf([{ texts, rotate: 90 }]), noOcr);
    const lines = (parsed.units[0]?.text ?? '').split('\n');
    expect(lines).toEqual(Array.from({ length: 6 }, (_, i) => `turned line ${i + 1} starts then ends line ${i + 1}`));
  });

  it('keeps an upright page with /Rotate as it is (the rotation only turns the display)', async () => {
    const parsed = await parsePdf(await load('unstructured/rotated-page-90.pdf'), noOcr);
    expect(parsed.units[0]?.text).toBe('Hello World Test Text\nSecond line of text here\nRotated page fixture');
  });

  it('reads the real two-column LaTeX file column by column', async () => {
    const parsed = await parsePdf(await load('pypdf_sample_files/026-latex-multicolumn/multicolumn.pdf'), noOcr);
    const page1 = parsed.units.find((u) => u.page === 1)?.text.replace(/\s+/g, ' ') ?? '';
    // the left column ends with "Donec nonummy", the right one starts with "pellentesque ante"
    expect(
      increasing(positions(page1, ['Two-Column Document', 'Lorem ipsum dolor', 'Donec nonummy', 'pellentesque ante'])),
    ).toBe(true);
  });

  it('reads a real page of turned text (senate-expenditures.pdf) row by row, not in stream order', async () => {
    const parsed = await parsePdf(await load('pdfplumber/senate-expenditures.pdf'), noOcr);
    const all = parsed.units.map((u) => u.text).join('\n');
    expect(all).toContain('AIRFARE FOR SEN HAWLEY');
    expect(all).toContain('DHAW20190001 05/03/2019 CITIBANK - TRAVEL CBA CARD');
    expect(all).toContain('BAIN, J MATTHEW | DISTRICT DIRECTOR | 37,499.96');
  });
});

describe('PDF layout: tables', () => {
  const table = (): PlacedText[] => {
    const texts: PlacedText[] = [
      { text: 'The survey counted visitors at three sites over the summer and the results follow.', x: 50, y: 740 },
    ];
    const rows = [
      ['Name', 'City', 'Count'],
      ['Alice Smith', 'Oslo', '3'],
      ['Bob Jones', 'Lima', '14'],
      ['Carla Diaz', 'Quito', '159'],
      ['Dan Wu', 'Perth', '2,650'],
    ];
    rows.forEach((cells, r) => {
      cells.forEach((cell, c) => {
        texts.push({ text: cell, x: [50, 200, 350][c] ?? 0, y: 700 - r * 14 });
      });
    });
    texts.push({ text: 'After the table the report goes on with its conclusions in plain prose.', x: 50, y: 600 });
    return texts;
  };

  it('finds a table by aligned rows and columns: a table unit with its header, the prose around it kept', async () => {
    const parsed = await parsePdf(buildPlacedTextPdf([{ texts: table() }]), noOcr);
    expect(parsed.pageCount).toBe(1);
    expect(parsed.units.map((u) => [u.ordinal, u.page, u.sheet])).toEqual([
      [0, 1, null],
      [1, 1, 'Table 1'],
    ]);
    expect(parsed.units[0]?.text).toBe(
      'The survey counted visitors at three sites over the summer and the results follow.\n\n' +
        'After the table the report goes on with its conclusions in plain prose.',
    );
    expect(parsed.units[1]).toMatchObject({
      header: 'Name | City | Count',
      text: 'Name | City | Count\nAlice Smith | Oslo | 3\nBob Jones | Lima | 14\nCarla Diaz | Quito | 159\nDan Wu | Perth | 2,650',
    });
    expect(parsed.units[1]?.rows?.map((r) => r.rowNumber)).toEqual([1, 2, 3, 4]);
    // one row is answerable alone: every table chunk repeats the header
    const chunks = chunkDocument(parsed, { targetTokens: 40 });
    const tableChunks = chunks.filter((c) => c.sheet === 'Table 1');
    expect(tableChunks.length).toBeGreaterThan(1);
    for (const c of tableChunks) expect(c.text.startsWith('Name | City | Count\n')).toBe(true);
  });

  it('finds the real NICS table (a /Rotate page) with its column header', async () => {
    const parsed = await parsePdf(await load('pdfplumber/nics-background-checks-2015-11-rotated.pdf'), noOcr);
    const tables = parsed.units.filter((u) => u.sheet?.startsWith('Table'));
    expect(tables.length).toBeGreaterThan(0);
    const header = tables[0]?.header?.split('\n').at(-1) ?? '';
    expect(header.startsWith('State / Territory | Permit | Handgun | Long Gun | *Other | **Multiple | Admin |')).toBe(
      true,
    );
    const rows = tables.flatMap((t) => t.text.split('\n'));
    expect(rows.some((r) => r.startsWith('Alabama | 18,870 | 23,022 | 22,650 | 859 | 1,178 | 0 |'))).toBe(true);
    expect(rows.some((r) => r.startsWith('Wyoming | '))).toBe(true);
  });

  it('makes no table of prose, of prose with line numbers, or of a two-column page', async () => {
    const prose = buildTextPdf([
      Array.from({ length: 40 }, (_, i) => `line ${i} of ordinary running text, with words and  spaces as usual.`),
    ]);
    const plain = await parsePdf(prose, noOcr);
    expect(plain.units.map((u) => u.sheet)).toEqual([null]);
    expect(plain.units[0]?.text.split('\n')).toHaveLength(40);

    const numbered: PlacedText[] = [];
    for (let i = 0; i < 20; i++) {
      numbered.push({ text: String(i + 1), x: 30, y: 720 - i * 24 });
      numbered.push({ text: `Q. And what did the witness say about the ${i}th letter?`, x: 72, y: 720 - i * 24 });
    }
    const transcript = await parsePdf(buildPlacedTextPdf([{ texts: numbered }]), noOcr);
    expect(transcript.units.map((u) => u.sheet)).toEqual([null]);

    const columns: PlacedText[] = [];
    for (let i = 0; i < 12; i++) {
      columns.push({ text: left[i] ?? '', x: 50, y: 700 - i * 14 });
      columns.push({ text: right[i] ?? '', x: 320, y: 700 - i * 14 });
    }
    const twoColumns = await parsePdf(buildPlacedTextPdf([{ texts: columns }]), noOcr);
    expect(twoColumns.units.map((u) => u.sheet)).toEqual([null]);
  });

  it('never finds a table in single-column prose (property)', () => {
    const word = fc.stringMatching(/^[a-z]{1,9}$/);
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { minLength: 1, maxLength: 14 }), { minLength: 3, maxLength: 30 }),
        (lines) => {
          const items = lines.flatMap((words, row) => {
            let x = 50;
            return words.map((w) => {
              const item = { str: w, transform: [10, 0, 0, 10, x, 700 - row * 12], width: w.length * 5, hasEOL: false };
              x += w.length * 5 + 2.5 + (row % 3); // word gaps under a third of the font size
              return item;
            });
          });
          const layout = layoutPage(items);
          expect(layout.blocks.every((b) => b.kind === 'text')).toBe(true);
          expect(layout.restructured).toBe(false);
        },
      ),
      { numRuns: 100 },
    );
  });

  it('takes a long run of aligned lines that is no table as text, in bounded work', () => {
    // 4,000 lines of two lower-case phrases each, aligned as if in two columns: refused as a table at every start
    const items = Array.from({ length: 4000 }, (_, row) => [
      { str: `and so the story goes on ${row}`, transform: [10, 0, 0, 10, 50, 40_000 - row * 12], width: 150 },
      { str: `while the other one ends ${row}`, transform: [10, 0, 0, 10, 260, 40_000 - row * 12], width: 150 },
    ]).flat();
    const started = performance.now();
    const layout = layoutPage(items);
    expect(layout.blocks.every((b) => b.kind === 'text')).toBe(true);
    expect(performance.now() - started).toBeLessThan(4000);
  });

  it('ignores items that are not text items (marked content) or carry broken matrices', () => {
    const layout = layoutPage([
      { type: 'beginMarkedContent' },
      { str: 'kept', transform: [10, 0, 0, 10, 50, 700], width: 20 },
      { str: 'broken', transform: [10, 0, 0, Number.NaN, 50, 690], width: 20 },
      { str: 'short', transform: [10, 0] },
    ]);
    expect(layout.blocks).toEqual([{ kind: 'text', text: 'kept' }]);
  });
});
