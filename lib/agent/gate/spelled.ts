/**
 * English numbers written in words ("five hundred", "twenty-one", "two thousand and five", "one point five",
 * "a dozen", "three million"), with their offsets. Written by hand: the grammar is small and closed, and the
 * registry's word-to-number packages either pull a deprecated runtime (core-js 2) or are full NLP taggers.
 * A lone "one" (or "a") is not a number here: as a pronoun or article it is far more common than as a count.
 *
 * Words that state a value without being a cardinal count as numbers too, so a draft cannot slip a value past the
 * gate by spelling it another way:
 * - fractions: a count and a denominator ("two thirds" 2/3, "three quarters", "one tenth"), "a half", "a quarter",
 *   "and a half" after a count ("one and a half" 1.5), and a bare "half" ("half a minute" 0.5);
 * - ordinals from "third" on ("the fourth Tuesday" 4, "twenty-third" 23). "first" and "second" are not read
 *   (an order word and a unit of time far more often than a value), nor an ordinal before a comma ("Third, …"
 *   orders an answer's own steps) or at the head of a hyphenated compound ("third-party", "half-open");
 * - multiples: "twice" 2, "thrice" 3, "tenfold" 10 ("twofold", "hundredfold"; "ten-fold" is "ten"), and "double",
 *   "triple", "quadruple" as a verb ("doubled", "doubles the limit"), not as an adjective ("double quotes").
 */

import { ordinalWordValue, SCALE_WORDS, TENS_WORDS, UNIT_WORDS } from '../number-words';

export interface SpelledNumber {
  value: number;
  start: number;
  end: number;
}

interface Word {
  w: string;
  start: number;
  end: number;
}

function small(w: string): number | undefined {
  return UNIT_WORDS.get(w) ?? TENS_WORDS.get(w);
}

/** Parses one run of number words; returns the value and how many words it used (0 when none). */
function parseRun(words: readonly Word[], from: number): { value: number; used: number } {
  let total = 0;
  let current = 0;
  let any = false;
  let i = from;
  for (; i < words.length; i++) {
    const w = words[i]?.w ?? '';
    const next = words[i + 1]?.w ?? '';
    if (w === 'a' && !any && (next === 'hundred' || next === 'dozen' || SCALE_WORDS.has(next))) {
      current = 1;
      any = true;
      continue;
    }
    if (w === 'and' && any && small(next) !== undefined) continue;
    const s = small(w);
    if (s !== undefined) {
      // "twenty five" and "twenty-five" combine; "five five" does not.
      if (any && current % 10 === 0 && current % 100 !== 0 && s < 10) current += s;
      else if (current % 100 !== 0) break;
      else current += s;
      any = true;
      continue;
    }
    if (w === 'hundred' && any) {
      current *= 100;
      continue;
    }
    if (w === 'dozen' && any) {
      current *= 12;
      continue;
    }
    const scale = SCALE_WORDS.get(w);
    if (scale !== undefined && any) {
      total += current * scale;
      current = 0;
      continue;
    }
    break;
  }
  let used = i - from;
  let value = total + current;
  // "one point five"
  if (words[i]?.w === 'point') {
    let digits = '';
    let j = i + 1;
    for (; j < words.length; j++) {
      const d = UNIT_WORDS.get(words[j]?.w ?? '');
      if (d === undefined || d > 9) break;
      digits += String(d);
    }
    if (digits.length > 0) {
      value += Number(`0.${digits}`);
      used = j - from;
    }
  }
  return { value: any ? value : Number.NaN, used: any ? used : 0 };
}

/** The denominator a word names ("half" 2, "quarters" 4, "thirds" 3, "tenth" 10), from 2 on. */
function denominator(w: string): number | undefined {
  if (w === 'half' || w === 'halves') return 2;
  if (w === 'quarter' || w === 'quarters') return 4;
  const o = ordinalWordValue(w) ?? (w.endsWith('s') ? ordinalWordValue(w.slice(0, -1)) : undefined);
  return o !== undefined && o >= 3 ? o : undefined;
}

const MULTIPLES: ReadonlyMap<string, number> = new Map([
  ['twice', 2],
  ['thrice', 3],
]);
const MULTIPLY = /^(doubl|tripl|quadrupl)(e|es|ed|ing)$/;
const MULTIPLY_BY: Readonly<Record<string, number>> = { doubl: 2, tripl: 3, quadrupl: 4 };
/** Words after which "double" (and "triple") is a verb or states a multiple ("double the limit"). */
const DETERMINERS = new Set(['the', 'a', 'an', 'its', 'their', 'his', 'her', 'our', 'your', 'my', 'this', 'that']);

/** Whether words[i] and words[j] stand next to each other (spaces or a hyphen between). */
function adjacent(text: string, words: readonly Word[], i: number, j: number): boolean {
  const a = words[i];
  const b = words[j];
  return !!a && !!b && /^[\s-]+$/.test(text.slice(a.end, b.start));
}

/** Whether a word heads a hyphenated compound ("third-party") or orders a list ("Third, …"). */
function compoundOrListed(text: string, w: Word): boolean {
  return /^(?:-\p{L}|,)/u.test(text.slice(w.end, w.end + 2));
}

/** One value stated by a single non-cardinal word at words[i] (see the module comment), with words used. */
function otherWord(text: string, words: readonly Word[], i: number): { value: number; used: number } | null {
  const w = words[i] as Word;
  const next = words[i + 1]?.w ?? '';
  if ((w.w === 'a' || w.w === 'an') && (next === 'half' || next === 'quarter') && adjacent(text, words, i, i + 1))
    return compoundOrListed(text, words[i + 1] as Word) ? null : { value: 1 / (denominator(next) ?? 1), used: 2 };
  if (compoundOrListed(text, w)) return null;
  if (w.w === 'half') return { value: 0.5, used: 1 };
  const fold = /^([a-z]+?)-?fold$/.exec(w.w)?.[1];
  if (fold !== undefined) {
    const times = small(fold) ?? (fold === 'hundred' ? 100 : SCALE_WORDS.get(fold));
    if (times !== undefined) return { value: times, used: 1 };
  }
  const multiple = MULTIPLES.get(w.w);
  if (multiple !== undefined) return { value: multiple, used: 1 };
  const verb = MULTIPLY.exec(w.w);
  if (verb && (verb[2] !== 'e' || DETERMINERS.has(next))) return { value: MULTIPLY_BY[verb[1] ?? ''] ?? 1, used: 1 };
  const ordinal = ordinalWordValue(w.w);
  if (ordinal !== undefined && ordinal >= 3) return { value: ordinal, used: 1 };
  return null;
}

/** A count run extended by what may follow it: a denominator, "and a half", an ordinal unit ("twenty-third"). */
function extend(
  text: string,
  words: readonly Word[],
  i: number,
  run: { value: number; used: number },
): { value: number; used: number } {
  const at = i + run.used;
  const next = words[at];
  if (!next || !adjacent(text, words, at - 1, at)) return run;
  const ordinal = ordinalWordValue(next.w);
  if (ordinal !== undefined && ordinal < 10 && run.value >= 20 && run.value < 100 && run.value % 10 === 0)
    return { value: run.value + ordinal, used: run.used + 1 };
  const den = denominator(next.w);
  if (den !== undefined && !compoundOrListed(text, next)) return { value: run.value / den, used: run.used + 1 };
  const andAHalf = next.w === 'and' && words[at + 1]?.w === 'a' && words[at + 2]?.w === 'half';
  if (andAHalf && adjacent(text, words, at, at + 1) && adjacent(text, words, at + 1, at + 2))
    return { value: run.value + 0.5, used: run.used + 3 };
  return run;
}

/** Every number written in words in `text`. */
export function spelledNumbers(text: string): SpelledNumber[] {
  const words: Word[] = [];
  for (const m of text.matchAll(/[A-Za-z]+/g)) {
    words.push({ w: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length });
  }
  const out: SpelledNumber[] = [];
  for (let i = 0; i < words.length; ) {
    const run = parseRun(words, i);
    if (run.used === 0) {
      const other = otherWord(text, words, i);
      if (other) {
        const last = words[i + other.used - 1] as Word;
        out.push({ value: other.value, start: (words[i] as Word).start, end: last.end });
      }
      i += other?.used ?? 1;
      continue;
    }
    const { value, used } = extend(text, words, i, run);
    const first = words[i] as Word;
    const last = words[i + used - 1] as Word;
    // Words of one number sit next to each other (spaces, hyphens, "and"), never across punctuation.
    const lone = used === 1 && first.w === 'one';
    if (!lone && !/[^A-Za-z\s-]/.test(text.slice(first.start, last.end)))
      out.push({ value, start: first.start, end: last.end });
    i += used;
  }
  return out;
}
