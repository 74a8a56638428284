/** Splitting a bulk write into statements of bounded size (lib/db/bulk-insert.ts). */

export type SqlValue = string | number | boolean | Date | null;

function textLength(row: readonly SqlValue[]): number {
  let length = 0;
  for (const value of row) if (typeof value === 'string') length += value.length;
  return length;
}

/** Consecutive runs of rows, each at most `maxRows` rows and `maxChars` characters of text (at least one row). */
export function statementBatches<Row extends readonly SqlValue[]>(
  rows: readonly Row[],
  maxRows: number,
  maxChars: number,
): Row[][] {
  const batches: Row[][] = [];
  let current: Row[] = [];
  let chars = 0;
  for (const row of rows) {
    const length = textLength(row);
    if (current.length > 0 && (current.length >= maxRows || chars + length > maxChars)) {
      batches.push(current);
      current = [];
      chars = 0;
    }
    current.push(row);
    chars += length;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
