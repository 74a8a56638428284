import { dayOf } from '@/lib/retrieval/embedded/filter-predicate';
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
 * Translates SearchFilters into a LanceDB `where` predicate with the same meaning as compileFilters()
 * (filter-predicate.ts); null when there is no condition. Results are re-checked with the predicate anyway.
 */
export function filtersToSql(filters: SearchFilters | undefined): string | null {
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
  if (clauses.length === 0) return null;
  return clauses.map((clause) => `(${clause})`).join(' AND ');
}
