/**
 * The header that belongs in front of each chunk of a sheet. A sheet often stacks several tables (this period's
 * figures, then last period's, each with its own caption and column header). Repeating the sheet's first header in
 * front of a chunk that holds the second table's rows would label last period's figures with this period's caption,
 * so a chunk repeats the nearest column header above its first row instead.
 *
 * A row inside the body starts a new header when it and the rows right after it, up to the next data row, are
 * header rows: at least two filled cells and no cell that is a number (a caption such as "January–June 2022" or a
 * label such as "Sales (a)" is text; placeholders such as "—" count neither way). A header row before the sheet's
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
  const filled = cellsOf(line).filter((c) => !PLACEHOLDER_CELL.test(c));
  return filled.length >= 2 && !filled.some((c) => NUMBER_CELL.test(c));
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
  /** Index of the first row of each header block inside `rows` (ascending). */
  blockStarts: number[];
  /** The header text to repeat in front of a chunk whose first row is rows[index]. */
  headerFor(index: number): string;
}

/**
 * Finds the header blocks inside a sheet's body rows and says which header a chunk starting at a given row repeats:
 * the sheet's header until the first block, then the title lines with the latest block that ends above the row.
 */
export function sheetHeaders(text: string, header: string, rows: readonly ParsedRow[]): SheetHeaders {
  const lines = rows.map((r) => text.slice(r.charStart, r.charEnd));
  const blocks: { start: number; end: number }[] = [];
  let seenData = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (!isHeaderRow(line)) {
      if (isDataRow(line)) seenData = true;
      continue;
    }
    if (!seenData) continue;
    let end = i + 1;
    while (end < lines.length && isHeaderRow(lines[end] as string)) end++;
    // Only a header that data rows follow: header-like lines at the end of a sheet are notes, not a table.
    if (end < lines.length && isDataRow(lines[end] as string)) blocks.push({ start: i, end });
    i = end - 1;
  }
  const titles = titleLines(header);
  return {
    blockStarts: blocks.map((b) => b.start),
    headerFor(index: number): string {
      let block: { start: number; end: number } | undefined;
      for (const b of blocks) if (b.end <= index) block = b;
      // A chunk that starts with a block's own rows carries that header itself: only the titles go in front.
      const opening = blocks.find((b) => b.start === index);
      if (opening) return titles.join('\n');
      if (!block) return header;
      return [...titles, ...lines.slice(block.start, block.end)].join('\n');
    },
  };
}
