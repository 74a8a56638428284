import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { formatCellValue, parseXlsx } from './xlsx';

async function workbookBytes(build: (workbook: ExcelJS.Workbook) => void): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  build(workbook);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

describe('formatCellValue', () => {
  it('indexes formula results, not formulas, and formats dates, rich text, links and errors', () => {
    expect(formatCellValue({ formula: 'SUM(A1:A2)', result: 42 })).toBe('42');
    expect(formatCellValue({ sharedFormula: 'A1', result: 'x' } as ExcelJS.CellValue)).toBe('x');
    expect(formatCellValue({ formula: '1/0', result: { error: '#DIV/0!' } })).toBe('#DIV/0!');
    expect(formatCellValue({ formula: 'NOW()' } as ExcelJS.CellValue)).toBe('');
    expect(formatCellValue(new Date(Date.UTC(2024, 1, 29)))).toBe('2024-02-29');
    expect(formatCellValue(new Date(Date.UTC(2024, 1, 29, 13, 5)))).toBe('2024-02-29 13:05:00');
    expect(formatCellValue({ richText: [{ text: 'bold ' }, { text: 'move' }] })).toBe('bold move');
    expect(formatCellValue({ text: 'site', hyperlink: 'https://x' })).toBe('site');
    expect(formatCellValue(0.1 + 0.2)).toBe('0.3');
    expect(formatCellValue(true)).toBe('TRUE');
  });
});

describe('parseXlsx', () => {
  it('makes one unit per non-empty sheet with numbered data rows and the header kept apart', async () => {
    const bytes = await workbookBytes((workbook) => {
      workbook.title = 'Budget';
      const sheet = workbook.addWorksheet('Q1');
      sheet.addRow(['Item', 'Cost', 'Date']);
      sheet.addRow(['Paper', 3.5, new Date(Date.UTC(2024, 0, 2))]);
      sheet.addRow([]);
      sheet.addRow(['Ink', { formula: 'B2*2', result: 7 }, null]);
      workbook.addWorksheet('Empty');
      workbook.addWorksheet('Notes').addRow([{ richText: [{ text: 'rich ' }, { text: 'note' }] }]);
    });
    const parsed = await parseXlsx(bytes);
    expect(parsed.kind).toBe('xlsx');
    expect(parsed.title).toBe('Budget');
    expect(parsed.units.map((u) => u.sheet)).toEqual(['Q1', 'Notes']);
    const q1 = parsed.units[0];
    expect(q1?.header).toBe('Item | Cost | Date');
    expect(q1?.text).toBe('Item | Cost | Date\nPaper | 3.5 | 2024-01-02\nInk | 7');
    expect(q1?.rows?.map((r) => r.rowNumber)).toEqual([1, 3]);
    for (const row of q1?.rows ?? []) expect(q1?.text.slice(row.charStart, row.charEnd)).not.toContain('\n');
    expect(parsed.units[1]?.text).toBe('rich note');
  });

  it('keeps title rows above the column header in the header block and drops empty leading columns', async () => {
    const bytes = await workbookBytes((workbook) => {
      const sheet = workbook.addWorksheet('Cups');
      sheet.getCell('B1').value = 'Stanley Cups';
      sheet.getRow(2).values = [null, 'Team', 'City', 'Cups'];
      sheet.getRow(3).values = [null, 'Blues', 'STL', 1];
    });
    const unit = (await parseXlsx(bytes)).units[0];
    expect(unit?.header).toBe('Stanley Cups\nTeam | City | Cups');
    expect(unit?.rows).toEqual([{ rowNumber: 1, charStart: 32, charEnd: 47 }]);
    expect(unit?.text.slice(32, 47)).toBe('Blues | STL | 1');
  });

  it('fails a workbook whose sheets are all empty', async () => {
    const bytes = await workbookBytes((workbook) => {
      workbook.addWorksheet('A');
    });
    await expect(parseXlsx(bytes)).rejects.toMatchObject({ code: 'no-text' });
  });
});
