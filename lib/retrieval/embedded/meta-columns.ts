import { createHash } from 'node:crypto';
import { isIsoDay, type MetaFilter, type MetaValue } from '@/lib/domain/typed-meta';

/**
 * Typed values as LanceDB columns. LanceDB 0.39's SQL cannot read a number out of a JSON string, so each typed
 * field gets real columns, added by schema evolution the first time a value of it is written: one per kind of
 * value, so a field declared `number` in one bucket and `string` in another never shares a column.
 *
 * | value                      | column            | Arrow type | filters reading it |
 * | -------------------------- | ----------------- | ---------- | ------------------ |
 * | number                     | `m_<hash>_num`    | Float64    | number             |
 * | boolean                    | `m_<hash>_bool`   | Boolean    | boolean            |
 * | string                     | `m_<hash>_str`    | Utf8       | string, enum       |
 * | string that is a YYYY-MM-DD day | `m_<hash>_day` | Utf8 (ISO day: text order is date order) | date |
 *
 * `<hash>` is 16 hex digits of the field name's SHA-256 (a stable, always-safe identifier). A column missing from
 * the table (no document ever had such a value), or NULL on a row (written before, or without the value), is "no
 * value": the filter does not pass, as in matchesMetaFilters, which these predicates are property-tested against.
 */

export const META_KINDS = ['num', 'bool', 'str', 'day'] as const;
export type MetaKind = (typeof META_KINDS)[number];

const META_COLUMN = /^m_[0-9a-f]{16}_(num|bool|str|day)$/;

/** The Arrow type a meta column of this kind is added with (LanceDB's arrow_cast names). */
export const META_COLUMN_ARROW: Record<MetaKind, string> = {
  num: 'Float64',
  bool: 'Boolean',
  str: 'Utf8',
  day: 'Utf8',
};

export function metaColumnName(field: string, kind: MetaKind): string {
  return `m_${createHash('sha256').update(field).digest('hex').slice(0, 16)}_${kind}`;
}

export function isMetaColumn(name: string): boolean {
  return META_COLUMN.test(name);
}

export function metaColumnKind(name: string): MetaKind {
  const match = META_COLUMN.exec(name);
  if (!match) throw new Error(`not a typed-value column: ${name}`);
  return match[1] as MetaKind;
}

/** The column cells a document's typed values fill (a day string fills both its `str` and `day` column). */
export function metaCells(values: Record<string, MetaValue>): Map<string, MetaValue> {
  const cells = new Map<string, MetaValue>();
  for (const [field, value] of Object.entries(values)) {
    if (typeof value === 'number') cells.set(metaColumnName(field, 'num'), value);
    else if (typeof value === 'boolean') cells.set(metaColumnName(field, 'bool'), value);
    else {
      cells.set(metaColumnName(field, 'str'), value);
      if (isIsoDay(value)) cells.set(metaColumnName(field, 'day'), value);
    }
  }
  return cells;
}

/** The column a filter reads: number → num, boolean → bool, date → day, string and enum → str. */
export function metaFilterColumn(filter: MetaFilter): string {
  return metaColumnName(filter.field, META_FILTER_KIND[filter.type]);
}

const META_FILTER_KIND: Record<MetaFilter['type'], MetaKind> = {
  number: 'num',
  boolean: 'bool',
  date: 'day',
  string: 'str',
  enum: 'str',
};
