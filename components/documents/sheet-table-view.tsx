'use client';

import clsx from 'clsx';
import { useEffect, useRef } from 'react';
import type { Range } from '@/components/chat/highlight';
import { overlaps, type SheetTable, type TableCell } from './sheet-table';

/** Rows drawn at most; a longer sheet shows a window around the highlighted rows. */
const MAX_ROWS = 300;

function rowWindow(table: SheetTable, focus: Range | null, maxRows: number): { from: number; to: number } {
  if (table.rows.length <= maxRows) return { from: 0, to: table.rows.length };
  const first = focus ? table.rows.findIndex((r) => overlaps(r, focus)) : -1;
  const from = first < 0 ? 0 : Math.max(0, Math.min(first - 10, table.rows.length - maxRows));
  return { from, to: from + maxRows };
}

/**
 * A spreadsheet passage as a table: title rows as the caption, the column header as <th>, data rows below. Rows
 * inside the cited chunk are tinted and cells touching the quote are marked. Cell text is rendered as text only.
 */
export function SheetTableView({
  table,
  chunk = null,
  quote = null,
  sheet,
  rowStart = null,
  maxRows = MAX_ROWS,
  compact = false,
}: {
  table: SheetTable;
  chunk?: Range | null;
  quote?: Range | null;
  /** The sheet name, for the table's accessible name. */
  sheet?: string | null;
  /** The row number of the first data row shown (from the chunk's position), to number rows. */
  rowStart?: number | null;
  maxRows?: number;
  compact?: boolean;
}) {
  const markRef = useRef<HTMLTableRowElement>(null);
  const { from, to } = rowWindow(table, quote ?? chunk, maxRows);
  const rows = table.rows.slice(from, to);
  const focusKey = `${chunk?.start}-${quote?.start}`;
  useEffect(() => {
    if (focusKey !== 'undefined-undefined') markRef.current?.scrollIntoView({ block: 'center' });
  }, [focusKey]);
  const pad = (cells: TableCell[]) =>
    cells.length >= table.width ? cells : [...cells, ...Array.from({ length: table.width - cells.length }, () => null)];
  let firstFocus = true;
  const cellClass = compact ? 'px-2 py-1' : 'px-2.5 py-1.5';
  return (
    <div className="space-y-1.5" data-testid="sheet-table">
      {table.titleRows.length > 0 ? (
        <p className="text-xs font-medium text-slate-600">
          {table.titleRows
            .map((r) =>
              r.cells
                .map((c) => c.text)
                .filter(Boolean)
                .join(' · '),
            )
            .join(' — ')}
        </p>
      ) : null}
      <div className="max-w-full overflow-x-auto rounded-md ring-1 ring-slate-200">
        <table
          className="min-w-full border-collapse bg-white text-left text-xs"
          aria-label={sheet ? `Sheet ${sheet}` : 'Table'}
        >
          <thead className="bg-slate-100 text-slate-700">
            <tr>
              {rowStart !== null ? (
                <th scope="col" className={clsx(cellClass, 'w-px text-right font-medium text-slate-400')}>
                  <span className="sr-only">Row</span>#
                </th>
              ) : null}
              {pad(table.columns.cells).map((cell, i) => (
                <th
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns have no identity but their position
                  key={i}
                  scope="col"
                  className={clsx(cellClass, 'border-b border-slate-200 font-semibold whitespace-nowrap')}
                >
                  {cell?.text ?? ''}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, r) => {
              const inChunk = overlaps(row, chunk);
              const inQuote = overlaps(row, quote);
              // a row quoted whole is tinted as a row; a row quoted in part has its touched cells marked
              const wholeRow = inQuote && quote !== null && quote.start <= row.start && row.end <= quote.end;
              const focus = (inQuote || (!quote && inChunk)) && firstFocus;
              if (focus) firstFocus = false;
              return (
                <tr
                  key={row.start}
                  ref={focus ? markRef : undefined}
                  data-testid={wholeRow ? 'quoted-row' : inChunk ? 'chunk-row' : undefined}
                  className={clsx(
                    'border-b border-slate-100 last:border-0',
                    wholeRow ? 'bg-amber-100 text-slate-950' : inChunk ? 'bg-brand-50' : undefined,
                  )}
                >
                  {rowStart !== null ? (
                    <td className={clsx(cellClass, 'text-right text-slate-400 tabular-nums')}>{rowStart + from + r}</td>
                  ) : null}
                  {pad(row.cells).map((cell, i) => (
                    <td
                      // biome-ignore lint/suspicious/noArrayIndexKey: cells have no identity but their position
                      key={i}
                      className={clsx(cellClass, 'align-top break-words text-slate-800')}
                    >
                      {cell && !wholeRow && overlaps(cell, quote) ? (
                        <mark className="rounded-sm bg-amber-200 px-0.5 text-slate-950" data-testid="quoted-span">
                          {cell.text}
                        </mark>
                      ) : (
                        (cell?.text ?? '')
                      )}
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {to - from < table.rows.length ? (
        <p className="text-xs text-slate-500">
          Showing rows {from + 1}–{to} of {table.rows.length}. Download the original for the whole sheet.
        </p>
      ) : null}
    </div>
  );
}
