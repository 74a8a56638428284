import { memoByText } from './memo';

/**
 * The gate's one normalisation, applied to both the draft and the evidence before any verbatim comparison:
 *
 * 1. NFKC per character cluster (a base character and the combining marks after it): decomposed accents compose,
 *    ligatures (ﬁ), full-width forms, no-break and other compatibility spaces become their plain forms;
 * 2. soft hyphens, zero-width spaces/joiners, word joiners and byte-order marks are removed;
 * 3. quotes unify: every single quote or apostrophe form (‘ ’ ‚ ‛ ′ `) becomes ', every double form
 *    (“ ” „ ‟ « ») becomes ", single guillemets (‹ ›) become ' (NFKC has already made a double prime ″ two primes);
 * 4. dashes and minus signs (‐ ‑ ‒ – — ― −) become -; the ellipsis becomes ...;
 * 5. whitespace folds: any run of whitespace (line breaks included) is one space, none at either end;
 * 6. the references an answer keeps encoded so that they show as text (`&lt;`, `&gt;`, `&amp;`, named or numeric;
 *    gate/rendered.ts) read as the characters they show.
 *
 * Case is kept. `normalizeWithMap` also returns, for every character of the result, the offset of the original
 * character it came from, so a match can be reported in the original text.
 */

const REMOVED = /[\u00AD\u200B-\u200D\u2060\uFEFF]/u;
const SINGLE = /[\u2018\u2019\u201A\u201B\u2032\u2039\u203A`]/gu;
const DOUBLE = /[\u201C-\u201F\u00AB\u00BB]/gu;
const DASH = /[\u2010-\u2015\u2212]/gu;
const SPACE = /\s/u;
/**
 * A reference to a character that would form markup if written bare (`&lt;`, `&gt;`, `&amp;`, named or numeric): an
 * answer keeps these encoded so they show as text (gate/rendered.ts), so they read as the characters they show.
 */
const MARKUP_REFERENCE = /&(?:lt|gt|amp|LT|GT|AMP|#0*(?:60|62|38)|#[xX]0*(?:3[cCeE]|26));/u;
const MARKUP_CHARS: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&' };
const CLUSTER = new RegExp(`(${MARKUP_REFERENCE.source})|\\P{M}\\p{M}*|\\p{M}+`, 'gsu');

/** The character a markup reference shows (`&lt;` <, `&#62;` >, `&#x26;` &). */
function markupChar(reference: string): string {
  const body = reference.slice(1, -1).toLowerCase();
  if (body.startsWith('#x')) return String.fromCharCode(Number.parseInt(body.slice(2), 16));
  if (body.startsWith('#')) return String.fromCharCode(Number.parseInt(body.slice(1), 10));
  return MARKUP_CHARS[body] ?? reference;
}

function foldCluster(cluster: string): string {
  return cluster
    .normalize('NFKC')
    .replace(REMOVED, '')
    .replace(SINGLE, "'")
    .replace(DOUBLE, '"')
    .replace(DASH, '-')
    .replace(/\u2026/gu, '...');
}

export interface Normalized {
  text: string;
  /** map[i] = offset in the original text of the character cluster that produced text[i]. */
  map: Int32Array;
  /** ends[i] = offset just past that cluster. */
  ends: Int32Array;
}

export function normalizeWithMap(input: string): Normalized {
  let text = '';
  const map: number[] = [];
  const ends: number[] = [];
  let pendingSpace = -1;
  for (const m of input.matchAll(CLUSTER)) {
    const at = m.index;
    const cluster = m[1] === undefined ? m[0] : markupChar(m[1]);
    for (const ch of foldCluster(cluster)) {
      if (SPACE.test(ch)) {
        if (pendingSpace < 0) pendingSpace = at;
        continue;
      }
      if (pendingSpace >= 0 && text.length > 0) {
        text += ' ';
        map.push(pendingSpace);
        ends.push(pendingSpace + 1);
      }
      pendingSpace = -1;
      text += ch;
      map.push(at);
      ends.push(at + m[0].length);
    }
  }
  return { text, map: Int32Array.from(map), ends: Int32Array.from(ends) };
}

/** The normalised form of `input` (see the module comment). */
export function normalize(input: string): string {
  return normalizeWithMap(input).text;
}

/**
 * `normalizeWithMap`, once per text: the opened chunks are searched for every quote of every check, so their
 * normalised form is kept for the 300 most recently searched texts (the offset maps are typed arrays).
 */
export const normalizedText: (text: string) => Normalized = memoByText(normalizeWithMap, 300);

/**
 * Where `needle` (normalised here) first occurs in the normalised haystack at or after `from`: its start and end
 * (exclusive) in the normalised text, or null. `looseFirst` lets the first letter differ in case only.
 */
export function spanOfNormalized(
  hay: Normalized,
  needle: string,
  looseFirst: boolean,
  from = 0,
): { start: number; end: number } | null {
  const found = locate(hay, normalize(needle), looseFirst, from);
  return found === null ? null : { start: found.at, end: found.at + found.length };
}

function locate(
  hay: Normalized,
  target: string,
  looseFirst: boolean,
  from: number,
): { at: number; length: number } | null {
  if (target.length === 0) return null;
  const variants = new Set([target]);
  if (looseFirst) {
    const first = target.charAt(0);
    variants.add(first.toLowerCase() + target.slice(1));
    variants.add(first.toUpperCase() + target.slice(1));
  }
  let best = -1;
  for (const v of variants) {
    const at = hay.text.indexOf(v, from);
    if (at >= 0 && (best < 0 || at < best)) best = at;
  }
  return best < 0 ? null : { at: best, length: target.length };
}

/**
 * Finds `needle` in `haystack` after normalising both; offsets are in the original haystack (end exclusive).
 * `looseFirst` lets the first letter differ in case only (a quote may start a sentence with a capital).
 */
export function findVerbatim(
  haystack: string,
  needle: string,
  looseFirst = false,
): { start: number; end: number } | null {
  const hay = normalizedText(haystack);
  const found = locate(hay, normalize(needle), looseFirst, 0);
  if (!found) return null;
  const start = hay.map[found.at] ?? 0;
  return { start, end: hay.ends[found.at + found.length - 1] ?? start };
}
