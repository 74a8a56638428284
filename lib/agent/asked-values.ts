/**
 * Values a question states that a passage answering it must state too, beyond the bare numbers `numbersIn` reads:
 * a month ("the average temperature in January", "as of February 2015"), a day of the week ("sits Tuesdays,
 * Wednesdays and Fridays") and an ordinal written in digits ("the 22nd most liveable city", "Genghis's 3rd son").
 * Like a year, each is a condition of the question, not a topic word a passage may paraphrase: a passage that gives
 * the value for March, for Thursdays or for the 32nd place answers another question, however many of the
 * question's other words it shares. A passage may write the value in another form ("Feb.", "third"); a range the
 * question asks about ("January–June", "from May to July") is met by either of its ends.
 */

import { ORDINAL_UNITS, ordinalWordValue, TENS_WORDS } from './number-words';

export { ordinalWordValue };

/** One value the question states: any of its keys met in a passage meets it. */
export interface AskedValue {
  /** The value as the question writes it (for the decline note). */
  label: string;
  /** Normalised keys ("month:2", "day:5", "ordinal:22"); a range holds both ends. */
  keys: string[];
}

/** The English month names, January first (shared with meta-plan.ts). */
export const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** Month names that are also common words ("may", "march"): a month only where the text marks it as one. */
const AMBIGUOUS_MONTHS = new Set(['may', 'march']);

/** Words before a lower-case "may" or "march" that show it names the month ("in may", "early march"). */
const MONTH_CUE =
  /^(?:in|of|on|since|until|till|by|before|after|during|from|to|through|early|late|mid|last|next|this)$/i;

/** Abbreviations of months and days, read only capitalised ("Sat" and "Sun" are words too, see `WORD_ABBREVIATIONS`). */
const MONTH_ABBREVIATIONS: ReadonlyMap<string, number> = new Map([
  ['Jan', 1],
  ['Feb', 2],
  ['Mar', 3],
  ['Apr', 4],
  ['Jun', 6],
  ['Jul', 7],
  ['Aug', 8],
  ['Sep', 9],
  ['Sept', 9],
  ['Oct', 10],
  ['Nov', 11],
  ['Dec', 12],
]);

const DAY_ABBREVIATIONS: ReadonlyMap<string, number> = new Map([
  ['Mon', 1],
  ['Tue', 2],
  ['Tues', 2],
  ['Wed', 3],
  ['Thu', 4],
  ['Thur', 4],
  ['Thurs', 4],
  ['Fri', 5],
  ['Sat', 6],
  ['Sun', 7],
]);

/** Abbreviations that are English words too. */
const WORD_ABBREVIATIONS = new Set(['Mar', 'Mon', 'Wed', 'Sat', 'Sun']);

/** An ordinal in digits ("22nd", "3rd", "45th"). */
const DIGIT_ORDINAL = /^(\d+)(?:st|nd|rd|th)$/i;

interface Token {
  word: string;
  /** The token starts the text or follows a sentence end (its capital shows nothing). */
  first: boolean;
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  let first = true;
  for (const m of text.matchAll(/\d+(?:st|nd|rd|th)\b|[\p{L}]+(?:-[\p{L}]+)?|[.!?]|\d+/giu)) {
    const word = m[0];
    if (/^[.!?]$/.test(word)) {
      first = true;
      continue;
    }
    out.push({ word, first });
    first = false;
  }
  return out;
}

/**
 * The key of a token as a calendar or ordinal value, read strictly (`loose` false: passages) or as typed questions
 * write them (`loose` true: lower case accepted, "may"/"march" only after a cue word or next to a number).
 */
function keyOf(tokenList: readonly Token[], i: number, loose: boolean): string | null {
  const t = tokenList[i];
  if (!t) return null;
  const w = t.word;
  const lower = w.toLowerCase();
  const digit = DIGIT_ORDINAL.exec(w);
  if (digit?.[1]) return `ordinal:${Number.parseInt(digit[1], 10)}`;
  // Capitalised as a name is ("May", "Sat"), not a heading in capitals.
  const capital = /^\p{Lu}\p{Ll}/u.test(w);
  const month = MONTHS.indexOf(lower as (typeof MONTHS)[number]);
  if (month >= 0) {
    if (!AMBIGUOUS_MONTHS.has(lower)) return `month:${month + 1}`;
    const before = tokenList[i - 1]?.word ?? '';
    const after = tokenList[i + 1]?.word ?? '';
    const nearNumber = /^\d/.test(before) || /^\d/.test(after);
    if ((capital && !t.first) || nearNumber || (loose && MONTH_CUE.test(before))) return `month:${month + 1}`;
    return null;
  }
  const singular = lower.endsWith('s') ? lower.slice(0, -1) : lower;
  const day = DAYS.indexOf(singular as (typeof DAYS)[number]);
  if (day >= 0) return `day:${day + 1}`;
  // An abbreviation that is also a word ("Sat", "Sun", "Mar") opening a sentence is read as the word.
  if (capital && !(t.first && WORD_ABBREVIATIONS.has(w))) {
    const m = MONTH_ABBREVIATIONS.get(w);
    if (m !== undefined) return `month:${m}`;
    const d = DAY_ABBREVIATIONS.get(w);
    if (d !== undefined) return `day:${d}`;
  }
  if (!loose) {
    const ordinal = ordinalWordValue(w);
    if (ordinal !== undefined) return `ordinal:${ordinal}`;
  }
  return null;
}

/** Words joining the two ends of a range ("January–June", "from May to July", "Monday through Friday"). */
const RANGE_JOIN = /^(?:to|through|thru|till|until)$/i;

/**
 * The months, days of the week and digit ordinals a question states (`AskedValue`). Ordinal words in the question
 * ("the first vaccine", "the third season") are left out: "first" is said of most things and paraphrased as often
 * ("earliest", "began"). Cardinal words are left out too: "identify four problems" asks for a list, not a number.
 */
export function askedValues(question: string): AskedValue[] {
  // A dash between two words is a range ("January–June", "May - July"); read it as "to".
  const ts = tokens(question.replace(/\s*[–—]\s*|\s+-\s+/g, ' to '));
  const out: AskedValue[] = [];
  for (let i = 0; i < ts.length; i++) {
    const key = keyOf(ts, i, true);
    if (!key) continue;
    const t = ts[i];
    if (!t) continue;
    const join = ts[i + 1];
    const end = join && RANGE_JOIN.test(join.word) ? keyOf(ts, i + 2, true) : null;
    if (end && end.split(':')[0] === key.split(':')[0]) {
      out.push({ label: `${t.word}–${ts[i + 2]?.word ?? ''}`, keys: [key, end] });
      i += 2;
      continue;
    }
    out.push({ label: t.word, keys: [key] });
  }
  return out;
}

/** How many words after a number its detached superscript suffix may stand (a PDF puts it where the line ends). */
const SUFFIX_REACH = 3;

/** The ordinal suffix of a number in English (1 "st", 12 "th", 22 "nd", 45 "th"). */
export function ordinalSuffix(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
}

/** The calendar and ordinal keys a passage states (months, days, ordinals in digits or words). */
export function valuesIn(text: string): Set<string> {
  const ts = tokens(text);
  const out = new Set<string>();
  for (let i = 0; i < ts.length; i++) {
    const key = keyOf(ts, i, false);
    if (key) out.add(key);
  }
  // A PDF's superscript ordinal suffix set apart from its number ("its 45 Annual th General Meeting" for "45th").
  for (let i = 0; i < ts.length; i++) {
    const w = ts[i]?.word ?? '';
    if (!/^\d+$/.test(w)) continue;
    const n = Number.parseInt(w, 10);
    if (ts.slice(i + 1, i + 1 + SUFFIX_REACH).some((t) => t.word === ordinalSuffix(n))) out.add(`ordinal:${n}`);
  }
  // A number word before an ordinal word ("twenty - second", split by spaced hyphens in some sources).
  for (let i = 0; i + 1 < ts.length; i++) {
    const a = ts[i]?.word.toLowerCase() ?? '';
    const b = ts[i + 1]?.word ?? '';
    const tens = TENS_WORDS.get(a);
    const unit = ORDINAL_UNITS.get(b.toLowerCase());
    if (tens !== undefined && unit !== undefined && unit < 10) out.add(`ordinal:${tens + unit}`);
  }
  return out;
}

/** The values the question states that the text does not (none: the text may answer). */
export function missingValues(question: string, text: string): string[] {
  const asked = askedValues(question);
  if (asked.length === 0) return [];
  const have = valuesIn(text);
  return asked.filter((v) => !v.keys.some((k) => have.has(k))).map((v) => v.label);
}
