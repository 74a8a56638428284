import { analyze } from '@/lib/retrieval/analyzer';
import { irregularBase } from './irregular-verbs';

/** Shortest stem that may stand for a longer one ("argu" for "argument", "regist" for "registr"). */
export const MIN_SHARED_STEM = 4;

/** One stem a prefix of the other, the shorter at least `MIN_SHARED_STEM` letters (or the same stem). */
function prefixFamily(a: string, b: string): boolean {
  if (a === b) return true;
  if (a.length < MIN_SHARED_STEM || b.length < MIN_SHARED_STEM) return false;
  return a.length > b.length ? a.startsWith(b) : b.startsWith(a);
}

const baseCache = new Map<string, string | null>();
function baseOf(term: string): string | null {
  let base = baseCache.get(term);
  if (base === undefined) {
    base = irregularBase(term, analyze);
    baseCache.set(term, base);
  }
  return base;
}

/**
 * Whether two analysed terms are words of one family: one stem a prefix of the other, the shorter at least four
 * letters (the stemmer leaves "argued" as "argu" and "argument" whole; "registered" and "registration" as "regist"
 * and "registr"), or an irregular verb form and a word of its base's family ("wrote" and "writer", "sent" and
 * "sender"; `irregular-verbs.ts`).
 */
export function sameFamily(a: string, b: string): boolean {
  if (prefixFamily(a, b)) return true;
  const baseA = baseOf(a);
  const baseB = baseOf(b);
  return (baseA !== null && prefixFamily(baseA, b)) || (baseB !== null && prefixFamily(a, baseB));
}

/** Whether the analysed terms `have` hold `term`, or a word of its family (`sameFamily`). */
export function holdsFamily(have: ReadonlySet<string>, term: string): boolean {
  if (have.has(term)) return true;
  for (const h of have) if (sameFamily(h, term)) return true;
  return false;
}
