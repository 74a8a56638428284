import * as chrono from 'chrono-node';
import { memoByText } from './memo';
import { spelledNumbers } from './spelled';

/**
 * Every number a text states, in any written form, as comparable VALUE keys:
 *
 * - dates (any format chrono-node reads with a certain year and month, or a month name with a day):
 *   `d:2024-03-03`, `m:2024-03`, `md:03-03`; numeric dates are read both month-first and day-first;
 * - times (`02:00`, `14:30:15`, `2 pm`, `noon`, `midnight`): `t:2:00` in 24-hour form;
 * - versions and dotted identifiers (`v2.3`, `1.4.2`, `10.0.0.1`): `v:1.4.2`;
 * - numbers with thousand separators, decimals, k/M/B suffixes or magnitude words, percentages and units
 *   (`1,500`, `1.5k`, `1.5 thousand`, `30 %`, `5s`, `10GB`): `n:1500` (the unit is not part of the value);
 * - numbers in words (`five hundred`, and fractions, ordinals and multiples: see ./spelled): `n:500`;
 * - fractions (`3/4`, `¾`, `1 1/2`; in words `three quarters`, see ./spelled): `n:0.75` and `f:3/4`;
 * - scientific notation (`1e3`): `n:1000`.
 *
 * Ranges (`10-20`, `10 to 20`) are their two ends. A dash glued to digits and not after a digit is a minus sign
 * (`-30`, `−30`: `n:-30`); after a digit it makes a range. A percentage also reads as the fraction it is (`p:50`,
 * so "half" and "50%" ground each other). A sum of money (`$20`, `20 USD`, `€5,50`) is `c:USD:n:20`: only the same
 * sum in the same currency grounds it. A date with a day of the week that is not its own ("Monday, March 3,
 * 2024", a Sunday) has a key no evidence date has. Digits glued to letters on their left (`IPv4`, `x86_64`,
 * `SHA256`) are part of a name, not a number. Digits of any script (`١٠٠`, `१००`, `１００`) are read as digits.
 * A mention is grounded when one of its keys is among the keys of the evidence; the evidence's dates also yield
 * their year (`n:2024`) and month (`m:2024-03`), so a less precise statement of a stated date is grounded (see
 * keysOf for what else evidence grounds).
 */

export interface NumberMention {
  raw: string;
  start: number;
  end: number;
  keys: string[];
}

const pad = (n: number) => String(n).padStart(2, '0');

function valueKey(v: number): string {
  return `n:${Math.round(Math.abs(v) * 1e6) / 1e6}`;
}

const MAGNITUDE: Record<string, number> = {
  k: 1e3,
  K: 1e3,
  thousand: 1e3,
  M: 1e6,
  mn: 1e6,
  million: 1e6,
  B: 1e9,
  bn: 1e9,
  billion: 1e9,
  trillion: 1e12,
};

/** Replaces [start, end) with spaces so later passes do not see it again. */
function blank(text: string, start: number, end: number): string {
  return text.slice(0, start) + ' '.repeat(end - start) + text.slice(end);
}

const TIME =
  /(?<![\d:.])([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?(?:\s*([ap])\.?m\.?(?![\p{L}]))?|(?<![\d.,:])(1[0-2]|0?[1-9])\s*([ap])\.?m\.?(?![\p{L}])/giu;

function times(text: string, out: NumberMention[]): string {
  let rest = text;
  for (const m of text.matchAll(TIME)) {
    let hour = Number(m[1] ?? m[5]);
    const minute = m[2] ?? '00';
    const half = (m[4] ?? m[6])?.toLowerCase();
    if (half === 'p' && hour < 12) hour += 12;
    if (half === 'a' && hour === 12) hour = 0;
    const seconds = m[3] && m[3] !== '00' ? `:${m[3]}` : '';
    out.push({ raw: m[0], start: m.index, end: m.index + m[0].length, keys: [`t:${hour}:${minute}${seconds}`] });
    rest = blank(rest, m.index, m.index + m[0].length);
  }
  // A time of day named in words: noon is 12:00, midnight 0:00.
  for (const m of rest.matchAll(/\b(?:(noon|midday)|midnight)\b/giu)) {
    out.push({ raw: m[0], start: m.index, end: m.index + m[0].length, keys: [m[1] ? 't:12:00' : 't:0:00'] });
    rest = blank(rest, m.index, m.index + m[0].length);
  }
  return rest;
}

const REF = new Date(2000, 0, 1);
const MONTH_NAME = /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?![a-z])/i;
const YEAR = /(?<!\d)\d{4}(?!\d)|\d{1,2}[/.-]\d{1,2}[/.-]\d{2}(?!\d)/;

function dateKeys(r: chrono.ParsedResult): string[] {
  const s = r.start;
  const year = s.isCertain('year') ? s.get('year') : null;
  const month = s.isCertain('month') ? s.get('month') : null;
  const day = s.isCertain('day') ? s.get('day') : null;
  // Only absolute dates: a written year, or a month name with a day ("after 5 seconds" is not a date here).
  const explicitYear = YEAR.test(r.text);
  if (month === null) return [];
  if (year !== null && explicitYear && day !== null) {
    const key = `d:${year}-${pad(month)}-${pad(day)}`;
    // A stated day of the week must be that date's: "Monday, March 3, 2024" (a Sunday) is no date of the evidence.
    const weekday = s.isCertain('weekday') ? s.get('weekday') : null;
    const real = new Date(Date.UTC(year, month - 1, day)).getUTCDay();
    return weekday === null || weekday === real ? [key] : [`${key}@${weekday}`];
  }
  if (year !== null && explicitYear && MONTH_NAME.test(r.text)) return [`m:${year}-${pad(month)}`];
  if (day !== null && MONTH_NAME.test(r.text)) return [`md:${pad(month)}-${pad(day)}`];
  return [];
}

/** Where a date may stand: a month name, a four-digit year, or digits separated by - / or a dot. */
const DATE_HINT =
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?(?![a-z])|(?<!\d)\d{4}(?!\d)|\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}/gi;
const NUMERIC_DATE = /\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}/;
const WINDOW = 30;

/** The stretches of `text` around date hints (merged, at word boundaries): chrono reads only these. */
export function dateWindows(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = [];
  for (const m of text.matchAll(DATE_HINT)) {
    let start = Math.max(0, m.index - WINDOW);
    let end = Math.min(text.length, m.index + m[0].length + WINDOW);
    while (start > 0 && !/\s/.test(text.charAt(start - 1))) start--;
    while (end < text.length && !/\s/.test(text.charAt(end))) end++;
    const last = spans.at(-1);
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else spans.push({ start, end });
  }
  return spans;
}

function dates(text: string, out: NumberMention[]): string {
  let rest = text;
  const found = new Map<number, NumberMention>();
  for (const w of dateWindows(text)) {
    const slice = text.slice(w.start, w.end);
    // Numeric dates are read month-first (casual) and day-first (GB); others need one parser.
    const parsers = NUMERIC_DATE.test(slice) ? [chrono.en.casual, chrono.en.GB] : [chrono.en.casual];
    for (const parser of parsers) {
      for (const r of parser.parse(slice, REF)) {
        if (!/\d/.test(r.text) && !/\b(?:first|second|third|\w+th)\b/i.test(r.text)) continue;
        const keys = dateKeys(r);
        if (keys.length === 0) continue;
        const at = w.start + r.index;
        // Glued to a letter, digit or dot on its left ("v19.2.22", "10.19.2.22"), it is a version or an identifier.
        if (/[\p{L}\p{N}_.]/u.test(text.charAt(at - 1))) continue;
        // A dotted triple on its own ("10.1.10") reads both ways: a day-first date and a version.
        if (/^\d+\.\d+\.\d+$/.test(r.text) && !/^\.?\d/.test(text.slice(at + r.text.length))) keys.push(`v:${r.text}`);
        const prev = found.get(at);
        if (prev) prev.keys = [...new Set([...prev.keys, ...keys])];
        else found.set(at, { raw: r.text, start: at, end: at + r.text.length, keys });
      }
    }
  }
  for (const m of found.values()) {
    out.push(m);
    rest = blank(rest, m.start, m.end);
  }
  return rest;
}

const VERSION =
  /(?<![\p{L}\p{N}_.])(?:[vV](?=\d))?\d+(?:\.\d+){2,}(?![\p{N}.]\d)|(?<![\p{L}\p{N}_.])[vV]\d+(?:\.\d+)*(?![\p{N}])/gu;

function versions(text: string, out: NumberMention[]): string {
  let rest = text;
  for (const m of text.matchAll(VERSION)) {
    const v = m[0].replace(/^[vV]/, '');
    const keys = [`v:${v}`];
    if (!v.includes('.') || v.split('.').length === 2) keys.push(valueKey(Number(v)));
    out.push({ raw: m[0], start: m.index, end: m.index + m[0].length, keys });
    rest = blank(rest, m.index, m.index + m[0].length);
  }
  return rest;
}

const FRACTION = /(?<![\p{L}\p{N}_/.,])(?:(\d{1,3}) (?=\d{1,3}\/\d))?(\d{1,3})\/(\d{1,3})(?![\p{N}/]|[.,]\d)/gu;

/** "3/4", "1 1/2" (and ¾, folded by plainDigits): the value, and the fraction as written (`f:3/4`). */
function fractions(text: string, out: NumberMention[]): string {
  let rest = text;
  for (const m of text.matchAll(FRACTION)) {
    const over = Number(m[3]);
    if (over === 0) continue;
    const value = Number(m[1] ?? 0) + Number(m[2]) / over;
    out.push({ raw: m[0], start: m.index, end: m.index + m[0].length, keys: [valueKey(value), `f:${m[2]}/${m[3]}`] });
    rest = blank(rest, m.index, m.index + m[0].length);
  }
  return rest;
}

const NUMBER =
  /(?<![\p{L}\p{N}_])(\d{1,3}(?:[,\u00A0\u202F\u2009']\d{3})+(?!\d)|\d+)(?:([.,])(\d+))?(?:\s?(thousand|million|billion|trillion|bn|mn)\b|(k|K|M|B)(?![\p{L}\p{N}])|[eE]([+-]?\d{1,3})(?![\p{L}\p{N}]))?/gu;

/** A minus sign of a number: a dash glued to the digits, not after a digit ("10-20" is a range). */
const SIGN = /(?:^|[\s([=:])[-\u2212\uFE63\uFF0D]$/u;
const PERCENT = /^\s?(?:%|\uFF05|percent\b|per cent\b)/iu;

/** ISO 4217 codes, and the symbols Intl writes for them in English ("$" USD, "€" EUR, "CA$" CAD). */
const CURRENCY_CODES = new Set(Intl.supportedValuesOf('currency'));
const CURRENCY_SYMBOLS: ReadonlyMap<string, string> = new Map(
  [...CURRENCY_CODES].flatMap((code): [string, string][] => {
    const part = new Intl.NumberFormat('en', { style: 'currency', currency: code })
      .formatToParts(1)
      .find((p) => p.type === 'currency');
    return part && part.value !== code ? [[part.value, code]] : [];
  }),
);
/** Whether `word` is an ISO 4217 currency code ("EUR"): beside a number, the number check holds it to its sum. */
export function isCurrencyCode(word: string): boolean {
  return CURRENCY_CODES.has(word);
}

/** Currency names in words that are no other unit (a "pound" may be a weight). */
const CURRENCY_WORDS: ReadonlyMap<string, string> = new Map([
  ['dollar', 'USD'],
  ['euro', 'EUR'],
]);
const CURRENCY_BEFORE = /(?:^|[^\p{L}\p{N}])([A-Z]{0,3}\p{Sc}|[A-Z]{3})\s?-?$/u;
const CURRENCY_AFTER = /^\s?(?:([A-Z]{0,3}\p{Sc})|([A-Z]{3})(?![\p{L}\p{N}])|(dollar|euro)s?\b)/iu;

/** The currency (an ISO code, or the symbol as written when Intl names none) stated right before or after. */
function currencyAround(before: string, after: string): string | null {
  const b = CURRENCY_BEFORE.exec(before)?.[1];
  const a = CURRENCY_AFTER.exec(after);
  for (const mark of [b, a?.[1], a?.[2]]) {
    if (!mark) continue;
    if (CURRENCY_CODES.has(mark)) return mark;
    if (/\p{Sc}/u.test(mark)) return CURRENCY_SYMBOLS.get(mark) ?? mark;
  }
  const word = a?.[3]?.toLowerCase();
  return word ? (CURRENCY_WORDS.get(word) ?? null) : null;
}

function plainNumbers(text: string, out: NumberMention[]): string {
  let rest = text;
  for (const m of text.matchAll(NUMBER)) {
    const whole = (m[1] ?? '').replace(/[,\u00A0\u202F\u2009']/g, '');
    let frac = m[3] ?? '';
    let intPart = whole;
    // A comma followed by exactly three digits after a short integer separates thousands ("1,500"); any other
    // comma between digits is a decimal comma ("1,5").
    if (m[2] === ',' && frac.length === 3 && !(m[1] ?? '').match(/[,']/)) {
      intPart = whole + frac;
      frac = '';
    }
    let value = Number(frac ? `${intPart}.${frac}` : intPart);
    const magnitude = m[4] ?? m[5];
    if (magnitude) value *= MAGNITUDE[magnitude] ?? 1;
    // Scientific notation ("1e3", "2.5E-4").
    if (m[6]) value *= 10 ** Number(m[6]);
    const before = text.slice(Math.max(0, m.index - 6), m.index);
    const after = text.slice(m.index + m[0].length, m.index + m[0].length + 12);
    const sign = SIGN.test(before) ? '-' : '';
    const keys = [`${sign}${valueKey(value)}`.replace(/^-n:/, 'n:-')];
    if (frac && !magnitude && !m[6] && !sign) keys.push(`v:${intPart}.${frac}`);
    if (PERCENT.test(after)) keys.push(keys[0]?.replace(/^n:/, 'p:') ?? '');
    const currency = currencyAround(before, after);
    // A sum of money is grounded only by the same sum in the same currency ("€5" is not "5 seconds" or "$5").
    const stated = currency ? [`c:${currency}:${keys[0]}`] : keys;
    out.push({ raw: m[0], start: m.index, end: m.index + m[0].length, keys: stated });
    rest = blank(rest, m.index, m.index + m[0].length);
  }
  return rest;
}

function words(text: string, out: NumberMention[]): void {
  for (const s of spelledNumbers(text)) {
    out.push({ raw: text.slice(s.start, s.end), start: s.start, end: s.end, keys: [valueKey(s.value)] });
  }
}

const INVISIBLE = /[\u00AD\u200B-\u200D\u2060\uFEFF]/u;
const DECIMAL_DIGIT = /^\p{Nd}$/u;

/**
 * The value of a decimal digit of any script (Arabic-Indic ٣, Devanagari ३, …): Unicode keeps each script's
 * digits in one run of ten from zero, so the value is the distance from the start of the run.
 */
function digitValue(c: string): string | null {
  if (!DECIMAL_DIGIT.test(c)) return null;
  const cp = c.codePointAt(0) ?? 0;
  let zero = cp;
  while (cp - zero < 9 && DECIMAL_DIGIT.test(String.fromCodePoint(zero - 1))) zero--;
  return String(cp - zero);
}

/** One character's plain form: an ASCII digit, a fraction "3/4" (from ¾ or the fraction slash), or itself. */
function plainChar(c: string, before: string): string {
  if (c.charCodeAt(0) <= 127) return c;
  if (c === '\u2044') return '/';
  // The Arabic decimal and thousands separators ("٥٫٥" is 5.5, "١٬٥٠٠" is 1,500).
  if (c === '\u066B') return '.';
  if (c === '\u066C') return ',';
  const folded = c.normalize('NFKC');
  if (folded.length === 1 && /\d/.test(folded)) return folded;
  const fraction = /^(\d+)\u2044(\d+)$/u.exec(folded);
  // A vulgar fraction after digits is a mixed number ("1½" is 1 1/2).
  if (fraction) return `${/\d$/.test(before) ? ' ' : ''}${fraction[1]}/${fraction[2]}`;
  return digitValue(c) ?? c;
}

/**
 * Digits as ASCII, whatever their form (full-width, superscript, circled: one character whose NFKC form is one
 * digit; any script's decimal digits), vulgar fractions as "3/4", and invisible characters between digits removed
 * ("5\u200B0" is 50), with a map back to `text`'s offsets.
 */
function plainDigits(text: string): { text: string; map: number[] } {
  let out = '';
  const map: number[] = [];
  const chars = [...text];
  let at = 0;
  for (const [i, c] of chars.entries()) {
    const skip = INVISIBLE.test(c) && /\d/.test(out.at(-1) ?? '') && /\d/.test(plainChar(chars[i + 1] ?? '', ''));
    if (!skip) {
      const ch = plainChar(c, out);
      out += ch;
      for (let k = 0; k < ch.length; k++) map.push(at);
    }
    at += c.length;
  }
  map.push(at);
  return { text: out, map };
}

/** Every number mentioned in `text`, in order (offsets in `text`). */
export function numberMentions(text: string): NumberMention[] {
  const plain = plainDigits(text);
  const out: NumberMention[] = [];
  let rest = times(plain.text, out);
  rest = dates(rest, out);
  rest = versions(rest, out);
  rest = fractions(rest, out);
  rest = plainNumbers(rest, out);
  words(rest, out);
  if (plain.text !== text)
    for (const m of out) {
      m.start = plain.map[m.start] ?? m.start;
      m.end = plain.map[m.end] ?? m.end;
      m.raw = text.slice(m.start, m.end);
    }
  return out.sort((a, b) => a.start - b.start);
}

/**
 * The value keys a piece of evidence grounds: its mentions' keys, and what each grounds as well: a date its year
 * and month; a fraction ("3/4") its two numbers; a negative number its magnitude ("-30" grounds "a 30% drop", not
 * the reverse); a percentage the fraction it is ("50%" grounds "half") and a fraction the percentage; a sum of
 * money its bare number ("$20" grounds "20", not "€20").
 */
function keysOf(text: string): Set<string> {
  const keys = new Set<string>();
  const add = (k: string) => {
    keys.add(k);
    const d = /^d:(\d+)-(\d+)-(\d+)$/.exec(k);
    if (d) {
      keys.add(`m:${d[1]}-${d[2]}`);
      keys.add(`md:${d[2]}-${d[3]}`);
    }
    const ym = /^[dm]:(\d+)-/.exec(k);
    if (ym) keys.add(valueKey(Number(ym[1])));
    const f = /^f:(\d+)\/(\d+)$/.exec(k);
    if (f) for (const part of [f[1], f[2]]) keys.add(valueKey(Number(part)));
    const money = /^c:[^:]+:(.+)$/.exec(k);
    if (money?.[1]) add(money[1]);
    const n = /^([np]):(-?)(\d+(?:\.\d+)?)$/.exec(k);
    if (n) {
      const v = Number(n[3]);
      if (n[2]) keys.add(`${n[1]}:${n[3]}`);
      if (n[1] === 'p') keys.add(valueKey(v / 100));
      else if (v > 0 && v < 1) keys.add(`p:${Math.round(v * 100 * 1e4) / 1e4}`);
    }
  };
  for (const m of numberMentions(text)) for (const k of m.keys) add(k);
  return keys;
}

/**
 * `keysOf`, parsed once per text: a chunk is parsed (chrono-node and the number passes) on its first check and
 * reused by every later check, draft and run while it stays among the 2,000 most recently used texts.
 * The returned set is shared: do not modify it.
 */
export const evidenceKeys: (text: string) => ReadonlySet<string> = memoByText(keysOf, 2000);

/** Whether one mention is grounded by the given evidence keys. */
export function grounded(mention: NumberMention, keys: ReadonlySet<string>): boolean {
  return mention.keys.some((k) => keys.has(k));
}
