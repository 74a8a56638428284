import crypto from 'node:crypto';
import { getDbHandle } from '@/lib/db/client';
import { type SqlValue, statementBatches } from '@/lib/db/statement-batches';
import { yieldToEventLoop } from '@/lib/event-loop';

/**
 * Bulk INSERT for the ingest worker's large writes (thousands of chunk rows), written by hand: Prisma 7's
 * `createMany` spends about 2 to 4 ms of main-thread time per row in its query compiler (500 rows held the event
 * loop for ~2 s; 10k rows for ~20 s, measured in lib/db/chunk-writes.db.int.test.ts), while one parameterised
 * multi-row INSERT of the same 500 rows takes ~70 ms. Rows go in statements of at most `batchRows` rows and
 * `batchChars` characters of text (so a statement of long chunks is as short as one of short chunks; a single row
 * longer than that goes alone), with an event-loop turn before each statement. Table and column names come from
 * this module's callers only, never from input; every value is a bound parameter. Resolves with the rows' generated
 * ids, in row order.
 */

/** Text per statement: SQLite runs a statement synchronously on the main thread, ~1 ms per 10-20k characters. */
export const DEFAULT_BATCH_CHARS = 128 * 1024;

export type { SqlValue };

export async function insertRowsInBatches({
  table,
  columns,
  rows,
  batchRows,
  batchChars = DEFAULT_BATCH_CHARS,
}: {
  table: string;
  columns: readonly string[];
  rows: readonly (readonly SqlValue[])[];
  batchRows: number;
  batchChars?: number;
}): Promise<string[]> {
  const { db, provider } = getDbHandle();
  const ids: string[] = [];
  const quoted = ['id', ...columns].map((c) => `"${c}"`).join(', ');
  for (const batch of statementBatches(rows, batchRows, batchChars)) {
    await yieldToEventLoop();
    const args: SqlValue[] = [];
    const tuples = batch.map((row) => {
      if (row.length !== columns.length) throw new Error(`insertRowsInBatches: a ${table} row has the wrong width`);
      const marks: string[] = [];
      const id = crypto.randomUUID();
      ids.push(id);
      for (const value of [id, ...row]) {
        args.push(value);
        marks.push(provider === 'postgresql' ? `$${args.length}` : '?');
      }
      return `(${marks.join(', ')})`;
    });
    await db.$executeRawUnsafe(`INSERT INTO "${table}" (${quoted}) VALUES ${tuples.join(', ')}`, ...args);
  }
  return ids;
}
