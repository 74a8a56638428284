import { matchesMetaFilters } from '@/lib/domain/typed-meta';
import type { ChunkDocumentAttributes, SearchFilters } from '@/lib/retrieval/types';

/** The part of a chunk that filters look at. */
export type FilterableChunk = ChunkDocumentAttributes & { documentId: string };

/** A compiled filter: true when the chunk passes every listed condition. */
export type ChunkPredicate = (chunk: FilterableChunk) => boolean;

/** The calendar-day part of an ISO date or timestamp (filters compare whole days). */
export function dayOf(date: string): string {
  return date.slice(0, 10);
}

/**
 * Compiles SearchFilters into the reference predicate every engine must agree with:
 * - bucketIds / documentIds / mimeTypes: the chunk's value is one of the list (an empty list matches nothing;
 *   a chunk without a bucket never matches a bucket list);
 * - dateFrom / dateTo: inclusive bounds on the document date's day (YYYY-MM-DD); a chunk without a date fails
 *   any date bound;
 * - tags: every listed tag is present (an empty list matches everything);
 * - fields: every listed key exists with exactly the given value (an empty object matches everything);
 * - meta: every typed filter passes on the chunk's typed values (matchesMetaFilters; a chunk without the value
 *   fails, an empty list matches everything).
 * Returns null when there is no condition at all.
 */
export function compileFilters(filters: SearchFilters | undefined): ChunkPredicate | null {
  if (!filters) return null;
  const checks: ChunkPredicate[] = [];
  if (filters.bucketIds) {
    const buckets = new Set(filters.bucketIds);
    checks.push((chunk) => chunk.bucketId !== null && buckets.has(chunk.bucketId));
  }
  if (filters.documentIds) {
    const documents = new Set(filters.documentIds);
    checks.push((chunk) => documents.has(chunk.documentId));
  }
  if (filters.mimeTypes) {
    const mimes = new Set(filters.mimeTypes);
    checks.push((chunk) => mimes.has(chunk.mime));
  }
  if (filters.dateFrom !== undefined) {
    const from = dayOf(filters.dateFrom);
    checks.push((chunk) => chunk.documentDate !== null && dayOf(chunk.documentDate) >= from);
  }
  if (filters.dateTo !== undefined) {
    const to = dayOf(filters.dateTo);
    checks.push((chunk) => chunk.documentDate !== null && dayOf(chunk.documentDate) <= to);
  }
  if (filters.tags && filters.tags.length > 0) {
    const tags = [...new Set(filters.tags)];
    checks.push((chunk) => tags.every((tag) => chunk.tags.includes(tag)));
  }
  if (filters.fields) {
    const entries = Object.entries(filters.fields);
    if (entries.length > 0) {
      checks.push((chunk) =>
        entries.every(([key, value]) => Object.hasOwn(chunk.fields, key) && chunk.fields[key] === value),
      );
    }
  }
  const meta = filters.meta;
  if (meta && meta.length > 0) checks.push((chunk) => matchesMetaFilters(chunk.meta ?? {}, meta));
  if (checks.length === 0) return null;
  return (chunk) => checks.every((check) => check(chunk));
}
