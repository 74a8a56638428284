import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BucketMetaSchema,
  bucketMetaSchemaSchema,
  checkMetaFilters,
  checkTypedValues,
  indexedMetaValues,
  type MetaFilter,
  matchesMetaFilters,
  metaFilterSchema,
  readBucketMetaSchema,
  unionSchemas,
} from './typed-meta';

const invoices: BucketMetaSchema = {
  fields: [
    { name: 'total_amount', type: 'number', required: true },
    { name: 'issued', type: 'date', required: true },
    { name: 'status', type: 'enum', required: false, values: ['paid', 'open'] },
    { name: 'disputed', type: 'boolean', required: false },
    { name: 'vendor', type: 'string', required: false },
  ],
};

describe('bucket schema', () => {
  it('accepts typed fields and refuses bad names, duplicates, enums without values, patterns off strings', () => {
    expect(bucketMetaSchemaSchema.safeParse(invoices).success).toBe(true);
    const bad = (fields: unknown[]) => bucketMetaSchemaSchema.safeParse({ fields }).success;
    expect(bad([{ name: 'Total Amount', type: 'number' }])).toBe(false);
    expect(bad([{ name: '1st', type: 'number' }])).toBe(false);
    expect(bad([{ name: '__proto__x', type: 'money' }])).toBe(false);
    expect(
      bad([
        { name: 'a', type: 'number' },
        { name: 'a', type: 'date' },
      ]),
    ).toBe(false);
    expect(bad([{ name: 'status', type: 'enum' }])).toBe(false);
    expect(bad([{ name: 'n', type: 'number', pattern: '\\d+' }])).toBe(false);
    expect(bad([{ name: 's', type: 'string', pattern: '(' }])).toBe(false);
    expect(readBucketMetaSchema({ fields: 'nope' })).toEqual({ fields: [] });
    expect(readBucketMetaSchema(null)).toEqual({ fields: [] });
  });
});

describe('checkTypedValues', () => {
  it('coerces to each type, requires required fields, names unknown fields', () => {
    expect(checkTypedValues(invoices, { total_amount: '1,500.00', issued: '2023-03-02', disputed: false })).toEqual({
      ok: true,
      values: { total_amount: 1500, issued: '2023-03-02', disputed: false },
    });
    const bad = checkTypedValues(invoices, { total_amount: 'x', issued: '2023-02-30', status: 'void', other: 1 });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.errors.join(' ')).toMatch(/Unknown field "other".*total_amount \(number\)/);
    expect(!bad.ok && bad.errors).toEqual(
      expect.arrayContaining([
        'total_amount must be a number.',
        'issued must be a date (YYYY-MM-DD).',
        'status must be one of paid, open.',
      ]),
    );
    expect(checkTypedValues(invoices, { issued: '2023-01-01' })).toEqual({
      ok: false,
      errors: ['total_amount is required.'],
    });
    expect(checkTypedValues(invoices, { issued: '2023-01-01' }, { partial: true }).ok).toBe(true);
  });
});

describe('checkMetaFilters', () => {
  it('checks fields, operators and values, naming the valid fields on error', () => {
    expect(checkMetaFilters(invoices, [{ field: 'total_amount', op: '>', value: '1000' }])).toEqual({
      ok: true,
      filters: [{ field: 'total_amount', type: 'number', op: '>', values: [1000] }],
    });
    const unknown = checkMetaFilters(invoices, [{ field: 'amount', op: '=', value: 1 }]);
    expect(!unknown.ok && unknown.error).toMatch(
      /Unknown field "amount". Valid fields: total_amount \(number\), issued \(date\)/,
    );
    expect(checkMetaFilters(invoices, [{ field: 'status', op: '>', value: 'paid' }]).ok).toBe(false);
    expect(checkMetaFilters(invoices, [{ field: 'issued', op: 'between', value: ['2023-01-01'] }]).ok).toBe(false);
    expect(checkMetaFilters(invoices, [{ field: 'issued', op: '<', value: 'yesterday' }]).ok).toBe(false);
    expect(checkMetaFilters(invoices, [{ field: 'status', op: 'in', value: ['paid', 'open'] }]).ok).toBe(true);
  });

  it('unionSchemas leaves out a field two buckets declare with different types', () => {
    const other: BucketMetaSchema = { fields: [{ name: 'issued', type: 'string', required: false }] };
    expect(unionSchemas([invoices, other]).fields.map((f) => f.name)).not.toContain('issued');
  });
});

describe('matchesMetaFilters', () => {
  const f = (field: string, type: MetaFilter['type'], op: MetaFilter['op'], ...values: (string | number)[]) => ({
    field,
    type,
    op,
    values,
  });

  it('applies every operator; a missing value or a value of another type never passes', () => {
    const doc = { total_amount: 1500, issued: '2023-03-02', status: 'paid' };
    expect(matchesMetaFilters(doc, [f('total_amount', 'number', '>', 1000)])).toBe(true);
    expect(matchesMetaFilters(doc, [f('total_amount', 'number', '>', 1500)])).toBe(false);
    expect(matchesMetaFilters(doc, [f('total_amount', 'number', '>=', 1500)])).toBe(true);
    expect(matchesMetaFilters(doc, [f('issued', 'date', 'between', '2023-01-01', '2023-12-31')])).toBe(true);
    expect(matchesMetaFilters(doc, [f('issued', 'date', '<', '2023-03-02')])).toBe(false);
    expect(matchesMetaFilters(doc, [f('status', 'enum', 'in', 'open', 'paid')])).toBe(true);
    expect(matchesMetaFilters(doc, [f('status', 'enum', '!=', 'paid')])).toBe(false);
    expect(matchesMetaFilters(doc, [f('vendor', 'string', '!=', 'x')])).toBe(false);
    expect(matchesMetaFilters({ total_amount: '1500' }, [f('total_amount', 'number', '>', 1)])).toBe(false);
  });

  it('numbers compare as numbers, not as text (property)', () => {
    fc.assert(
      fc.property(
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        (a, b) => {
          expect(matchesMetaFilters({ n: a }, [f('n', 'number', '<', b)])).toBe(a < b);
          expect(matchesMetaFilters({ n: a }, [f('n', 'number', 'between', Math.min(a, b), Math.max(a, b))])).toBe(
            true,
          );
        },
      ),
    );
  });
});

describe('typed filters as they travel to a chunk index', () => {
  it('a date filter passes only calendar-day values (a text value under the same name never does)', () => {
    const after2020: MetaFilter = { field: 'issued', type: 'date', op: '>', values: ['2020-01-01'] };
    expect(matchesMetaFilters({ issued: '2023-03-02' }, [after2020])).toBe(true);
    expect(matchesMetaFilters({ issued: '2024 Q1' }, [after2020])).toBe(false);
    expect(matchesMetaFilters({ issued: '2023-02-30' }, [after2020])).toBe(false);
    const text: MetaFilter = { field: 'issued', type: 'string', op: '=', values: ['2023-03-02'] };
    expect(matchesMetaFilters({ issued: '2023-03-02' }, [text])).toBe(true);
  });

  it('metaFilterSchema refuses what checkMetaFilters never produces', () => {
    const ok: MetaFilter = { field: 'total_amount', type: 'number', op: 'between', values: [1, 2] };
    expect(metaFilterSchema.safeParse(ok).success).toBe(true);
    const bad: unknown[] = [
      { ...ok, field: 'meta.x' },
      { ...ok, field: "a' OR 1=1" },
      { ...ok, values: [1] },
      { ...ok, values: ['1', 2] },
      { ...ok, type: 'string', op: '<', values: ['a'] },
      { field: 'issued', type: 'date', op: '=', values: ['03/02/2023'] },
      { field: 'paid', type: 'boolean', op: '=', values: ['true'] },
      { field: 'status', type: 'enum', op: 'in', values: [] },
    ];
    for (const filter of bad) expect(metaFilterSchema.safeParse(filter).success, JSON.stringify(filter)).toBe(false);
  });

  it('a document outside a bucket carries no typed values into the index', () => {
    expect(indexedMetaValues(null, { total_amount: 5 })).toEqual({});
    expect(indexedMetaValues('b1', { total_amount: 5 })).toEqual({ total_amount: 5 });
  });
});
