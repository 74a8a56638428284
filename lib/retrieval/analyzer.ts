import { stemmer } from 'stemmer';

/**
 * The BM25 analyser shared by the embedded keyword index and the Qdrant sparse vectors.
 * Pure and deterministic: the same text always yields the same terms, in text order.
 *
 * Rules (each one is covered by analyzer.test.ts):
 * - Unicode NFKD, diacritics of Latin/Greek/Cyrillic letters removed (café → cafe, ﬁ → fi, Ｆｕｌｌ → full),
 *   recomposed (NFC) so other scripts keep their marks, then lower-cased.
 * - A token is a run of letters/digits. Inside a token:
 *   - `_` joins identifiers: `pg_reindex` yields `pg_reindex` and also its parts `pg`, `reindex`.
 *   - `.` is kept only between two digits: `v2.1`, `3.14`, `1.2.3`; elsewhere it splits (`e.g` → `e`, `g`).
 *   - `,` between a 1-3 digit group and 3-digit groups is a thousands separator: `1,000,000` → `1000000`.
 *   - an apostrophe is dropped, a trailing possessive `'s` too: `patient's` → `patient`, `don't` → `dont`.
 *   - `-` splits, and a compound of up to 3 letter/digit parts with a digit is also kept joined:
 *     `covid-19` → `covid19`, `covid`, `19`; `IL-6` → `il6`, `il`, `6`; `long-term` → `long`, `term`.
 *   - `/` and every other symbol split.
 * - English stop words are removed (letters-only tokens).
 * - Letters-only tokens are Porter-stemmed; tokens with digits or `_` are kept verbatim.
 * - Tokens longer than 64 characters are dropped (hashes, base64 blobs).
 */
/** Bumped whenever the rules change, so persisted analyses can be detected as stale. */
export const ANALYZER_VERSION = 2;

const MAX_TOKEN_LENGTH = 64;

/** Lucene/Anserini-style English stop list, extended with frequent function words. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not of off on once only or other ' +
    'our ours ourselves out over own same she should so some such than that the their theirs them themselves then there ' +
    'these they this those through to too under until up very was we were what when where which while who whom why will ' +
    'with would you your yours yourself yourselves'
  ).split(' '),
);

/**
 * Lucene's default English stop set (what Anserini's BM25 drops). The keyword index drops only these when it
 * indexes a document (`analyzeForIndex`), so a query made of words like "how", "what" or "up" still finds text.
 */
export const INDEX_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an and are as at be but by for if in into is it no not of on or such that the their then there these they ' +
    'this to was will with'
  ).split(' '),
);

const CANDIDATE = /[\p{L}\p{N}]+(?:[_.,'’-][\p{L}\p{N}]+)*/gu;
// The same token shape for ASCII-only text, where a non-Unicode pattern is several times faster.
const ASCII_CANDIDATE = /[a-z0-9]+(?:[_.,'-][a-z0-9]+)*/g;
// Diacritics are stripped from alphabetic scripts only: in kana or Devanagari the marks are part of the letter.
const COMBINING_MARKS = /(?<=[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]\p{M}*)\p{M}+/gu;
const ASCII_ONLY = /^[\x00-\x7f]*$/;
const LETTERS_ONLY = /^\p{L}+$/u;
const ALPHANUMERIC = /^[\p{L}\p{N}]+$/u;
const HAS_DIGIT = /\p{N}/u;
const MAX_JOINED_PARTS = 3;
const THOUSANDS_GROUP = /^\p{N}{3}(?:\.\p{N}+)?$/u;
const ONE_TO_THREE_DIGITS = /^\p{N}{1,3}$/u;
const ENDS_WITH_DIGIT = /\p{N}$/u;
const STARTS_WITH_DIGIT = /^\p{N}/u;

const STEM_CACHE_LIMIT = 200_000;
const stemCache = new Map<string, string>();

function stem(word: string): string {
  const cached = stemCache.get(word);
  if (cached !== undefined) return cached;
  const result = stemmer(word);
  if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
  stemCache.set(word, result);
  return result;
}

/** Case- and accent-folds text the way the index does (NFKD, marks stripped, lower-cased). */
export function foldText(text: string): string {
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(COMBINING_MARKS, '').normalize('NFC').toLowerCase();
}

/** The stop set of the analysis running now (set by analyseWith; analysis is synchronous). */
let stopWords: ReadonlySet<string> = STOP_WORDS;

function emitWord(word: string, out: string[]): void {
  if (word.length === 0 || word.length > MAX_TOKEN_LENGTH) return;
  if (LETTERS_ONLY.test(word)) {
    if (stopWords.has(word)) return;
    out.push(stem(word));
    return;
  }
  out.push(word);
}

/** Emits a token that may contain `_`: the whole identifier, then its parts. */
function emitIdentifier(token: string, out: string[]): void {
  if (!token.includes('_')) {
    emitWord(token, out);
    return;
  }
  const parts = token.split('_').filter((part) => part.length > 0);
  if (parts.length === 0) return;
  if (parts.length > 1 && token.length <= MAX_TOKEN_LENGTH) out.push(parts.join('_'));
  for (const part of parts) emitWord(part, out);
}

/** Splits on dots that are not between two digits. */
function emitDotted(segment: string, out: string[]): void {
  if (!segment.includes('.')) {
    emitIdentifier(segment, out);
    return;
  }
  const pieces = segment.split('.');
  let current = pieces[0] ?? '';
  for (let i = 1; i < pieces.length; i++) {
    const next = pieces[i] ?? '';
    if (ENDS_WITH_DIGIT.test(current) && STARTS_WITH_DIGIT.test(next)) {
      current = `${current}.${next}`;
    } else {
      emitIdentifier(current, out);
      current = next;
    }
  }
  emitIdentifier(current, out);
}

/** Joins thousands separators (`1,000,000`, `3,500.25`), splits every other comma. */
function emitCommaSeparated(candidate: string, out: string[]): void {
  if (!candidate.includes(',')) {
    emitDotted(candidate, out);
    return;
  }
  const groups = candidate.split(',');
  let current = groups[0] ?? '';
  let inNumber = false;
  for (let i = 1; i < groups.length; i++) {
    const next = groups[i] ?? '';
    const isThousands = (inNumber || ONE_TO_THREE_DIGITS.test(current)) && THOUSANDS_GROUP.test(next);
    if (isThousands) {
      current = `${current}${next}`;
      inNumber = !next.includes('.');
    } else {
      emitDotted(current, out);
      current = next;
      inNumber = false;
    }
  }
  emitDotted(current, out);
}

/**
 * Splits on hyphens; a short compound of plain letter/digit runs that contains a digit (covid-19, IL-6, SKU-42)
 * is also emitted joined (covid19, il6, sku42), so the spellings with and without the hyphen meet.
 */
function emitHyphenated(candidate: string, out: string[]): void {
  if (!candidate.includes('-')) {
    emitCommaSeparated(candidate, out);
    return;
  }
  const parts = candidate.split('-');
  if (parts.length <= MAX_JOINED_PARTS && parts.every((part) => ALPHANUMERIC.test(part))) {
    const joined = parts.join('');
    if (HAS_DIGIT.test(joined) && joined.length <= MAX_TOKEN_LENGTH) out.push(joined);
  }
  for (const part of parts) emitCommaSeparated(part, out);
}

function dropApostrophes(candidate: string): string {
  if (!candidate.includes("'") && !candidate.includes('’')) return candidate;
  const parts = candidate.split(/['’]/);
  if (parts.length > 1 && parts[parts.length - 1] === 's') parts.pop();
  return parts.join('');
}

const CANDIDATE_CACHE_LIMIT = 200_000;

/** The terms of one candidate token, memoised per stop set (tokens follow Zipf's law: most lookups hit). */
function termsOfCandidate(candidate: string, cache: Map<string, readonly string[]>): readonly string[] {
  let terms = cache.get(candidate);
  if (terms === undefined) {
    const out: string[] = [];
    emitHyphenated(dropApostrophes(candidate), out);
    terms = out;
    if (cache.size >= CANDIDATE_CACHE_LIMIT) cache.clear();
    cache.set(candidate, terms);
  }
  return terms;
}

const searchCache = new Map<string, readonly string[]>();
const indexCache = new Map<string, readonly string[]>();

function analyseWith(text: string, stops: ReadonlySet<string>, cache: Map<string, readonly string[]>): string[] {
  const out: string[] = [];
  const folded = foldText(text);
  const pattern = ASCII_ONLY.test(folded) ? ASCII_CANDIDATE : CANDIDATE;
  pattern.lastIndex = 0;
  stopWords = stops;
  try {
    for (let match = pattern.exec(folded); match !== null; match = pattern.exec(folded)) {
      const terms = termsOfCandidate(match[0], cache);
      for (let i = 0; i < terms.length; i++) out.push(terms[i] as string);
    }
  } finally {
    stopWords = STOP_WORDS;
  }
  return out;
}

/** Analyses text into index terms (folded, tokenised, stop words removed, stemmed), in text order. */
export function analyze(text: string): string[] {
  return analyseWith(text, STOP_WORDS, searchCache);
}

/**
 * What the embedded keyword index stores for a text: the same rules, but only Lucene's short stop set is dropped,
 * so every word a plain BM25 (Anserini) would index is searchable.
 */
export function analyzeForIndex(text: string): string[] {
  return analyseWith(text, INDEX_STOP_WORDS, indexCache);
}

/**
 * The terms a keyword query searches for: `analyze` (function words carry no topic), or, when that leaves
 * nothing ("what is it", "how to set up"), every term `analyzeForIndex` keeps, so a query with any indexed
 * word always finds the texts that contain it.
 */
export function analyzeQuery(text: string): string[] {
  const terms = analyze(text);
  return terms.length > 0 ? terms : analyzeForIndex(text);
}

/** Term frequencies of analysed text (the input of a BM25 sparse vector). */
export function termFrequencies(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of analyze(text)) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}
