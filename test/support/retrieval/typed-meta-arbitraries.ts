import fc from 'fast-check';
import {
  META_OPERATORS,
  type MetaFieldType,
  type MetaFilter,
  type MetaValue,
  metaFilterSchema,
} from '@/lib/domain/typed-meta';

/**
 * fast-check arbitraries for typed values and checked typed filters, shared by the property tests of the
 * pushed-down filters (LanceDB SQL, Qdrant payload filter) against matchesMetaFilters. Values and filter values are
 * drawn from small pools so filters hit; the pools hold the awkward cases: negative zero, fractions, huge and tiny
 * numbers, quotes and backslashes, non-ASCII, strings that look like days, an impossible day.
 */

export const META_FIELDS = ['total_amount', 'issued', 'status', 'paid', 'note'] as const;

const NUMBERS = [0, -0, 1, -1, 1.5, 1000, 1000.01, 999.99, -2500.5, 1e21, 1e-300, 123456789.125, 2 ** 53];
const DAYS = ['2022-11-20', '2023-01-01', '2023-03-02', '2023-12-31', '2024-02-29', '1999-12-31'];
const STRINGS = [
  'draft',
  'paid',
  "O'Reilly",
  'a\\b',
  'Zürich',
  '日本',
  '😀 smile',
  '2023-02-30',
  '2023-3-2',
  '',
  'draft ',
  'DRAFT',
  '%_like',
];

const number = fc.constantFrom(...NUMBERS);
const day = fc.constantFrom(...DAYS);
const text = fc.constantFrom(...STRINGS.filter((s) => s.length > 0), ...DAYS);
const metaValue: fc.Arbitrary<MetaValue> = fc.oneof(number, day, text, fc.boolean());

/** A document's typed values: any subset of the fields, any value type per field (bucket schemas may differ). */
export const metaValuesArb: fc.Arbitrary<Record<string, MetaValue>> = fc.dictionary(
  fc.constantFrom(...META_FIELDS),
  metaValue,
  { maxKeys: META_FIELDS.length },
);

function filterValueOf(type: MetaFieldType): fc.Arbitrary<MetaValue> {
  switch (type) {
    case 'number':
      return number;
    case 'date':
      return day;
    case 'boolean':
      return fc.boolean();
    case 'string':
    case 'enum':
      return text;
  }
}

/** A checked filter (what checkMetaFilters produces): every operator on every type it applies to. */
export const metaFilterArb: fc.Arbitrary<MetaFilter> = fc
  .record({
    field: fc.constantFrom(...META_FIELDS),
    type: fc.constantFrom<MetaFieldType>('number', 'date', 'string', 'enum', 'boolean'),
    op: fc.constantFrom(...META_OPERATORS),
  })
  .chain(({ field, type, op }) => {
    const ordered = type === 'number' || type === 'date';
    const effectiveOp = !ordered && ['<', '<=', '>', '>=', 'between'].includes(op) ? '=' : op;
    const count =
      effectiveOp === 'between'
        ? fc.constant(2)
        : effectiveOp === 'in'
          ? fc.integer({ min: 1, max: 4 })
          : fc.constant(1);
    return count.chain((n) =>
      fc
        .array(filterValueOf(type), { minLength: n, maxLength: n })
        .map((values): MetaFilter => ({ field, type, op: effectiveOp, values })),
    );
  })
  .filter((filter) => metaFilterSchema.safeParse(filter).success);

export const metaFiltersArb: fc.Arbitrary<MetaFilter[]> = fc.array(metaFilterArb, { minLength: 1, maxLength: 3 });
