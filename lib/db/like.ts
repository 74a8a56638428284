/**
 * LIKE patterns for "contains" filters. Prisma's `contains` passes `%` and `_` through as wildcards (and SQLite's
 * LIKE has no escape character unless the query names one), so a name filter of `100%` also matched `1000`.
 * Queries that filter by a user-typed substring use `LIKE ? ESCAPE '\'`, valid on SQLite and PostgreSQL alike,
 * with the value escaped here.
 */
export const LIKE_ESCAPE = '\\';

/** Escapes the escape character, `%` and `_` so every character of `value` matches itself. */
export function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `${LIKE_ESCAPE}${c}`);
}

/** The pattern matching any text that contains `value` literally. */
export function containsPattern(value: string): string {
  return `%${escapeLike(value)}%`;
}
