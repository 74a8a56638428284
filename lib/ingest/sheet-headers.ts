/**
 * The header that belongs in front of each chunk of a sheet. A sheet often stacks several tables (this period's
 * figures, then last period's, each with its own caption and column header). Repeating the sheet's first header in
 * front of a chunk that holds the second table's rows would label last period's figures with this period's caption,
 * so a chunk repeats the nearest column header above its first row instead.
 *
 * A row inside the body starts a new table when it repeats a line of the sheet's header (at least half of the filled
 * cells of each are the same cell texts): the classic stacked layout, where every table has the same columns. The
 * caption rows right above it (at most two rows with two or more filled cells and no number, such as "In millions |
 * January–June 2022") belong to its header. Rows that merely hold no number are not headers: a text-only data row
 * ("Bob | London") must not relabel the rows below it. A repeated header before the sheet's
 * first data row continues the sheet's own header, as before. Title lines (one filled cell) of the sheet's header are
 * kept in front of every chunk, since they name the whole sheet.
 */

import { CELL_SEPARATOR } from './parsers/sheet-unit';
import type { ParsedRow } from './types';

const NUMBER_CELL = /^[-+−–(]?\s*[$€£¥]?\s*\d[\d.,'\u00a0\u202f ]*\)?\s*%?$/u;
const PLACEHOLDER_CELL = /^[-–—−.]*$/u;

function cellsOf(line: string): string[] {
  return line.split(CELL_SEPARATOR).map((c) => c.trim());
}

/** A header row: at least two filled cells, none of them a number. */
export function isHeaderRow(line: string): boolean {
  const filled = filledCells(line);
  return filled.length >= 2 && !filled.some((c) => NUMBER_CELL.test(c));
}

/** Caption rows above a repeated column header that belong to its table. */
const MAX_CAPTION_ROWS = 2;

function filledCells(line: string): string[] {
  return cellsOf(line).filter((c) => !PLACEHOLDER_CELL.test(c));
}

/** Whether a body row repeats a header line: at least half of the filled cells of each are shared. */
export function repeatsColumns(line: string, columns: string): boolean {
  const row = filledCells(line);
  const head = new Set(filledCells(columns));
  if (row.length < 2 || head.size < 2) return false;
  const shared = row.filter((c) => head.has(c)).length;
  return shared * 2 >= row.length && shared * 2 >= head.size;
}

/** A data row: at least one cell is a number. */
function isDataRow(line: string): boolean {
  return cellsOf(line).some((c) => !PLACEHOLDER_CELL.test(c) && NUMBER_CELL.test(c));
}

/** The title lines of a sheet header: its leading lines with one filled cell. */
export function titleLines(header: string): string[] {
  const out: string[] = [];
  for (const line of header.split('\n')) {
    if (cellsOf(line).filter((c) => c !== '').length > 1) break;
    out.push(line);
  }
  return out;
}

export interface SheetHeaders {
  /** Header blocks inside `rows`: [start, end) row indexes, ascending. */
  blocks: { start: number; end: number }[];
  /** The header text to repeat in front of a chunk whose first row is rows[index]. */
  headerFor(index: number): string;
}

/**
 * Finds the header blocks inside a sheet's body rows and says which header a chunk starting at a given row repeats:
 * the sheet's header until the first block, then the title lines with the latest block that ends above the row. A
 * chunk that starts at a block leaves the block's rows out of its body: they are its header.
 */
export function sheetHeaders(text: string, header: string, rows: readonly ParsedRow[]): SheetHeaders {
  const lines = rows.map((r) => text.slice(r.charStart, r.charEnd));
  const headerRows = header.split('\n').filter((l) => filledCells(l).length >= 2);
  const blocks: { start: number; end: number }[] = [];
  let seenData = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!headerRows.some((h) => repeatsColumns(line, h))) {
      if (isDataRow(line)) seenData = true;
      continue;
    }
    // The repeated header and the header rows right under it (a caption repeated above its column header).
    let end = i + 1;
    while (end < lines.length && end - i < MAX_CAPTION_ROWS + 1 && isHeaderRow(lines[end] as string)) end++;
    // Only a repeated header after data and before more data: one at the end of a sheet is a note.
    const next = lines[end];
    if (!seenData || next === undefined || !isDataRow(next)) continue;
    let start = i;
    const floor = blocks.at(-1)?.end ?? 0;
    while (start > floor && i - start < MAX_CAPTION_ROWS && isHeaderRow(lines[start - 1] as string)) start--;
    blocks.push({ start, end });
    i = end - 1;
  }
  const titles = titleLines(header);
  return {
    blocks,
    headerFor(index: number): string {
      let block: { start: number; end: number } | undefined;
      for (const b of blocks) if (b.end <= index) block = b;
      if (!block) return header;
      return [...titles, ...lines.slice(block.start, block.end)].join('\n');
    },
  };
}
