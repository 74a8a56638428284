/**
 * Spreadsheet text back into a table. Ingestion writes a sheet (XLSX sheet, CSV file) as a header block (any title
 * rows, then the column header) followed by one line per data row, cells joined by " | " (see
 * lib/ingest/parsers/sheet-unit.ts); every sheet chunk repeats the header block in front of its rows. These
 * functions only compute cells and their offsets in the text; components render them as text.
 */

import type { Range } from '@/components/chat/highlight';

/** The separator sheet-unit.ts joins cells with. */
export const CELL_SEPARATOR = ' | ';

export interface TableCell {
  text: string;
  /** Offsets of the cell in the parsed text. */
  start: number;
  end: number;
}

export interface TableRow {
  cells: TableCell[];
  /** Offsets of the whole line in the parsed text. */
  start: number;
  end: number;
}

export interface SheetTable {
  /** Title rows above the column header (shown as the table's caption). */
  titleRows: TableRow[];
  columns: TableRow;
  rows: TableRow[];
  /** The widest row's cell count (header included): every row is shown with this many cells. */
  width: number;
}

function splitLine(line: string, offset: number): TableRow {
  const cells: TableCell[] = [];
  let start = 0;
  for (;;) {
    const at = line.indexOf(CELL_SEPARATOR, start);
    const end = at < 0 ? line.length : at;
    cells.push({ text: line.slice(start, end), start: offset + start, end: offset + end });
    if (at < 0) break;
    start = at + CELL_SEPARATOR.length;
  }
  return { cells, start: offset, end: offset + line.length };
}

function filled(row: TableRow): number {
  return row.cells.filter((c) => c.text !== '').length;
}

/**
 * Parses sheet text into title rows, column header and data rows. `headerLines` is the number of lines of the
 * header block when known (see sheetHeaderLines); otherwise the column header is found like ingestion finds it:
 * the first line filled at least half as much as the fullest line. Null when the text is not a table: fewer than
 * two columns in the header, or no data row.
 */
export function parseSheetTable(text: string, options: { headerLines?: number | null } = {}): SheetTable | null {
  const lines: TableRow[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    lines.push(splitLine(line, offset));
    offset += line.length + 1;
  }
  const nonEmpty = lines.filter((l) => l.end > l.start);
  if (nonEmpty.length < 2) return null;
  let headerIndex: number;
  if (options.headerLines && options.headerLines > 0 && options.headerLines < lines.length) {
    headerIndex = options.headerLines - 1;
  } else {
    const fullest = Math.max(...lines.map(filled));
    headerIndex = lines.findIndex((l) => filled(l) >= Math.max(1, Math.ceil(fullest / 2)));
  }
  const columns = lines[headerIndex];
  if (!columns || columns.cells.length < 2) return null;
  const rows = lines.slice(headerIndex + 1).filter((l) => l.end > l.start);
  if (rows.length === 0) return null;
  const width = Math.max(columns.cells.length, ...rows.map((r) => r.cells.length));
  return { titleRows: lines.slice(0, headerIndex).filter((l) => l.end > l.start), columns, rows, width };
}

/**
 * The number of header-block lines a sheet chunk starts with, from its place in the unit text: a sheet chunk is
 * `header + "\n" + unitText.slice(charStart, charEnd)`. Null when the chunk is not laid out that way (a text
 * chunk, or offsets that do not match).
 */
export function sheetHeaderLines(chunk: {
  text: string;
  unitText: string | null;
  charStart: number;
  charEnd: number;
}): number | null {
  const { text, unitText, charStart, charEnd } = chunk;
  if (!unitText || charStart < 0 || charEnd > unitText.length || charStart >= charEnd) return null;
  const body = unitText.slice(charStart, charEnd);
  if (text.length <= body.length + 1 || !text.endsWith(`\n${body}`)) return null;
  const header = text.slice(0, text.length - body.length - 1);
  return header.split('\n').length;
}

/** The header-block line count of a whole sheet unit, taken from one of its chunks (null when none tells). */
export function unitHeaderLines(
  unitText: string,
  chunks: readonly { text: string; charStart: number; charEnd: number }[],
): number | null {
  for (const c of chunks) {
    const lines = sheetHeaderLines({ ...c, unitText });
    // a header too wide for the chunk budget is cut and ends in " …"; it still has the unit header's line count
    if (lines !== null) return lines;
  }
  return null;
}

/** How a row relates to highlighted ranges: inside the chunk, and which of its cells touch the quote. */
export function overlaps(a: { start: number; end: number }, b: Range | null): boolean {
  return b !== null && a.start < b.end && b.start < a.end;
}

/**
 * A sheet chunk inside its unit: the chunk's rows (charStart..charEnd of the unit text) and the quote moved from
 * chunk offsets to unit offsets (a quote inside the repeated header has no place in the unit and is dropped).
 * Null when the chunk is not laid out as header + rows of that unit.
 */
export function locateSheetChunk(input: {
  unitText: string;
  chunkText: string;
  charStart: number;
  charEnd: number;
  quoteStart: number | null;
  quoteEnd: number | null;
}): { chunk: Range; quote: Range | null; headerLines: number } | null {
  const headerLines = sheetHeaderLines({
    text: input.chunkText,
    unitText: input.unitText,
    charStart: input.charStart,
    charEnd: input.charEnd,
  });
  if (headerLines === null) return null;
  const bodyOffset = input.chunkText.length - (input.charEnd - input.charStart);
  const chunk = { start: input.charStart, end: input.charEnd };
  let quote: Range | null = null;
  if (input.quoteStart !== null && input.quoteEnd !== null && input.quoteEnd > bodyOffset) {
    const start = Math.max(input.charStart, input.quoteStart - bodyOffset + input.charStart);
    const end = Math.min(input.charEnd, input.quoteEnd - bodyOffset + input.charStart);
    if (end > start) quote = { start, end };
  }
  return { chunk, quote, headerLines };
}

/**
 * The rows a quote covers, under the sheet's column header: what a "Quoted" block shows for spreadsheet evidence.
 * Null when the text is not a table or the quote touches no data row (e.g. only the header).
 */
export function sheetQuoteTable(
  passage: { text: string; quote: Range | null } | null,
  headerLines: number | null,
): SheetTable | null {
  if (!passage?.quote) return null;
  const table = parseSheetTable(passage.text, { headerLines });
  if (!table) return null;
  const rows = table.rows.filter((r) => overlaps(r, passage.quote));
  if (rows.length === 0) return null;
  return { titleRows: [], columns: table.columns, rows, width: table.width };
}
