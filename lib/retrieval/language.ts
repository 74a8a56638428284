import { eld } from 'eld/extrasmall';

/**
 * Language detection for chunks and queries (ELD, "efficient language detector": n-gram scores over 60
 * languages, pure JavaScript, Apache-2.0). The extra-small database is used: on this project's German, French
 * and SciFact chunks it detects exactly what the larger ones do, loads in about 0.4 s instead of 1.7 s and takes
 * about 0.5 ms per chunk (docs/benchmarks-retrieval.md, "Languages").
 */

/** Languages with their own stemmer and stop words; every other language is analysed with the English rules. */
export const ANALYSIS_LANGUAGES = ['en', 'de', 'fr'] as const;
export type AnalysisLanguage = (typeof ANALYSIS_LANGUAGES)[number];

/** ISO 639-2 "undetermined": too short, code, numbers, or no language wins clearly. */
export const UNDETERMINED = 'und';

/** Characters looked at: the opening of a chunk decides its language (detection cost grows with length). */
const MAX_DETECT_CHARS = 2_000;
/**
 * A chunk with fewer letters is 'und' whatever the detector says: on an identifier or a two-word line its
 * "reliable" verdict is a guess (it calls `pg_reindex` Swedish).
 */
const MIN_CHUNK_LETTERS = 24;
const LETTER = /\p{L}/gu;

function letterCount(text: string, atLeast: number): number {
  let count = 0;
  LETTER.lastIndex = 0;
  while (count < atLeast && LETTER.exec(text) !== null) count++;
  return count;
}

const ISO_639_1 = /^[a-z]{2}$/;

export interface DetectedLanguage {
  /** ISO 639-1 code, or 'und' when nothing was detected. */
  language: string;
  /** ELD's own judgement: enough n-grams and a clear margin over the runner-up. */
  reliable: boolean;
}

/** Detects the language of a text; never throws. */
export function detectLanguageDetail(text: string): DetectedLanguage {
  const sample = text.length > MAX_DETECT_CHARS ? text.slice(0, MAX_DETECT_CHARS) : text;
  try {
    const result = eld.detect(sample);
    if (!ISO_639_1.test(result.language)) return { language: UNDETERMINED, reliable: false };
    return { language: result.language, reliable: result.isReliable() };
  } catch {
    return { language: UNDETERMINED, reliable: false };
  }
}

/**
 * The language stored on a chunk at ingest: an ISO 639-1 code when the detector is sure, else 'und'
 * (analysed with the English rules, as every text was before languages were detected).
 */
export function detectLanguage(text: string): string {
  if (letterCount(text, MIN_CHUNK_LETTERS) < MIN_CHUNK_LETTERS) return UNDETERMINED;
  const detected = detectLanguageDetail(text);
  return detected.reliable ? detected.language : UNDETERMINED;
}

export function isAnalysisLanguage(code: string): code is AnalysisLanguage {
  return (ANALYSIS_LANGUAGES as readonly string[]).includes(code);
}

/** The analyser rules a stored language code is analysed with ('en' for English, 'und' and unsupported ones). */
export function analysisLanguageOf(code: string | null | undefined): AnalysisLanguage {
  return code && isAnalysisLanguage(code) ? code : 'en';
}

/**
 * The language a query is most likely written in, among the given analysis languages, or null when the
 * detector is unsure or names a language that is not among them (short queries often are: "Kompaktheit").
 */
export function detectQueryLanguage(query: string, candidates: readonly AnalysisLanguage[]): AnalysisLanguage | null {
  const detected = detectLanguageDetail(query);
  if (!detected.reliable || !isAnalysisLanguage(detected.language)) return null;
  return candidates.includes(detected.language) ? detected.language : null;
}

/**
 * The languages to analyse a query in when the library's languages are unknown (the Qdrant sparse path):
 * English, and the query's detected language when the detector is sure of one with its own rules.
 */
export function likelyQueryLanguages(query: string): AnalysisLanguage[] {
  const detected = detectQueryLanguage(query, ANALYSIS_LANGUAGES);
  return detected && detected !== 'en' ? ['en', detected] : ['en'];
}
