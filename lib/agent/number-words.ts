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

/** Ordinal words: first to nineteenth, and the tens ("twentieth"; "twenty-second" is read as twenty + second). */
export const ORDINAL_UNITS: ReadonlyMap<string, number> = new Map(
  Object.entries({
    first: 1,
    second: 2,
    third: 3,
    fourth: 4,
    fifth: 5,
    sixth: 6,
    seventh: 7,
    eighth: 8,
    ninth: 9,
    tenth: 10,
    eleventh: 11,
    twelfth: 12,
    thirteenth: 13,
    fourteenth: 14,
    fifteenth: 15,
    sixteenth: 16,
    seventeenth: 17,
    eighteenth: 18,
    nineteenth: 19,
  }),
);

export const ORDINAL_TENS: ReadonlyMap<string, number> = new Map(
  Object.entries({
    twentieth: 20,
    thirtieth: 30,
    fortieth: 40,
    fiftieth: 50,
    sixtieth: 60,
    seventieth: 70,
    eightieth: 80,
    ninetieth: 90,
  }),
);

/** The value of an ordinal word ("third" 3, "twentieth" 20, "twenty-second" 22), else undefined. */
export function ordinalWordValue(word: string): number | undefined {
  const w = word.toLowerCase();
  const single = ORDINAL_UNITS.get(w) ?? ORDINAL_TENS.get(w);
  if (single !== undefined) return single;
  const m = /^([a-z]+)[-\s]([a-z]+)$/.exec(w);
  if (!m?.[1] || !m[2]) return undefined;
  const tens = TENS_WORDS.get(m[1]);
  const unit = ORDINAL_UNITS.get(m[2]);
  return tens !== undefined && unit !== undefined && unit < 10 ? tens + unit : undefined;
}
