/**
 * English number words: the one table read by the gate (`gate/spelled.ts`, numbers written in words), the
 * constraint analysis (`constraints.ts`, "at least three searches") and answer-type detection (`answer-type.ts`, a
 * passage that states a count in words holds a quantity).
 */

/** zero to nineteen. */
export const UNIT_WORDS: ReadonlyMap<string, number> = new Map(
  Object.entries({
    zero: 0,
    one: 1,
    two: 2,
    three: 3,
    four: 4,
    five: 5,
    six: 6,
    seven: 7,
    eight: 8,
    nine: 9,
    ten: 10,
    eleven: 11,
    twelve: 12,
    thirteen: 13,
    fourteen: 14,
    fifteen: 15,
    sixteen: 16,
    seventeen: 17,
    eighteen: 18,
    nineteen: 19,
  }),
);

/** twenty to ninety. */
export const TENS_WORDS: ReadonlyMap<string, number> = new Map(
  Object.entries({
    twenty: 20,
    thirty: 30,
    forty: 40,
    fifty: 50,
    sixty: 60,
    seventy: 70,
    eighty: 80,
    ninety: 90,
  }),
);

/** Multipliers after a count ("three thousand"). */
export const SCALE_WORDS: ReadonlyMap<string, number> = new Map([
  ['thousand', 1e3],
  ['million', 1e6],
  ['billion', 1e9],
  ['trillion', 1e12],
]);

/** Words that name a count without being a numeral ("a search", "both sources", "several queries"). */
export const QUANTIFIER_WORDS: ReadonlyMap<string, number> = new Map(
  Object.entries({ a: 1, an: 1, single: 1, both: 2, couple: 2, several: 3 }),
);

/** The value of a single cardinal word (zero to nineteen, or a multiple of ten up to ninety). */
export function cardinalWord(word: string): number | undefined {
  const w = word.toLowerCase();
  return UNIT_WORDS.get(w) ?? TENS_WORDS.get(w);
}

/** A regex alternation of every number word (cardinals, hundred, dozen, scales), longest first. */
export const NUMBER_WORD_ALTERNATION = [
  ...UNIT_WORDS.keys(),
  ...TENS_WORDS.keys(),
  'hundred',
  'dozen',
  ...SCALE_WORDS.keys(),
]
  .sort((a, b) => b.length - a.length)
  .join('|');
