/** Builds a sheet unit (header block + one line per data row, with row locations) from cell strings. */

import type { ParsedRow, ParsedUnit } from '../types';

export const CELL_SEPARATOR = ' | ';
/** Rows scanned to find the column header. */
const HEADER_SCAN_ROWS = 20;

/** Cell text on one line: whitespace (newlines, tabs) collapsed. */
export function cleanCell(value: string): string {
  return value.replace(/[\s\u00a0]+/g, ' ').trim();
}

function filledCount(cells: readonly string[]): number {
  let n = 0;
  for (const cell of cells) if (cell !== '') n++;
  return n;
}

/**
 * One sheet → one unit, or null for a sheet without any non-empty cell. Columns empty in every row are dropped
 * from the left. The column header is the first row, among the first 20 non-empty ones, filled at least half as
 * much as the fullest of them; title rows above it stay in the header block (repeated with every chunk). Data rows
 * are numbered from the column header's position (see ParsedRow).
 */
export function buildSheetUnit(
  ordinal: number,
  sheet: string,
  rows: Iterable<{ position: number; cells: readonly string[] }>,
): ParsedUnit | null {
  const cleaned: { position: number; cells: string[] }[] = [];
  let leading = Number.POSITIVE_INFINITY;
  for (const row of rows) {
    const cells = row.cells.map(cleanCell);
    while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
    if (cells.length === 0) continue;
    const first = cells.findIndex((c) => c !== '');
    leading = Math.min(leading, first);
    cleaned.push({ position: row.position, cells });
  }
  if (cleaned.length === 0) return null;
  const lines = cleaned.map((row) => ({ position: row.position, cells: row.cells.slice(leading) }));
  const scan = lines.slice(0, HEADER_SCAN_ROWS);
  const fullest = Math.max(...scan.map((row) => filledCount(row.cells)));
  const headerIndex = Math.max(
    0,
    scan.findIndex((row) => filledCount(row.cells) >= Math.max(1, Math.ceil(fullest / 2))),
  );
  const headerRow = lines[headerIndex];
  if (!headerRow) return null;
  const header = lines
    .slice(0, headerIndex + 1)
    .map((row) => row.cells.join(CELL_SEPARATOR))
    .join('\n');
  const parts: string[] = [header];
  const located: ParsedRow[] = [];
  let offset = header.length;
  for (const row of lines.slice(headerIndex + 1)) {
    const line = row.cells.join(CELL_SEPARATOR);
    offset += 1; // the newline before this row
    located.push({ rowNumber: row.position - headerRow.position, charStart: offset, charEnd: offset + line.length });
    parts.push(line);
    offset += line.length;
  }
  return { ordinal, page: null, sheet, headingPath: [], text: parts.join('\n'), header, rows: located };
}
