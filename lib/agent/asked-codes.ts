/**
 * Identifiers a question names — a code mixing letters and digits such as a case number "150109-DSP-Milw-505", a
 * precinct "0050003A", a part "SNB22-3", a grade "S355J2" — and whether a text holds each of them. Evidence that
 * holds none of an asked code is about another record, so an answer quoted from it would be a wrong answer
 * presented as grounded. Plain numbers, years and digit-only codes ("737-8", "2019") are the numbers rule's
 * (numbersIn); short mixes that are words or names rather than record codes ("COVID-19", "H2SO4", "MP3", "3D",
 * "A5"), ordinals and decades ("21st", "1990s"), measures ("100km", "32GB") and compounds of a word and a number
 * ("pre-2000", "100-year-old") are not codes.
 */

/**
 * A word of the question, with its inner hyphens, slashes, dots and underscores. Letters of a code are cased ones
 * (Latin, Greek, Cyrillic…): a script without case runs its words together ("…公司2018年第一季度…"), and a number
 * inside such a run is a number, not a code.
 */
const TOKEN = /[\p{Lu}\p{Ll}\p{Lt}\p{N}]+(?:[-/._][\p{Lu}\p{Ll}\p{Lt}\p{N}]+)*/gu;
/** Separators a code may be written with or without ("150109-DSP-Milw-505", "150109DSP_Milw 505"). */
const SEPARATOR = '[\\s\\-‐‑–/._,:#]*';
/** A cased letter or a digit: a code does not stand inside a longer run of them. */
const CASED = '[\\p{Lu}\\p{Ll}\\p{Lt}\\p{N}]';
/** A number with an ordinal or plural ending ("21st", "1990s"): no code. */
const ORDINAL = /^\d+(?:st|nd|rd|th|s)$/i;
/** A number then letters ("100km", "32GB", "0050003A"): a code only with a leading zero or five digits and more. */
const NUMBER_THEN_LETTERS = /^(\d+)\p{L}+$/u;

function isCompoundWord(parts: string[]): boolean {
  const numeric = parts.filter((p) => /^\d+(?:st|nd|rd|th|s)?$/i.test(p));
  const words = parts.filter((p) => /^\p{Ll}{3,}$/u.test(p));
  return numeric.length === 1 && words.length === parts.length - 1;
}

/** Whether a question word is an identifier (see the module note). */
export function isCode(token: string): boolean {
  const alnum = token.replace(/[^\p{L}\p{N}]/gu, '');
  const digits = alnum.replace(/\D/g, '').length;
  if (digits === 0 || digits === alnum.length || digits < 3) return false;
  if (ORDINAL.test(token)) return false;
  const numberFirst = token.match(NUMBER_THEN_LETTERS);
  if (numberFirst) {
    const n = numberFirst[1] ?? '';
    return n.startsWith('0') || n.length >= 5;
  }
  return !isCompoundWord(token.split(/[-/._]/));
}

/** The identifiers a question names, once each. */
export function askedCodes(question: string): string[] {
  return [...new Set((question.match(TOKEN) ?? []).filter(isCode))];
}

/**
 * A pattern finding a code in text whatever its separators and letter case, and with or without leading zeros
 * ("0050003A" = "50003A"); letters and digits must be the same and in order, and the code must stand whole (not
 * inside a longer code: "SNB22-3" is not in "SNB22-35").
 */
function codePattern(code: string): RegExp {
  // Letters and digits only: nothing to escape.
  const chars = [...code.replace(/[^\p{L}\p{N}]/gu, '').replace(/^0+(?=\d)/, '')];
  const lead = /^\d/.test(chars[0] ?? '') ? '0*' : '';
  return new RegExp(`(?<!${CASED})${lead}${chars.join(SEPARATOR)}(?!${CASED})`, 'iu');
}

/** Whether text (a chunk with its title, heading and file name) holds the code. */
export function holdsCode(text: string, code: string): boolean {
  return codePattern(code).test(text);
}

/** The question's identifiers the text does not hold: evidence missing one is about another record. */
export function codesMissing(question: string, text: string): string[] {
  return askedCodes(question).filter((c) => !holdsCode(text, c));
}
