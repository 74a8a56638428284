'use client';

import type { Range } from '@/components/chat/highlight';
import { PassageText } from '@/components/chat/passage-text';
import { parseSheetTable } from './sheet-table';
import { SheetTableView } from './sheet-table-view';

/**
 * Evidence as it was written: spreadsheet text (a sheet chunk or a whole sheet, cells joined by " | ") as a table
 * with its header row, anything else as text with the chunk tinted and the quote marked. Text only, never markup.
 */
export function EvidenceText({
  text,
  sheet,
  headerLines = null,
  chunk,
  quote,
  rowStart = null,
  compact = false,
}: {
  text: string;
  /** The sheet the text comes from; null for pages and sections (then it is never drawn as a table). */
  sheet: string | null;
  headerLines?: number | null;
  chunk: Range | null;
  quote: Range | null;
  rowStart?: number | null;
  compact?: boolean;
}) {
  const table = sheet !== null ? parseSheetTable(text, { headerLines }) : null;
  if (table) {
    return (
      <SheetTableView table={table} chunk={chunk} quote={quote} sheet={sheet} rowStart={rowStart} compact={compact} />
    );
  }
  return <PassageText text={text} chunk={chunk} quote={quote} />;
}
