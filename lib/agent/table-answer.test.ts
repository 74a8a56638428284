import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument } from '../../test/support/agent/fixtures';
import { stateWith } from '../../test/support/agent/state';
import { extractiveAnswer } from './extractive';
import { bestTableRow, isDataRow, tableRows } from './table-answer';
import { validateDraft } from './validate';

const SHEET = [
  'Revenue and results',
  'In millions of CHF |  |  | January–June 2023',
  ' | Sales | Trading operating profit | Restructuring costs',
  'Zone NA | 12553 | 2632 | -44',
  'Zone EUR | 9467 | 1373 | -140',
  'Total | 45580 | 6684 | -87',
].join('\n');

function sheetChunk() {
  const doc = makeDocument({ filename: 'segments.xlsx', mime: 'application/vnd.ms-excel' });
  return makeChunk(doc, 0, SHEET, { sheet: 'Segments' });
}

describe('tableRows', () => {
  it('separates header lines from data rows', () => {
    const rows = tableRows(SHEET);
    expect(rows.map((r) => r.row.cells[0])).toEqual(['Zone NA', 'Zone EUR', 'Total']);
    expect(rows[0]?.headers.map((h) => h.cells[1])).toEqual(['', 'Sales']);
  });
  it('a header row is not a data row', () => {
    expect(isDataRow(['', 'Sales', 'Profit'])).toBe(false);
    expect(isDataRow(['Item', 'Price', '# In stock'])).toBe(false);
    expect(isDataRow(['Bananas', '1.89', '6'])).toBe(true);
  });
  it('reads Markdown tables with a separator line', () => {
    const rows = tableRows('Item | Price\n---|---\nJuicy Apples | 1.99\nBananas | 1.89');
    expect(rows.map((r) => r.row.cells[0])).toEqual(['Juicy Apples', 'Bananas']);
    expect(rows[0]?.headers[0]?.cells).toEqual(['Item', 'Price']);
  });
});

describe('table answers', () => {
  it('answers from the matching row and column, quoting the row, never the header alone', () => {
    const chunk = sheetChunk();
    const state = stateWith({
      question: 'What were Zone EUR restructuring costs in January–June 2023?',
      opened: [chunk],
    });
    const hit = bestTableRow(state.opened, { terms: ['zone', 'eur', 'restructur', 'cost'], weight: () => 1 });
    expect(hit?.label).toBe('Zone EUR');
    expect(hit?.value).toBe('-140');
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('-140');
    expect(ex.answer).toContain('"Zone EUR | 9467 | 1373 | -140" [1]');
    expect(ex.answer).toContain('sheet Segments');
    expect(ex.answer).not.toMatch(/"\s*\|\s*Sales/);
    expect(validateDraft(ex.answer, state, { skipProcess: true }).passed).toBe(true);
  });

  it('a row the table does not hold is declined, not answered from another row', () => {
    const state = stateWith({ question: 'What were Zone LATAM sales in January–June 2021?', opened: [sheetChunk()] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).not.toMatch(/\[\d+\]/);
    expect(ex.answer).toContain('Insufficient documentation');
  });
});
