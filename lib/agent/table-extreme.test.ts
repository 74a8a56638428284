import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument, NO_MODELS } from '../../test/support/agent/fixtures';
import { createMemoryCatalog } from '../../test/support/agent/memory-catalog';
import { createMemoryChunkIndex } from '../../test/support/agent/memory-chunk-index';
import { stateWith } from '../../test/support/agent/state';
import { extractiveAnswer } from './extractive';
import { extremeMetadataToRead } from './policy-extractive';
import { runAgent } from './run-agent';
import { addsUpToTotal, askedExtreme, cellNumber } from './table-extreme';
import { validateDraft } from './validate';

const CUPS = [
  'Stanley Cups |  | ',
  'Team | Location | Stanley Cups',
  'Blues | STL | 1',
  'Flyers | PHI | 2',
  'Maple Leafs | TOR | 13',
];

/** A breakdown with residual lines and a total, as a half-year report's segment sheet. */
const SEGMENTS = [
  'Analyses by segment',
  'In millions of CHF |  |  | January–June 2023',
  ' | Sales | Underlying trading operating profit | Trading operating profit',
  'Zone NA | 12553 | 2713 | 2632',
  'Zone EUR | 9467 | 1570 | 1373',
  'Zone GC | 2548 | 422 | 418',
  'Nespresso | 3128 | 678 | 672',
  'Other businesses | 137 | -17 | -17',
  'Unallocated items | 0 | -1164 | -1185',
  'Total | 27833 | 4202 | 3893',
  '(a) Inter-segment sales are not significant.',
];

const documents = new Map<string, ReturnType<typeof makeDocument>>();

function sheetChunk(lines: readonly string[], index = 0, sheet = 'Sheet1') {
  const doc = makeDocument({ filename: 'book.xlsx', mime: 'application/vnd.ms-excel' });
  documents.set(doc.documentId, doc);
  return makeChunk(doc, index, lines.join('\n'), { sheet });
}

function ask(question: string, chunks: ReturnType<typeof sheetChunk>[], chunkCount?: number) {
  const state = stateWith({ question, opened: chunks });
  // As get_document_metadata leaves it: the catalog's view of the document (memory-catalog.ts).
  if (chunkCount !== undefined)
    for (const c of chunks) {
      const doc = documents.get(c.documentId);
      if (!doc) continue;
      const { ownerId: _owner, status: _status, ...meta } = doc;
      state.metadata.set(c.documentId, { ...meta, chunkCount });
    }
  return { state, ex: extractiveAnswer(state, 'concise') };
}

describe('askedExtreme', () => {
  it('reads the direction and what the column must count', () => {
    expect(askedExtreme('Which team has won the most Stanley Cups?')).toMatchObject({
      direction: 'max',
      price: false,
    });
    expect(askedExtreme('Which region had the lowest sales in 2023?')?.direction).toBe('min');
    expect(askedExtreme('Who scored the highest number of goals?')?.focus.length).toBeGreaterThan(0);
    expect(askedExtreme('Which plan is the cheapest?')).toEqual({
      direction: 'min',
      focus: [],
      price: true,
      limit: false,
    });
    expect(askedExtreme('What is the most expensive item?')).toEqual({
      direction: 'max',
      focus: [],
      price: true,
      limit: false,
    });
    expect(askedExtreme('Which drone has the maximum speed?')).toMatchObject({ direction: 'max', limit: true });
  });

  it('asks no extreme for bounds, bare superlatives and non-questions', () => {
    expect(askedExtreme('Which files have at least 5 pages?')).toBeNull();
    expect(askedExtreme('Which city is the largest?')).toBeNull();
    expect(askedExtreme('What is the highest number?')).toBeNull();
    expect(askedExtreme('The most goals were scored in 2019.')).toBeNull();
    // "maximum" names the attribute of one row: a lookup, not a ranking.
    expect(askedExtreme('What is the maximum speed of the drone?')).toBeNull();
    expect(askedExtreme('What is the top speed?')).toBeNull();
  });
});

describe('cellNumber', () => {
  it('reads plain numbers in the usual written forms', () => {
    expect(cellNumber('12,553')).toBe(12553);
    expect(cellNumber('12 553')).toBe(12553);
    expect(cellNumber('(81)')).toBe(-81);
    expect(cellNumber('−4')).toBe(-4);
    expect(cellNumber('45%')).toBe(45);
    expect(cellNumber('$1,200.50')).toBe(1200.5);
    expect(cellNumber('1.234.567,5')).toBe(1234567.5);
    expect(cellNumber('3,5')).toBe(3.5);
  });

  it('reads no number from ranges, bounds, codes and words', () => {
    for (const cell of ['293-375', 'max 0.025', 'NW-2001', 'n/a', 'about 5', '1e5', ''])
      expect(cellNumber(cell)).toBeNull();
  });

  it('round-trips integers written with thousands separators', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e9, max: 1e9 }), (n) => {
        expect(cellNumber(n.toLocaleString('en-US'))).toBe(n);
      }),
    );
  });
});

describe('addsUpToTotal', () => {
  it('holds when the parts sum to the total, to their rounding', () => {
    expect(addsUpToTotal([1, 2, 13], 16)).toBe(true);
    expect(addsUpToTotal([10, 20, 30], 61)).toBe(true);
    expect(addsUpToTotal([10, 20], 40)).toBe(false);
    expect(addsUpToTotal([10, 20], null)).toBe(false);
  });
});

describe('extreme rows in extractive answers', () => {
  it('answers a superlative from the whole table, once the document is known to have one chunk', () => {
    const chunk = sheetChunk(CUPS);
    // The table runs to the chunk's end: the document's chunk count must be read first.
    const before = stateWith({ question: 'Which team has won the most Stanley Cups?', opened: [chunk] });
    expect(extremeMetadataToRead(before)).toMatch(/^r\d+$/);
    const { state, ex } = ask('Which team has won the most Stanley Cups?', [chunk], 1);
    expect(extremeMetadataToRead(state)).toBeNull();
    expect(ex.answer).toContain('Maple Leafs');
    expect(ex.answer).toContain('13');
    expect(ex.answer).toContain('the highest in its column');
    expect(validateDraft(ex.answer, state, { skipProcess: true }).passed).toBe(true);
    const fewest = ask('Which team has the fewest Stanley Cups?', [sheetChunk(CUPS)], 1);
    expect(fewest.ex.answer).toContain('Blues');
  });

  it('does not rank a table that may go on in the next chunk', () => {
    // Chunk 0 of 2: rows out of view could hold the extreme.
    const { ex } = ask('Which team has won the most Stanley Cups?', [sheetChunk(CUPS)], 2);
    expect(ex.answer).not.toContain('Maple Leafs');
    // A later chunk of a sheet repeats the caption above the rows it continues: no proof of the table's start.
    const later = ask('Which team has won the most Stanley Cups?', [sheetChunk(CUPS, 3)], 4);
    expect(later.ex.answer).not.toContain('Maple Leafs');
  });

  it('ranks members only: totals and residual lines do not compete, and the total proves the rows whole', () => {
    // Chunk 5 of 9 of its sheet, but the rows add up to the table's total.
    const chunk = sheetChunk(SEGMENTS, 5);
    const low = ask('Which segment had the lowest sales in 2023?', [chunk]);
    expect(low.ex.answer).toContain('Zone GC');
    expect(low.ex.answer).not.toMatch(/Unallocated|Other businesses|Total/);
    const high = ask('Which segment had the highest sales in January–June 2023?', [sheetChunk(SEGMENTS, 5)]);
    expect(high.ex.answer).toContain('Zone NA');
    expect(high.ex.answer).toContain('12553');
  });

  it('ranks only the rows of the asked kind when some labels name it', () => {
    const { ex } = ask('Which zone had the lowest trading operating profit?', [sheetChunk(SEGMENTS, 5)]);
    // "Trading operating profit", not "Underlying trading operating profit".
    expect(ex.answer).toContain('Zone GC');
    expect(ex.answer).toContain('418');
    // Nespresso's is lower, but Nespresso is no zone.
    const rows = SEGMENTS.slice(0, 6).concat('Nespresso | 3128 | 678 | 300');
    const zones = ask('Which zone had the lowest trading operating profit?', [sheetChunk(rows)], 1);
    expect(zones.ex.answer).toContain('Zone GC');
    const any = ask('Which segment had the lowest trading operating profit?', [sheetChunk(rows)], 1);
    expect(any.ex.answer).toContain('Nespresso');
  });

  it('declines rather than guess: a tie, an unreadable cell, another year, a named row', () => {
    const tie = ask('Which team has won the most Stanley Cups?', [sheetChunk([...CUPS, 'Canadiens | MTL | 13'])], 1);
    expect(tie.ex.answer).not.toContain('the highest in its column');
    const range = ask(
      'Which team has won the most Stanley Cups?',
      [sheetChunk([...CUPS, 'Canadiens | MTL | 20-24'])],
      1,
    );
    expect(range.ex.answer).not.toContain('the highest in its column');
    const year = ask('Which segment had the highest sales in 2022?', [sheetChunk(SEGMENTS, 5)]);
    expect(year.ex.answer).not.toContain('Zone NA');
    // A question naming a row is a lookup of that row, not a ranking.
    const named = ask('What is the highest Stanley Cups count of the Flyers?', [sheetChunk(CUPS)], 1);
    expect(named.ex.answer).not.toContain('the highest in its column');
  });

  it('does not answer a superlative from a row a generic word names when no whole table ranks it', () => {
    // Chunk 0 of 3, no total: not provably whole; "zone" must not pick the first Zone row.
    const rows = SEGMENTS.filter((l) => !l.startsWith('Total') && !l.startsWith('(a)'));
    const { ex } = ask('Which zone had the lowest sales?', [sheetChunk(rows, 0)], 3);
    expect(ex.answer).not.toContain('Zone NA');
    expect(ex.answer).not.toMatch(/\[\d+\]/);
  });
});

describe('superlatives through runAgent (extractive mode)', () => {
  async function run(question: string, chunkCount: number) {
    const doc = makeDocument({ filename: 'stanley-cups.csv', mime: 'text/csv', chunkCount });
    const chunk = makeChunk(doc, 0, CUPS.join('\n'), { sheet: 'stanley-cups' });
    doc.chunkIds = [chunk.chunkId];
    const index = createMemoryChunkIndex();
    await index.upsert([chunk]);
    return runAgent(
      { question, ownerId: doc.ownerId, mode: 'agent', style: 'concise' },
      { index, catalog: createMemoryCatalog([doc]), embedder: null, models: NO_MODELS },
    );
  }

  it("reads the document's size, then answers from the whole table and passes the gate", async () => {
    const result = await run('Which team has won the most Stanley Cups?', 1);
    expect(result.trace.some((e) => e.type === 'tool_call' && e.tool === 'get_document_metadata')).toBe(true);
    expect(result.validated).toBe(true);
    expect(result.answer).toContain('Maple Leafs');
    expect(result.citations).toHaveLength(1);
  });

  it('does not rank a table its document continues elsewhere', async () => {
    const result = await run('Which team has won the most Stanley Cups?', 2);
    expect(result.answer).not.toContain('Maple Leafs');
    expect(result.confidence).toBe('low');
  });
});
