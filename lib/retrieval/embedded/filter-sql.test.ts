import { describe, expect, it } from 'vitest';
import { filtersToSql, metaFilterToSql, sqlLiteral } from '@/lib/retrieval/embedded/filter-sql';
import { metaCells, metaColumnName } from '@/lib/retrieval/embedded/meta-columns';

/**
 * The shape of typed-filter SQL (its meaning is property-tested on a real table in filter-sql.int.test.ts): literals
 * that cannot break out of the predicate, one column per field and kind, FALSE for a column the table lacks.
 */

describe('typed filter SQL', () => {
  it('writes literals that read back as the value and cannot break out of the predicate', () => {
    expect(sqlLiteral("O'Reilly'); DROP TABLE x; --")).toBe("'O''Reilly''); DROP TABLE x; --'");
    expect(sqlLiteral(1e21)).toBe("CAST('1e+21' AS DOUBLE)");
    expect(sqlLiteral(-2500.5)).toBe("CAST('-2.5005e+3' AS DOUBLE)");
    expect(sqlLiteral(true)).toBe('TRUE');
    expect(() => sqlLiteral(Number.NaN)).toThrow();
  });

  it('names columns by a hash of the field and the kind of value, so names never need quoting', () => {
    const column = metaColumnName('total_amount', 'num');
    expect(column).toMatch(/^m_[0-9a-f]{16}_num$/);
    expect(metaColumnName('total_amount', 'str')).not.toBe(column);
    expect([...metaCells({ issued: '2023-03-02', note: '2023-02-30', n: 1, b: false }).keys()]).toEqual([
      metaColumnName('issued', 'str'),
      metaColumnName('issued', 'day'),
      metaColumnName('note', 'str'),
      metaColumnName('n', 'num'),
      metaColumnName('b', 'bool'),
    ]);
  });

  it('reads a date filter on the day column and a missing column as FALSE', () => {
    const day = metaColumnName('issued', 'day');
    const filter = {
      field: 'issued',
      type: 'date' as const,
      op: 'between' as const,
      values: ['2023-01-01', '2023-12-31'],
    };
    expect(metaFilterToSql(filter, new Set([day]))).toBe(`${day} >= '2023-01-01' AND ${day} <= '2023-12-31'`);
    expect(metaFilterToSql(filter, new Set([metaColumnName('issued', 'str')]))).toBe('FALSE');
    expect(filtersToSql({ bucketIds: ['b'], meta: [filter] }, new Set([day]))).toBe(
      `(bucketId IN ('b')) AND (${day} >= '2023-01-01' AND ${day} <= '2023-12-31')`,
    );
  });
});
