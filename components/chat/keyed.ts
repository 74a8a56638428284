/**
 * Stable React keys for lists of values that may repeat: the value itself, with an occurrence suffix for
 * duplicates (`a`, `a#2`). Keys do not depend on position, so they survive items being added at the end.
 */
export function keyed<T>(items: readonly T[], keyOf: (item: T) => string): Array<{ key: string; item: T }> {
  const seen = new Map<string, number>();
  return items.map((item) => {
    const base = keyOf(item);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { key: n === 1 ? base : `${base}#${n}`, item };
  });
}
