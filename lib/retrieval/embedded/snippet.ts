import { analyze } from '@/lib/retrieval/analyzer';

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_.,'’-]*/gu;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ALNUM = /[\p{L}\p{N}]/u;
/** Length of the excerpt, in characters (cut at word boundaries). */
const SNIPPET_CHARS = 240;
/** Context kept before the first matching term. */
const LEAD_CHARS = 40;
const WORD_CACHE_LIMIT = 200_000;
const wordTerms = new Map<string, readonly string[]>();

interface TermHit {
  position: number;
  term: number;
}

const foldedChars = new Map<string, string>();

/** Folds one character (é → e) when that keeps it one UTF-16 unit; otherwise returns it unchanged. */
function foldChar(char: string): string {
  let folded = foldedChars.get(char);
  if (folded === undefined) {
    const stripped = char.normalize('NFKD').replace(/\p{M}+/gu, '');
    folded = stripped.length === 1 ? stripped : char;
    foldedChars.set(char, folded);
  }
  return folded;
}

/** Lower-cased and accent-folded text with exactly the same length, so positions map back to the original. */
function foldSameLength(text: string): string | null {
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return null;
  if (ASCII_ONLY.test(lower)) return lower;
  let out = '';
  for (let i = 0; i < lower.length; i++) {
    const code = lower.charCodeAt(i);
    const char = lower[i] ?? '';
    out += code < 0x80 || (code >= 0xd800 && code <= 0xdfff) ? char : foldChar(char);
  }
  return out;
}

/** analyze() of one word, memoised (words repeat across chunks; the analyser is pure). */
function termsOfWord(word: string): readonly string[] {
  let terms = wordTerms.get(word);
  if (terms === undefined) {
    terms = analyze(word);
    if (wordTerms.size >= WORD_CACHE_LIMIT) wordTerms.clear();
    wordTerms.set(word, terms);
  }
  return terms;
}

function isWordChar(text: string, position: number): boolean {
  const char = text[position];
  return char !== undefined && ALNUM.test(char);
}

/**
 * Finds each query term (a stem) where a word of the folded text starts with it (terms of 1-2 characters must be
 * the whole word), by substring search. Fast; a stem is a prefix of its surface words (Porter strips suffixes).
 */
function findHitsFolded(lower: string, terms: readonly string[]): TermHit[] {
  const hits: TermHit[] = [];
  terms.forEach((term, termIndex) => {
    let from = lower.indexOf(term);
    while (from >= 0) {
      const startsWord = from === 0 || !isWordChar(lower, from - 1);
      const wholeWordNeeded = term.length <= 2;
      if (startsWord && (!wholeWordNeeded || !isWordChar(lower, from + term.length))) {
        hits.push({ position: from, term: termIndex });
      }
      from = lower.indexOf(term, from + 1);
    }
  });
  return hits.sort((a, b) => a.position - b.position);
}

/** Any text: analyse word by word (folding accents), exact term equality. */
function findHitsAnalysed(text: string, terms: readonly string[]): TermHit[] {
  const termIndex = new Map(terms.map((term, i) => [term, i]));
  const hits: TermHit[] = [];
  for (const match of text.matchAll(WORD)) {
    for (const term of termsOfWord(match[0])) {
      const index = termIndex.get(term);
      if (index !== undefined) {
        hits.push({ position: match.index ?? 0, term: index });
        break;
      }
    }
  }
  return hits;
}

/** The start of the densest window of hits: most distinct terms, then most hits. */
function densestStart(hits: TermHit[], termCount: number): number {
  let best = hits[0]?.position ?? 0;
  let bestScore = -1;
  const counts = new Int32Array(termCount);
  let distinct = 0;
  let right = 0;
  for (let left = 0; left < hits.length; left++) {
    const start = hits[left]?.position ?? 0;
    while (right < hits.length && (hits[right]?.position ?? 0) < start + SNIPPET_CHARS - LEAD_CHARS) {
      const term = hits[right]?.term ?? 0;
      if (counts[term] === 0) distinct++;
      counts[term] = (counts[term] ?? 0) + 1;
      right++;
    }
    const score = distinct * 10_000 + (right - left);
    if (score > bestScore) {
      bestScore = score;
      best = start;
    }
    const leaving = hits[left]?.term ?? 0;
    counts[leaving] = (counts[leaving] ?? 0) - 1;
    if (counts[leaving] === 0) distinct--;
  }
  return best;
}

function excerpt(text: string, anchor: number): string {
  let start = Math.max(0, anchor - LEAD_CHARS);
  if (start > 0) {
    const space = text.indexOf(' ', start);
    start = space >= 0 && space < anchor ? space + 1 : anchor;
  }
  let end = Math.min(text.length, start + SNIPPET_CHARS);
  if (end < text.length) {
    const space = text.lastIndexOf(' ', end);
    if (space > start + SNIPPET_CHARS / 2) end = space;
  }
  const body = text.slice(start, end).replace(/\s+/g, ' ').trim();
  return `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`;
}

/**
 * A short excerpt of `text` (about 240 characters) around the densest cluster of query terms, matched through
 * the analyser (so "mutations" highlights "mutation"). Without any matching term: the beginning of the text.
 */
export function makeSnippet(text: string, queryTerms: ReadonlySet<string>): string {
  const terms = [...queryTerms];
  if (terms.length === 0) return excerpt(text, 0);
  const folded = foldSameLength(text);
  const hits = folded !== null ? findHitsFolded(folded, terms) : findHitsAnalysed(text, terms);
  if (hits.length === 0) return excerpt(text, 0);
  return excerpt(text, densestStart(hits, terms.length));
}
