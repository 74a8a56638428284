/** XLSX → one sheet unit per worksheet (exceljs), after the zip guard has checked the package. */

import ExcelJS from 'exceljs';
import { IngestError } from '../errors';
import type { ParsedDocument, ParsedUnit, ProgressCallback } from '../types';
import { inspectZip, titleFromCoreProperties, type ZipLimits } from '../zip-guard';
import { buildSheetUnit } from './sheet-unit';

function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  return Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(15)));
}

function formatDate(value: Date): string {
  if (Number.isNaN(value.getTime())) return '';
  const iso = value.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.slice(0, 19).replace('T', ' ');
}

/**
 * The text a cell shows: formula cells give their cached result (never the formula), dates ISO 8601, rich text
 * its plain text, hyperlinks their text, errors their code (#N/A...).
 */
export function formatCellValue(value: ExcelJS.CellValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return formatNumber(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return formatDate(value);
  if ('richText' in value) return value.richText.map((part) => part.text).join('');
  if ('formula' in value || 'sharedFormula' in value) {
    const result: unknown = value.result;
    if (result === undefined || result === null) return '';
    return formatCellValue(result as ExcelJS.CellValue);
  }
  if ('error' in value) return value.error;
  if ('hyperlink' in value) return formatCellValue(value.text as ExcelJS.CellValue);
  return '';
}

/**
 * Parses an XLSX workbook: every worksheet with at least one non-empty row becomes a unit (header = first
 * non-empty row). Refuses zip bombs and DTD/entity declarations before exceljs sees the bytes.
 */
export async function parseXlsx(
  bytes: Uint8Array,
  options: { onProgress?: ProgressCallback; zipLimits?: Partial<ZipLimits> } = {},
): Promise<ParsedDocument> {
  const inspection = await inspectZip(bytes, { limits: options.zipLimits, keepText: ['docProps/core.xml'] });
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ArrayBuffer);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new IngestError('malformed', `malformed XLSX: ${message.slice(0, 300)}`, { cause: error });
  }
  const units: ParsedUnit[] = [];
  const worksheets = workbook.worksheets;
  worksheets.forEach((worksheet, index) => {
    const rows: { position: number; cells: string[] }[] = [];
    worksheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      const cells: string[] = [];
      for (let c = 1; c <= row.cellCount; c++) {
        const cell = row.getCell(c);
        cells.push(cell.type === ExcelJS.ValueType.Merge ? '' : formatCellValue(cell.value));
      }
      rows.push({ position: rowNumber, cells });
    });
    const unit = buildSheetUnit(units.length, worksheet.name, rows);
    if (unit) units.push(unit);
    options.onProgress?.({ stage: 'parsing', fraction: (index + 1) / worksheets.length });
  });
  if (units.length === 0) throw new IngestError('no-text', 'no extractable text (every sheet is empty)');
  return {
    kind: 'xlsx',
    title: titleFromCoreProperties(inspection.texts.get('docProps/core.xml')),
    units,
    pageCount: units.length,
    warnings: [],
  };
}
