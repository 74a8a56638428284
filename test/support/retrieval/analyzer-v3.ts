/**
 * The analyser as it was at ANALYZER_VERSION 3 (before scripts written without spaces were split into words),
 * frozen as the oracle of analyzer.test.ts: text without those scripts must analyse exactly as it did then.
 * Do not edit; it is a copy of lib/retrieval/analyzer.ts at version 3.
 */
import { stemmer as frenchStemmer } from '@orama/stemmers/french';
import { stemmer as germanStemmer } from '@orama/stemmers/german';
import { stopwords as frenchStopWords } from '@orama/stopwords/french';
import { stopwords as germanStopWords } from '@orama/stopwords/german';
import { stemmer } from 'stemmer';
import {
  ANALYSIS_LANGUAGES,
  type AnalysisLanguage,
  analysisLanguageOf,
  detectQueryLanguage,
} from '@/lib/retrieval/language';

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
 * - Stop words of the text's language are removed (letters-only tokens).
 * - Letters-only tokens are stemmed with the language's stemmer; tokens with digits or `_` are kept verbatim.
 * - Tokens longer than 64 characters are dropped (hashes, base64 blobs).
 *
 * Languages (an optional argument, ISO 639-1; default English): English keeps the Porter stemmer and the stop
 * lists below, so English text analyses exactly as it did before languages existed; German and French use the
 * Snowball stemmers and Snowball stop lists (@orama/stemmers, @orama/stopwords). Any other code ('und', 'es')
 * is analysed as English. Stemming runs on folded text (so "Haeuser", "Häuser" and "Hauser" meet, and a query
 * typed without accents finds accented text): both the index and the query fold first, so they always agree.
 * Terms carry no language prefix: a query is analysed under every language of the library and the union of
 * its terms is searched (`analyzeQueryTerms`).
 */

const MAX_TOKEN_LENGTH = 64;

/** Lucene/Anserini-style English stop list, extended with frequent function words. */
const STOP_WORDS: ReadonlySet<string> = new Set(
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
const INDEX_STOP_WORDS: ReadonlySet<string> = new Set(
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

/** A stemmer memoised per word (words follow Zipf's law: most calls hit). */
function cachedStemmer(stemWord: (word: string) => string): (word: string) => string {
  const cache = new Map<string, string>();
  return (word) => {
    const cached = cache.get(word);
    if (cached !== undefined) return cached;
    const result = stemWord(word);
    if (cache.size >= STEM_CACHE_LIMIT) cache.clear();
    cache.set(word, result);
    return result;
  };
}

const STEMMERS: Readonly<Record<AnalysisLanguage, (word: string) => string>> = {
  en: cachedStemmer(stemmer),
  de: cachedStemmer(germanStemmer),
  fr: cachedStemmer(frenchStemmer),
};

/** Case- and accent-folds text the way the index does (NFKD, marks stripped, lower-cased). */
function foldText(text: string): string {
  if (ASCII_ONLY.test(text)) return text.toLowerCase();
  return text.normalize('NFKD').replace(COMBINING_MARKS, '').normalize('NFC').toLowerCase();
}

/** Snowball's German and French stop lists, folded like the text they are compared with (über → uber). */
const foldedSet = (words: readonly string[]): ReadonlySet<string> =>
  new Set(words.map((word) => foldText(word)).filter((word) => word.length > 0));

/** Full stop lists: what a query drops (function words carry no topic). */
const QUERY_STOP_WORDS: Readonly<Record<AnalysisLanguage, ReadonlySet<string>>> = {
  en: STOP_WORDS,
  de: foldedSet(germanStopWords),
  fr: foldedSet(frenchStopWords),
};

/**
 * What the index drops: Lucene's short English set, and for German and French the Snowball lists, as Lucene's
 * GermanAnalyzer and FrenchAnalyzer do (their function words are so frequent that they only cost postings).
 */
const INDEX_STOP_SETS: Readonly<Record<AnalysisLanguage, ReadonlySet<string>>> = {
  en: INDEX_STOP_WORDS,
  de: QUERY_STOP_WORDS.de,
  fr: QUERY_STOP_WORDS.fr,
};

/** The stop set and stemmer of the analysis running now (set by analyseWith; analysis is synchronous). */
let stopWords: ReadonlySet<string> = STOP_WORDS;
let stem: (word: string) => string = STEMMERS.en;

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

/**
 * French elision: an article, pronoun or conjunction fused to the next word by an apostrophe is dropped
 * (l'agrandissement → agrandissement, qu'un → un), as Lucene's ElisionFilter does for French.
 */
const FRENCH_ELISION = /^(?:l|d|j|m|n|s|t|c|qu|jusqu|lorsqu|puisqu|quoiqu)['’](?=\p{L})/u;

/** The elision rule of the analysis running now (set by analyseWith, like the stop set). */
let elision: RegExp | null = null;

function dropApostrophes(candidate: string): string {
  if (!candidate.includes("'") && !candidate.includes('’')) return candidate;
  const word = elision ? candidate.replace(elision, '') : candidate;
  const parts = word.split(/['’]/);
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

/** One way of analysing: a stop set, a stemmer and the memo of candidate tokens analysed that way. */
interface Profile {
  stops: ReadonlySet<string>;
  stem: (word: string) => string;
  /** Leading elisions to drop (French), or null. */
  elision: RegExp | null;
  cache: Map<string, readonly string[]>;
}

const profiles = new Map<string, Profile>();

const ELISIONS: Readonly<Record<AnalysisLanguage, RegExp | null>> = { en: null, de: null, fr: FRENCH_ELISION };

function profileOf(kind: 'search' | 'index', language: AnalysisLanguage): Profile {
  const key = `${kind}:${language}`;
  let profile = profiles.get(key);
  if (!profile) {
    const stops = kind === 'search' ? QUERY_STOP_WORDS[language] : INDEX_STOP_SETS[language];
    profile = { stops, stem: STEMMERS[language], elision: ELISIONS[language], cache: new Map() };
    profiles.set(key, profile);
  }
  return profile;
}

/** A query-time profile: one language's stemmer with a stop set chosen for the query (see analyzeQueryTerms). */
function queryProfile(stopKey: string, stops: ReadonlySet<string>, language: AnalysisLanguage): Profile {
  const key = `query:${stopKey}:${language}`;
  let profile = profiles.get(key);
  if (!profile) {
    profile = { stops, stem: STEMMERS[language], elision: ELISIONS[language], cache: new Map() };
    profiles.set(key, profile);
  }
  return profile;
}

function analyseWith(text: string, profile: Profile): string[] {
  const out: string[] = [];
  const folded = foldText(text);
  const pattern = ASCII_ONLY.test(folded) ? ASCII_CANDIDATE : CANDIDATE;
  pattern.lastIndex = 0;
  stopWords = profile.stops;
  stem = profile.stem;
  elision = profile.elision;
  try {
    for (let match = pattern.exec(folded); match !== null; match = pattern.exec(folded)) {
      const terms = termsOfCandidate(match[0], profile.cache);
      for (let i = 0; i < terms.length; i++) out.push(terms[i] as string);
    }
  } finally {
    stopWords = STOP_WORDS;
    stem = STEMMERS.en;
    elision = null;
  }
  return out;
}

/**
 * Analyses text into index terms (folded, tokenised, stop words removed, stemmed), in text order.
 * `language` (ISO 639-1, default English) picks the stemmer and stop words; unsupported codes use English.
 */
export function analyze(text: string, language?: string | null): string[] {
  return analyseWith(text, profileOf('search', analysisLanguageOf(language)));
}

/**
 * What the embedded keyword index stores for a text: the same rules, but for English only Lucene's short stop
 * set is dropped, so every word a plain BM25 (Anserini) would index is searchable.
 */
export function analyzeForIndex(text: string, language?: string | null): string[] {
  return analyseWith(text, profileOf('index', analysisLanguageOf(language)));
}

interface QueryTerms {
  /** Content terms: the union, over the library's languages, of the query's stems without stop words. */
  content: string[];
  /** Every term the index could hold for the query's words (the fallback when no content term is indexed). */
  all: string[];
  /** The language whose stop words were dropped (detected, or the library's only one); null: unsure. */
  language: AnalysisLanguage | null;
}

const unionStops = new Map<string, ReadonlySet<string>>();

function unionStopWords(key: string, library: readonly AnalysisLanguage[]): ReadonlySet<string> {
  let union = unionStops.get(key);
  if (!union) {
    const words = new Set<string>();
    for (const code of library) for (const word of QUERY_STOP_WORDS[code]) words.add(word);
    union = words;
    unionStops.set(key, union);
  }
  return union;
}

function unionInOrder(lists: readonly (readonly string[])[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const list of lists) {
    for (const term of list) {
      if (!seen.has(term)) {
        seen.add(term);
        out.push(term);
      }
    }
  }
  return out;
}

/**
 * Query analysis for a library holding texts in `languages` (the languages chunks were analysed with).
 * A query is short, so its language is uncertain, and a German text is indexed under German stems only: the
 * query is therefore stemmed with EVERY library language and the union of the terms is searched (BM25 gives
 * a term that is absent from the library nothing, and each chunk holds the stems of one language, so the
 * variants of one word rarely score twice).
 * Stop words: when the detector is sure of the query's language, only that language's function words are
 * dropped (an English "cells die" keeps "die", a German article); when it is unsure, a word that is a function
 * word in any library language is dropped. A library of English texts only analyses exactly like `analyzeQuery`.
 */
export function analyzeQueryTerms(text: string, languages: readonly string[] = ['en']): QueryTerms {
  const present = ANALYSIS_LANGUAGES.filter((language) =>
    languages.some((code) => analysisLanguageOf(code) === language),
  );
  const library: AnalysisLanguage[] = present.length > 0 ? present : ['en'];
  if (library.length === 1) {
    const only = library[0] as AnalysisLanguage;
    return { content: analyze(text, only), all: analyzeForIndex(text, only), language: only };
  }
  const language = detectQueryLanguage(text, library);
  const stopKey = language ?? library.join('+');
  const stops = language ? QUERY_STOP_WORDS[language] : unionStopWords(stopKey, library);
  const content = unionInOrder(library.map((code) => analyseWith(text, queryProfile(stopKey, stops, code))));
  const all = unionInOrder(library.map((code) => analyzeForIndex(text, code)));
  return { content, all, language };
}
