import { describe, expect, it } from 'vitest';
import type { BucketMetaSchema } from '@/lib/domain/typed-meta';
import { metaFiltersFromQuestion } from './meta-plan';

const invoices: BucketMetaSchema = {
  fields: [
    { name: 'total_amount', type: 'number', required: true },
    { name: 'issued', type: 'date', required: true },
  ],
};

describe('metaFiltersFromQuestion', () => {
  it('turns "over 1000" and "issued in 2023" into typed filters', () => {
    expect(metaFiltersFromQuestion('invoices over 1000 issued in 2023', invoices)).toEqual([
      { field: 'total_amount', type: 'number', op: '>', values: [1000] },
      { field: 'issued', type: 'date', op: 'between', values: ['2023-01-01', '2023-12-31'] },
    ]);
  });

  it('reads currencies, thousands separators, k suffixes and the other comparatives', () => {
    expect(metaFiltersFromQuestion('invoices with a total of at most $1,250.50', invoices)).toEqual([
      { field: 'total_amount', type: 'number', op: '<=', values: [1250.5] },
    ]);
    expect(metaFiltersFromQuestion('invoices under 2k', invoices)[0]).toMatchObject({ op: '<', values: [2000] });
    expect(metaFiltersFromQuestion('amounts between 10 and 20', invoices)[0]).toMatchObject({
      op: 'between',
      values: [10, 20],
    });
  });

  it('reads months, bounds and year ranges for dates', () => {
    expect(metaFiltersFromQuestion('invoices issued in March 2024', invoices)).toEqual([
      { field: 'issued', type: 'date', op: 'between', values: ['2024-03-01', '2024-03-31'] },
    ]);
    expect(metaFiltersFromQuestion('invoices issued before 2022-06-30', invoices)[0]).toMatchObject({
      op: '<',
      values: ['2022-06-30'],
    });
    expect(metaFiltersFromQuestion('invoices since 2021', invoices)[0]).toMatchObject({
      op: '>=',
      values: ['2021-01-01'],
    });
    expect(metaFiltersFromQuestion('invoices from 2020 to 2022', invoices)[0]).toMatchObject({
      op: 'between',
      values: ['2020-01-01', '2022-12-31'],
    });
  });

  it('picks the field named just before the expression when several fields share a type', () => {
    const schema: BucketMetaSchema = {
      fields: [
        { name: 'net_amount', type: 'number', required: false },
        { name: 'tax', type: 'number', required: false },
        { name: 'issued', type: 'date', required: false },
        { name: 'due', type: 'date', required: false },
      ],
    };
    expect(metaFiltersFromQuestion('invoices with tax over 50 due in 2024', schema)).toEqual([
      { field: 'tax', type: 'number', op: '>', values: [50] },
      { field: 'due', type: 'date', op: 'between', values: ['2024-01-01', '2024-12-31'] },
    ]);
    // Ambiguous: no field named, two of the type.
    expect(metaFiltersFromQuestion('invoices over 50', schema)).toEqual([]);
  });

  it('makes nothing without a matching field or expression', () => {
    expect(metaFiltersFromQuestion('invoices over 1000', { fields: [] })).toEqual([]);
    expect(metaFiltersFromQuestion('what does the contract say about renewal?', invoices)).toEqual([]);
  });
});
