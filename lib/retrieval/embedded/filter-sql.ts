import type { MetaFilter, MetaValue } from '@/lib/domain/typed-meta';
import { dayOf } from '@/lib/retrieval/embedded/filter-predicate';
import { metaFilterColumn } from '@/lib/retrieval/embedded/meta-columns';
import type { SearchFilters } from '@/lib/retrieval/types';

/** A SQL string literal (single quotes doubled), safe for LanceDB/DataFusion predicates. */
export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** How a user metadata field is stored in the `fieldPairs` list column: one unambiguous string per key/value. */
export function encodeFieldPair(key: string, value: string): string {
  return JSON.stringify([key, value]);
}

function inList(column: string, values: readonly string[]): string {
  if (values.length === 0) return 'FALSE';
  return `${column} IN (${[...new Set(values)].map(sqlString).join(', ')})`;
}

function hasAll(column: string, values: readonly string[]): string {
  return `array_has_all(${column}, make_array(${[...new Set(values)].map(sqlString).join(', ')}))`;
}

/**
 * A typed value as a SQL literal: strings quoted (single quotes doubled), booleans TRUE/FALSE, numbers as the
 * double their shortest exponent form reads back as (`CAST('1.5e3' AS DOUBLE)`: no integer literal out of range).
 */
export function sqlLiteral(value: MetaValue): string {
  if (typeof value === 'string') return sqlString(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (!Number.isFinite(value)) throw new Error('typed values are finite numbers');
  return `CAST(${sqlString(value.toExponential())} AS DOUBLE)`;
}

/**
 * One typed filter as a predicate on its column (meta-columns.ts), or FALSE when the table has no such column (no
 * document ever had such a value). NULL (no value) makes every comparison unknown, so the row is dropped, `!=`
 * included: the semantics of matchesMetaFilters.
 */
export function metaFilterToSql(filter: MetaFilter, columns: ReadonlySet<string>): string {
  const column = metaFilterColumn(filter);
  const [first, second] = filter.values as [MetaValue?, MetaValue?];
  if (!columns.has(column) || first === undefined) return 'FALSE';
  const lit = sqlLiteral(first);
  switch (filter.op) {
    case '=':
      return `${column} = ${lit}`;
    case '!=':
      return `${column} <> ${lit}`;
    case '<':
      return `${column} < ${lit}`;
    case '<=':
      return `${column} <= ${lit}`;
    case '>':
      return `${column} > ${lit}`;
    case '>=':
      return `${column} >= ${lit}`;
    case 'in':
      return `${column} IN (${filter.values.map(sqlLiteral).join(', ')})`;
    case 'between':
      return second === undefined ? 'FALSE' : `${column} >= ${lit} AND ${column} <= ${sqlLiteral(second)}`;
  }
}

/**
 * Translates SearchFilters into a LanceDB `where` predicate with the same meaning as compileFilters()
 * (filter-predicate.ts); null when there is no condition. `metaColumns` are the typed-value columns the table has.
 * Results are re-checked with the predicate anyway.
 */
export function filtersToSql(
  filters: SearchFilters | undefined,
  metaColumns: ReadonlySet<string> = new Set(),
): string | null {
  if (!filters) return null;
  const clauses: string[] = [];
  if (filters.bucketIds) clauses.push(inList('bucketId', filters.bucketIds));
  if (filters.documentIds) clauses.push(inList('documentId', filters.documentIds));
  if (filters.mimeTypes) clauses.push(inList('mime', filters.mimeTypes));
  if (filters.dateFrom !== undefined) clauses.push(`documentDay >= ${sqlString(dayOf(filters.dateFrom))}`);
  if (filters.dateTo !== undefined) clauses.push(`documentDay <= ${sqlString(dayOf(filters.dateTo))}`);
  if (filters.tags && filters.tags.length > 0) clauses.push(hasAll('tags', filters.tags));
  const fieldEntries = Object.entries(filters.fields ?? {});
  if (fieldEntries.length > 0) {
    clauses.push(
      hasAll(
        'fieldPairs',
        fieldEntries.map(([key, value]) => encodeFieldPair(key, value)),
      ),
    );
  }
  for (const filter of filters.meta ?? []) clauses.push(metaFilterToSql(filter, metaColumns));
  if (clauses.length === 0) return null;
  return clauses.map((clause) => `(${clause})`).join(' AND ');
}
