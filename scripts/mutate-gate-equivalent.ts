/**
 * Why each surviving mutant of the gate survives (`npm run mutate:gate` prints the reason next to it in docs/gate.md).
 * A mutant is keyed by its file, its mutator, the source line it stands on (trimmed), the code it replaces and the
 * replacement (whitespace folded), not by its line number, so a reason follows the code when lines move and goes
 * stale when the code changes. A survivor without a reason here is listed as a gap in the tests.
 */

export interface MutantKey {
  file: string;
  mutator: string;
  /** The trimmed source line the mutant starts on. */
  line: string;
  original: string;
  replacement: string;
}

interface Reason extends MutantKey {
  why: string;
}

const REASONS: readonly Reason[] = [];

export function equivalentReason(key: MutantKey): string | null {
  const hit = REASONS.find(
    (r) =>
      r.file === key.file &&
      r.mutator === key.mutator &&
      r.line === key.line &&
      r.original === key.original &&
      r.replacement === key.replacement,
  );
  return hit?.why ?? null;
}
