import fc from 'fast-check';
import { countTokens as bpeCount } from 'gpt-tokenizer';
import { describe, expect, it } from 'vitest';
import { buildContextPrefix, chunkDocument } from './chunker';
import { buildSheetUnit } from './parsers/sheet-unit';
import { countTokens } from './tokens';
import type { IngestChunk, ParsedDocument, ParsedUnit } from './types';

const WORDS =
  'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon'.split(
    ' ',
  );

/** Deterministic prose: sentences of 5-24 words, paragraphs of 2-7 sentences. */
function prose(paragraphs: number, seed = 1): string {
  let x = seed;
  const next = (n: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x % n;
  };
  const out: string[] = [];
  for (let p = 0; p < paragraphs; p++) {
    const sentences: string[] = [];
    for (let s = 0, ns = 2 + next(6); s < ns; s++) {
      const words = Array.from({ length: 5 + next(20) }, () => WORDS[next(WORDS.length)] ?? 'x');
      sentences.push(`${words.join(' ')}.`.replace(/^./, (c) => c.toUpperCase()));
    }
    out.push(sentences.join(' '));
  }
  return out.join('\n\n');
}

const textUnit = (text: string, extra: Partial<ParsedUnit> = {}): ParsedUnit => ({
  ordinal: 0,
  page: null,
  sheet: null,
  headingPath: [],
  text,
  ...extra,
});

const doc = (units: ParsedUnit[], title: string | null = 'Doc'): ParsedDocument => ({
  kind: 'text',
  title,
  units: units.map((u, ordinal) => ({ ...u, ordinal })),
  pageCount: units.length,
  warnings: [],
});

function expectTextOffsets(parsed: ParsedDocument, chunks: IngestChunk[]) {
  for (const chunk of chunks) {
    const unit = parsed.units[chunk.unitOrdinal];
    expect(unit).toBeDefined();
    expect(unit?.text.slice(chunk.charStart, chunk.charEnd)).toBe(chunk.text);
    expect(chunk.text.trim()).toBe(chunk.text);
    expect(chunk.text.length).toBeGreaterThan(0);
  }
}

describe('chunkDocument on text units', () => {
  it('keeps chunks near the target, slices of their unit, in order, with ~50 tokens of overlap', () => {
    const parsed = doc([textUnit(prose(120))]);
    const chunks = chunkDocument(parsed);
    expect(chunks.length).toBeGreaterThan(5);
    expectTextOffsets(parsed, chunks);
    chunks.forEach((chunk, i) => {
      expect(chunk.index).toBe(i);
      expect(chunk.tokenCount).toBeLessThanOrEqual(500);
      if (i < chunks.length - 1) expect(chunk.tokenCount).toBeGreaterThan(250);
      const next = chunks[i + 1];
      if (next) {
        expect(next.charStart).toBeGreaterThan(chunk.charStart);
        expect(next.charStart).toBeLessThan(chunk.charEnd); // overlap
        const overlap = countTokens(parsed.units[0]?.text.slice(next.charStart, chunk.charEnd) ?? '');
        expect(overlap).toBeGreaterThan(0);
        expect(overlap).toBeLessThanOrEqual(55);
      }
    });
    // every character of the unit is covered
    expect(chunks[0]?.charStart).toBe(0);
    expect(chunks.at(-1)?.charEnd).toBe(parsed.units[0]?.text.trimEnd().length);
  });

  it('cuts at sentence ends (and prefers paragraph starts) rather than inside a sentence', () => {
    const parsed = doc([textUnit(prose(80, 7))]);
    const chunks = chunkDocument(parsed);
    for (const chunk of chunks.slice(0, -1)) expect(chunk.text.endsWith('.')).toBe(true);
    const paragraphEnds = chunks
      .slice(0, -1)
      .filter((c) => (parsed.units[0]?.text.slice(c.charEnd, c.charEnd + 2) ?? '') === '\n\n');
    expect(paragraphEnds.length).toBeGreaterThan(chunks.length / 2);
  });

  it('reports token counts within 2% of counting the chunk text whole', () => {
    const parsed = doc([textUnit(prose(60, 3))]);
    for (const chunk of chunkDocument(parsed)) {
      const exact = bpeCount(chunk.text);
      expect(Math.abs(chunk.tokenCount - exact)).toBeLessThanOrEqual(Math.max(3, exact * 0.02));
    }
  });

  it('never crosses units and carries page, heading path and context prefix', () => {
    const parsed = doc(
      [
        textUnit(prose(3, 1), { page: 1 }),
        textUnit(prose(3, 2), { page: 2 }),
        textUnit('Short section.', { headingPath: ['Install', 'Linux'] }),
        textUnit('   \n  '),
      ],
      'Manual',
    );
    const chunks = chunkDocument(parsed);
    expectTextOffsets(parsed, chunks);
    expect(chunks.map((c) => c.unitOrdinal)).toEqual([0, 1, 2]);
    expect(chunks.map((c) => c.page)).toEqual([1, 2, null]);
    expect(chunks[2]).toMatchObject({ headingPath: 'Install > Linux', contextPrefix: 'Manual — Install > Linux' });
    expect(chunks[0]).toMatchObject({ headingPath: null, contextPrefix: 'Manual', rowStart: null, sheet: null });
    expect(chunkDocument(doc([textUnit('x')], null), { filename: 'a.txt' })[0]?.contextPrefix).toBe('a.txt');
  });

  it('hard-splits only an over-long run without sentence or line breaks', () => {
    const line = Array.from({ length: 30_000 }, (_, i) => `w${i % 977}`).join(' ');
    const parsed = doc([textUnit(`Intro sentence. ${line}`)]);
    const chunks = chunkDocument(parsed);
    expectTextOffsets(parsed, chunks);
    expect(chunks.length).toBeGreaterThan(30);
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(500);
    // word-aligned cuts
    for (const chunk of chunks.slice(1)) expect(parsed.units[0]?.text[chunk.charStart - 1]).toMatch(/\s/);
  });

  it('splits a multi-megabyte single line without spaces quickly and within budget', () => {
    const blob = 'x9Q'.repeat(1_000_000);
    const parsed = doc([textUnit(blob)]);
    const started = performance.now();
    const chunks = chunkDocument(parsed);
    expect(performance.now() - started).toBeLessThan(15_000);
    expectTextOffsets(parsed, chunks);
    expect(chunks.map((c) => c.text).join('').length).toBeGreaterThanOrEqual(blob.length);
    for (const chunk of chunks) expect(chunk.tokenCount).toBeLessThanOrEqual(500);
  });

  it('never separates a surrogate pair', () => {
    const parsed = doc([textUnit('😀'.repeat(5000))]);
    for (const chunk of chunkDocument(parsed)) {
      expect(chunk.text).not.toMatch(/^[\udc00-\udfff]|[\ud800-\udbff]$/);
    }
  });

  it('trims Unicode spaces like String.prototype.trim (found by the property below)', () => {
    for (const space of ['\u3000', '\u2003', '\u202f', '\ufeff', '\u1680', '\u2029']) {
      const chunks = chunkDocument(doc([textUnit(`${space}!${space}`)]), { targetTokens: 20, overlapTokens: 2 });
      expect(chunks.map((c) => c.text)).toEqual(['!']);
      expect(chunks[0]?.charStart).toBe(1);
    }
  });

  it('keeps the offsets rule for arbitrary text (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 3000 }),
        fc.integer({ min: 20, max: 300 }),
        (text, target) => {
          const parsed = doc([textUnit(text)]);
          const chunks = chunkDocument(parsed, { targetTokens: target, overlapTokens: Math.floor(target / 10) });
          for (const chunk of chunks) {
            if (parsed.units[0]?.text.slice(chunk.charStart, chunk.charEnd) !== chunk.text) return false;
            if (chunk.text.trim() === '' || chunk.text.trim() !== chunk.text) return false;
          }
          return text.trim() === '' ? chunks.length === 0 : chunks.length > 0;
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe('chunkDocument on sheet units', () => {
  const sheet = (rowCount: number, header = ['Name', 'City', 'Amount']) =>
    buildSheetUnit(
      0,
      'Q1',
      [{ position: 1, cells: header }].concat(
        Array.from({ length: rowCount }, (_, i) => ({
          position: i + 2,
          cells: [`person ${i}`, `city ${i % 17}`, String(i * 3)],
        })),
      ),
    );

  it('repeats the header in every chunk and packs whole rows with their row range', () => {
    const unit = sheet(400);
    expect(unit).not.toBeNull();
    if (!unit) return;
    const parsed: ParsedDocument = { kind: 'xlsx', title: 'Book', units: [unit], pageCount: 1, warnings: [] };
    const chunks = chunkDocument(parsed);
    expect(chunks.length).toBeGreaterThan(3);
    let expectedRow = 1;
    for (const chunk of chunks) {
      expect(chunk.repeatedHeader).toBe('Name | City | Amount');
      expect(chunk.text).toBe(`Name | City | Amount\n${unit.text.slice(chunk.charStart, chunk.charEnd)}`);
      expect(chunk.rowStart).toBe(expectedRow);
      const lines = chunk.text.split('\n').slice(1);
      expect(lines.length).toBe((chunk.rowEnd ?? 0) - (chunk.rowStart ?? 0) + 1);
      expect(lines[0]).toBe(`person ${expectedRow - 1} | city ${(expectedRow - 1) % 17} | ${(expectedRow - 1) * 3}`);
      expect(chunk.tokenCount).toBeLessThanOrEqual(500);
      expect(Math.abs(chunk.tokenCount - bpeCount(chunk.text))).toBeLessThanOrEqual(
        Math.max(3, chunk.tokenCount * 0.03),
      );
      expect(chunk).toMatchObject({ sheet: 'Q1', page: null, contextPrefix: 'Book — Sheet: Q1' });
      expectedRow = (chunk.rowEnd ?? 0) + 1;
    }
    expect(expectedRow - 1).toBe(400);
  });

  it('repeats a wide header whole up to half the budget (its last column, often the total, keeps its name)', () => {
    const wide = Array.from({ length: 40 }, (_, i) => `Column ${i}`).concat('Totals');
    const unit = sheet(60, wide);
    if (!unit) throw new Error('no unit');
    const parsed: ParsedDocument = { kind: 'xlsx', title: 'Book', units: [unit], pageCount: 1, warnings: [] };
    const chunks = chunkDocument(parsed, { targetTokens: 500 });
    expect(chunks[0]?.repeatedHeader).toBe(wide.join(' | '));
    // Past half the budget the header is cut, so rows still fit.
    const wider = sheet(
      60,
      Array.from({ length: 120 }, (_, i) => `Column ${i}`),
    );
    if (!wider) throw new Error('no unit');
    const cut = chunkDocument({ ...parsed, units: [wider] }, { targetTokens: 500 });
    expect(cut[0]?.repeatedHeader?.endsWith(' …')).toBe(true);
    for (const chunk of cut) expect(chunk.tokenCount).toBeLessThanOrEqual(500);
  });

  it('repeats the nearest table header of a sheet that stacks two tables, not the first one', () => {
    const table = (period: string, from: number, count: number) => [
      { position: from, cells: ['In millions', '', `January–June ${period}`] },
      { position: from + 1, cells: ['', 'Sales', 'Profit'] },
      ...Array.from({ length: count }, (_, i) => ({
        position: from + 2 + i,
        cells: [`Segment ${period} ${i}`, String(1000 + i), String(i * 7)],
      })),
    ];
    const unit = buildSheetUnit(0, 'Results', [
      { position: 1, cells: ['Revenue and results'] },
      ...table('2023', 2, 120),
      ...table('2022', 200, 120),
      { position: 400, cells: ['(a) Note one', 'continued'] },
    ]);
    if (!unit) throw new Error('no unit');
    const chunks = chunkDocument({ kind: 'xlsx', title: 'Book', units: [unit], pageCount: 1, warnings: [] });
    const lastYearRows = chunks.filter((c) => c.text.includes('Segment 2022'));
    expect(lastYearRows.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.text).toBe(`${chunk.repeatedHeader}\n${unit.text.slice(chunk.charStart, chunk.charEnd)}`);
      expect(chunk.tokenCount).toBeLessThanOrEqual(500);
      expect(chunk.repeatedHeader?.startsWith('Revenue and results')).toBe(true);
      const rows = chunk.text.split('\n').filter((l) => l.startsWith('Segment'));
      const periods = chunk.text.split('\n').filter((l) => l.startsWith('In millions'));
      // Every data row sits below the caption of its own period, and the last caption above a row is its own.
      for (const row of rows) {
        const before = chunk.text.slice(0, chunk.text.indexOf(row));
        const caption = before
          .split('\n')
          .filter((l) => l.startsWith('In millions'))
          .at(-1);
        expect(caption, row).toContain(row.includes('2022') ? '2022' : '2023');
      }
      expect(periods.length).toBeGreaterThan(0);
    }
    // The 2022 table starts its own chunk: no chunk mixes the two periods' rows.
    expect(chunks.some((c) => c.text.includes('Segment 2023') && c.text.includes('Segment 2022'))).toBe(false);
  });

  it('keeps the first header when later rows only look like headers (text-only rows, notes)', () => {
    const unit = buildSheetUnit(0, 'S', [
      { position: 1, cells: ['Item', 'Price'] },
      ...Array.from({ length: 200 }, (_, i) => ({
        position: i + 2,
        // every third row a text-only data row: it must not relabel the rows below it
        cells: i % 3 === 0 ? [`item ${i}`, 'on request'] : [`item ${i}`, String(i)],
      })),
      { position: 300, cells: ['Year', '2022'] },
      { position: 301, cells: ['Source', 'internal ledger'] },
    ]);
    if (!unit) throw new Error('no unit');
    const chunks = chunkDocument({ kind: 'xlsx', title: null, units: [unit], pageCount: 1, warnings: [] });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.repeatedHeader).toBe('Item | Price');
  });

  it('splits a single over-long row, keeping its row number and the header', () => {
    const unit = buildSheetUnit(0, 'S', [
      { position: 1, cells: ['Doc'] },
      { position: 2, cells: [prose(30, 5)] },
    ]);
    if (!unit) throw new Error('no unit');
    const chunks = chunkDocument({ kind: 'csv', title: null, units: [unit], pageCount: 1, warnings: [] });
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk).toMatchObject({ rowStart: 1, rowEnd: 1, repeatedHeader: 'Doc' });
      expect(chunk.text).toBe(`Doc\n${unit.text.slice(chunk.charStart, chunk.charEnd)}`);
      expect(chunk.tokenCount).toBeLessThanOrEqual(500);
    }
  });

  it('emits a header-only sheet as one chunk without a row range', () => {
    const unit = sheet(0);
    if (!unit) throw new Error('no unit');
    const chunks = chunkDocument({ kind: 'csv', title: null, units: [unit], pageCount: 1, warnings: [] });
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({
      text: 'Name | City | Amount',
      rowStart: null,
      repeatedHeader: null,
      charStart: 0,
    });
  });
});

describe('countTokens', () => {
  it('equals the BPE count on ordinary text and stays close on long runs', () => {
    const text = prose(50, 9);
    expect(countTokens(text)).toBe(bpeCount(text));
    const run = 'abcdefghij'.repeat(200);
    const approx = countTokens(run);
    const exact = bpeCount(run);
    expect(approx).toBeGreaterThanOrEqual(exact - 1);
    expect(approx).toBeLessThanOrEqual(exact * 1.6 + 5);
  });
});

describe('buildContextPrefix', () => {
  it('joins title, heading path and sheet', () => {
    expect(buildContextPrefix('T', textUnit('x', { headingPath: ['A', 'B'] }))).toBe('T — A > B');
    expect(buildContextPrefix(null, textUnit('x', { sheet: 'S' }))).toBe('Sheet: S');
  });
});
