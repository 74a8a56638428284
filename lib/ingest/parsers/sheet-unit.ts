/** Builds a sheet unit (header line + one line per data row, with row locations) from cell strings. */

import type { ParsedRow, ParsedUnit } from '../types';

export const CELL_SEPARATOR = ' | ';

/** Cell text on one line: whitespace (newlines, tabs) collapsed. */
export function cleanCell(value: string): string {
  return value.replace(/[\s\u00a0]+/g, ' ').trim();
}

function rowLine(cells: readonly string[]): string {
  const cleaned = cells.map(cleanCell);
  while (cleaned.length > 0 && cleaned[cleaned.length - 1] === '') cleaned.pop();
  return cleaned.join(CELL_SEPARATOR);
}

/**
 * One sheet → one unit. `rows` are in order with their sheet position; the first non-empty row becomes the header
 * and the data rows are numbered from it (see ParsedRow). Returns null for a sheet without any non-empty row.
 */
export function buildSheetUnit(
  ordinal: number,
  sheet: string,
  rows: Iterable<{ position: number; cells: readonly string[] }>,
): ParsedUnit | null {
  let header: { position: number; line: string } | null = null;
  const parts: string[] = [];
  const located: ParsedRow[] = [];
  let offset = 0;
  for (const row of rows) {
    const line = rowLine(row.cells);
    if (line === '') continue;
    if (header === null) {
      header = { position: row.position, line };
      parts.push(line);
      offset = line.length;
      continue;
    }
    offset += 1; // the newline before this row
    located.push({ rowNumber: row.position - header.position, charStart: offset, charEnd: offset + line.length });
    parts.push(line);
    offset += line.length;
  }
  if (header === null) return null;
  return {
    ordinal,
    page: null,
    sheet,
    headingPath: [],
    text: parts.join('\n'),
    header: header.line,
    rows: located,
  };
}
