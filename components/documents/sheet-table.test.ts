import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkDocument } from '@/lib/ingest/chunker';
import { buildSheetUnit, cleanCell } from '@/lib/ingest/parsers/sheet-unit';
import { locateSheetChunk, parseSheetTable, sheetHeaderLines, sheetQuoteTable, unitHeaderLines } from './sheet-table';

const cellText = (row: { cells: { text: string }[] }) => row.cells.map((c) => c.text);

function sheetChunks(rows: string[][], targetTokens = 500) {
  const unit = buildSheetUnit(
    0,
    'Sales',
    rows.map((cells, i) => ({ position: i + 1, cells })),
  );
  if (!unit) throw new Error('no unit');
  const chunks = chunkDocument(
    { kind: 'xlsx', title: null, units: [unit], pageCount: 1, warnings: [] },
    { targetTokens },
  );
  return { unit, chunks };
}

describe('parseSheetTable', () => {
  it('reads the header and rows of a chunk written by the chunker', () => {
    const { unit, chunks } = sheetChunks([
      ['Region', 'Quarter', 'Revenue'],
      ['North', 'Q1', '1,200'],
      ['South', 'Q1', '950'],
    ]);
    const chunk = chunks[0];
    if (!chunk) throw new Error('no chunk');
    const headerLines = sheetHeaderLines({ ...chunk, unitText: unit.text });
    expect(headerLines).toBe(1);
    const table = parseSheetTable(chunk.text, { headerLines });
    expect(table && cellText(table.columns)).toEqual(['Region', 'Quarter', 'Revenue']);
    expect(table?.rows.map(cellText)).toEqual([
      ['North', 'Q1', '1,200'],
      ['South', 'Q1', '950'],
    ]);
    expect(table?.titleRows).toEqual([]);
  });

  it('keeps title rows above the column header as a caption, in every chunk', () => {
    const rows = [['Quarterly sales'], ['Region', 'Quarter', 'Revenue', 'Notes']];
    for (let i = 0; i < 200; i++) rows.push([`Region ${i}`, `Q${(i % 4) + 1}`, String(i * 10), 'ok']);
    const { unit, chunks } = sheetChunks(rows, 120);
    expect(chunks.length).toBeGreaterThan(2);
    for (const chunk of chunks) {
      const lines = sheetHeaderLines({ ...chunk, unitText: unit.text });
      expect(lines).toBe(2);
      const table = parseSheetTable(chunk.text, { headerLines: lines });
      expect(table?.titleRows.map(cellText)).toEqual([['Quarterly sales']]);
      expect(table && cellText(table.columns)).toEqual(['Region', 'Quarter', 'Revenue', 'Notes']);
      // without the count, the same header is found the way ingestion finds it
      expect(parseSheetTable(chunk.text)?.columns).toEqual(table?.columns);
    }
    expect(unitHeaderLines(unit.text, chunks)).toBe(2);
  });

  it('gives cell offsets that point at the cell text', () => {
    const text = 'A | B\n1 | two\n | x';
    const table = parseSheetTable(text);
    for (const row of [table?.columns, ...(table?.rows ?? [])]) {
      for (const cell of row?.cells ?? []) expect(text.slice(cell.start, cell.end)).toBe(cell.text);
    }
    expect(table?.rows[1]?.cells.map((c) => c.text)).toEqual(['', 'x']);
    expect(table?.width).toBe(2);
  });

  it.each([
    ['plain prose', 'This is a sentence.\nAnd another one.'],
    ['one column', 'Name\nAlice\nBob'],
    ['header only', 'A | B'],
    ['empty', ''],
  ])('is null for %s', (_, text) => {
    expect(parseSheetTable(text)).toBeNull();
  });

  it('sheetHeaderLines is null for a text chunk (an exact slice of its unit)', () => {
    const unitText = 'Intro.\nMore text here.';
    expect(sheetHeaderLines({ text: unitText.slice(7), unitText, charStart: 7, charEnd: unitText.length })).toBeNull();
    expect(sheetHeaderLines({ text: 'x', unitText: null, charStart: 0, charEnd: 1 })).toBeNull();
    expect(sheetHeaderLines({ text: 'x', unitText: 'abc', charStart: 2, charEnd: 9 })).toBeNull();
  });

  it('property: any grid written by the ingestion code parses back to the same cells', () => {
    const cell = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 .,]{0,10}[A-Za-z0-9]$/);
    fc.assert(
      fc.property(
        fc
          .integer({ min: 2, max: 6 })
          .chain((width) =>
            fc.array(fc.array(cell, { minLength: width, maxLength: width }), { minLength: 2, maxLength: 80 }),
          ),
        (grid) => {
          const { unit, chunks } = sheetChunks(grid, 300);
          const bodies: string[][] = [];
          for (const chunk of chunks) {
            const table = parseSheetTable(chunk.text, {
              headerLines: sheetHeaderLines({ ...chunk, unitText: unit.text }),
            });
            expect(table && cellText(table.columns)).toEqual(grid[0]?.map(cleanCell));
            for (const row of table?.rows ?? []) bodies.push(cellText(row));
          }
          const clean = grid.map((row) => row.map(cleanCell));
          expect(bodies).toEqual(clean.slice(1));
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('locateSheetChunk', () => {
  it('moves a quote from chunk offsets to unit offsets and drops one in the header', () => {
    const rows = [['Region', 'Revenue']];
    for (let i = 0; i < 60; i++) rows.push([`Region ${i}`, String(i)]);
    const { unit, chunks } = sheetChunks(rows, 80);
    const chunk = chunks[1];
    if (!chunk) throw new Error('need two chunks');
    const lastLine = chunk.text.split('\n').at(-1) ?? '';
    const quoteStart = chunk.text.length - lastLine.length;
    const quoteEnd = chunk.text.length;
    const located = locateSheetChunk({ unitText: unit.text, chunkText: chunk.text, ...chunk, quoteStart, quoteEnd });
    expect(located?.chunk).toEqual({ start: chunk.charStart, end: chunk.charEnd });
    const q = located?.quote;
    expect(q && unit.text.slice(q.start, q.end)).toBe(lastLine);
    expect(lastLine).toMatch(/^Region \d+ \| \d+$/);
    const inHeader = locateSheetChunk({
      unitText: unit.text,
      chunkText: chunk.text,
      ...chunk,
      quoteStart: 0,
      quoteEnd: 6,
    });
    expect(inHeader?.quote).toBeNull();
  });
});

describe('sheetQuoteTable', () => {
  const text = 'Team | City | Cups\nBlues | STL | 1\nLeafs | TOR | 13\nBruins | BOS | 6';
  it('keeps the header and the quoted rows only', () => {
    const start = text.indexOf('Leafs');
    const table = sheetQuoteTable({ text, quote: { start, end: start + 5 } }, 1);
    expect(table && cellText(table.columns)).toEqual(['Team', 'City', 'Cups']);
    expect(table?.rows.map(cellText)).toEqual([['Leafs', 'TOR', '13']]);
  });
  it('is null for a quote in the header, no quote, or text that is no table', () => {
    expect(sheetQuoteTable({ text, quote: { start: 0, end: 4 } }, 1)).toBeNull();
    expect(sheetQuoteTable({ text, quote: null }, 1)).toBeNull();
    expect(sheetQuoteTable({ text: 'plain words', quote: { start: 0, end: 5 } }, null)).toBeNull();
  });
});
