/**
 * English numbers written in words ("five hundred", "twenty-one", "two thousand and five", "one point five",
 * "a dozen", "three million"), with their offsets. Written by hand: the grammar is small and closed, and the
 * registry's word-to-number packages either pull a deprecated runtime (core-js 2) or are full NLP taggers.
 * A lone "one" (or "a") is not a number here: as a pronoun or article it is far more common than as a count.
 */

import { SCALE_WORDS, TENS_WORDS, UNIT_WORDS } from '../number-words';

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

/** Every number written in words in `text`. */
export function spelledNumbers(text: string): SpelledNumber[] {
  const words: Word[] = [];
  for (const m of text.matchAll(/[A-Za-z]+/g)) {
    words.push({ w: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length });
  }
  const out: SpelledNumber[] = [];
  for (let i = 0; i < words.length; ) {
    const { value, used } = parseRun(words, i);
    if (used === 0) {
      i++;
      continue;
    }
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
