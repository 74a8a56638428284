/**
 * A bounded, least-recently-used memo keyed by text. The gate reads the same opened chunks on every check (each
 * draft, each repair, the delivery), and the same chunks come back across runs: what it parses from a chunk
 * (number and date keys, the normalised text) is computed once, on first use, and reused while it stays among the
 * `max` most recently used texts.
 */
export function memoByText<T>(compute: (text: string) => T, max: number): (text: string) => T {
  const entries = new Map<string, T>();
  return (text: string): T => {
    const hit = entries.get(text);
    if (hit !== undefined) {
      // Most recently used last: Map keeps insertion order, so re-inserting moves it to the end.
      entries.delete(text);
      entries.set(text, hit);
      return hit;
    }
    const value = compute(text);
    entries.set(text, value);
    if (entries.size > max) {
      const oldest = entries.keys().next();
      if (!oldest.done) entries.delete(oldest.value);
    }
    return value;
  };
}
