/**
 * Legacy Excel (.xls, BIFF) and OpenDocument spreadsheets (.ods) → one sheet unit per worksheet, through SheetJS
 * (`@e965/xlsx`, a maintained build of the current SheetJS release; the `xlsx` 0.18.5 on npm is stale and has
 * published advisories). ODS packages pass the zip guard first.
 */

import * as XLSX from '@e965/xlsx';
import { IngestError } from '../errors';
import type { ParsedDocument, ParsedUnit } from '../types';
import { inspectZip, type ZipLimits } from '../zip-guard';
import { buildSheetUnit } from './sheet-unit';

/** The cell text SheetJS would show (`w`, its formatted value), else the raw value. */
function cellText(cell: XLSX.CellObject | undefined): string {
  if (!cell) return '';
  if (typeof cell.w === 'string') return cell.w;
  if (cell.v === undefined || cell.v === null) return '';
  if (cell.v instanceof Date) return cell.v.toISOString().slice(0, 10);
  return String(cell.v);
}

export async function parseLegacySheet(
  bytes: Uint8Array,
  kind: 'xls' | 'ods',
  options: { zipLimits?: Partial<ZipLimits> } = {},
): Promise<ParsedDocument> {
  if (kind === 'ods') await inspectZip(bytes, { limits: options.zipLimits });
  let workbook: XLSX.WorkBook;
  try {
    workbook = XLSX.read(bytes, { type: 'array', cellFormula: false, cellHTML: false, cellStyles: false, WTF: false });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/password-protected|ODS Encryption/i.test(message))
      throw new IngestError('password-protected', 'password-protected');
    throw new IngestError('malformed', `malformed ${kind.toUpperCase()}: ${message.slice(0, 300)}`, { cause: error });
  }
  const units: ParsedUnit[] = [];
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name];
    if (!sheet?.['!ref']) continue;
    const range = XLSX.utils.decode_range(sheet['!ref']);
    const rows: { position: number; cells: string[] }[] = [];
    const lastRow = Math.min(range.e.r, range.s.r + 1_048_575);
    const lastCol = Math.min(range.e.c, range.s.c + 16_383);
    for (let r = range.s.r; r <= lastRow; r++) {
      const cells: string[] = [];
      for (let c = 0; c <= lastCol; c++) cells.push(cellText(sheet[XLSX.utils.encode_cell({ r, c })]));
      if (cells.some((cell) => cell.trim() !== '')) rows.push({ position: r + 1, cells });
    }
    const unit = buildSheetUnit(units.length, name, rows);
    if (unit) units.push(unit);
  }
  if (units.length === 0) throw new IngestError('no-text', 'no extractable text (every sheet is empty)');
  const title = workbook.Props?.Title?.trim() || null;
  return { kind, title, units, pageCount: units.length, warnings: [] };
}
