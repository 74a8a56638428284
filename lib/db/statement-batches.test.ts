import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type SqlValue, statementBatches } from '@/lib/db/statement-batches';

const chars = (row: readonly SqlValue[]) => row.reduce<number>((n, v) => n + (typeof v === 'string' ? v.length : 0), 0);

describe('statementBatches', () => {
  it('keeps every row once, in order, within the row and text bounds (a longer row alone)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.string({ maxLength: 300 }), fc.integer(), fc.option(fc.string({ maxLength: 50 })))),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 400 }),
        (rows, maxRows, maxChars) => {
          const batches = statementBatches(rows, maxRows, maxChars);
          expect(batches.flat()).toEqual(rows);
          for (const batch of batches) {
            expect(batch.length).toBeGreaterThan(0);
            expect(batch.length).toBeLessThanOrEqual(maxRows);
            if (batch.length > 1) expect(batch.reduce((n, row) => n + chars(row), 0)).toBeLessThanOrEqual(maxChars);
          }
        },
      ),
    );
  });

  it('cuts 200 rows of 2,500-character chunks into statements of at most 128 KB of text', () => {
    const rows = Array.from({ length: 200 }, (_, i) => [`doc`, i, 'x'.repeat(2_500)] as const);
    const batches = statementBatches(rows, 200, 128 * 1024);
    expect(batches.map((b) => b.length)).toEqual([52, 52, 52, 44]);
  });
});
