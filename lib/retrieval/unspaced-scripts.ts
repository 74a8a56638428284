/**
 * Word splitting for scripts written without spaces between words: Han (Chinese, Japanese kanji), Hiragana,
 * Katakana, Thai, Lao, Khmer and Myanmar. A run of letters in these scripts is a phrase or a whole sentence, so
 * the analyser's "a token is a run of letters" rule would index "东北电气发展股份有限公司" as one term that no
 * question ever repeats.
 *
 * - Words come from ICU's word break iterator (`Intl.Segmenter`, word granularity), which Node ships with full
 *   ICU: dictionary-based for Chinese/Japanese (one CJ dictionary), Thai, Lao, Khmer and Burmese. No dependency,
 *   no model file, deterministic for a given Node (ICU) version. The dictionary is chosen by the characters'
 *   script, not by the locale, so one segmenter serves every language.
 * - Han runs are also indexed as overlapping character bigrams (Lucene's CJKBigramFilter): the dictionary may
 *   split a word differently in a question and in a document ("有限公司" is one word, "公司" another; a name
 *   glued to its title is split differently from the name alone), and a bigram still meets then.
 * - In Chinese and Japanese a space or line break between two characters is layout (a PDF wraps "有限公\n司"),
 *   not a word boundary: it is removed before segmenting. Thai, Lao, Khmer and Burmese use spaces between
 *   phrases, which stay boundaries.
 * - Hangul is not here: Korean is written with spaces, and ICU has no Korean dictionary to split it further.
 */

const CJ = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u30fc';
const SOUTHEAST_ASIAN = '\\p{Script=Thai}\\p{Script=Lao}\\p{Script=Khmer}\\p{Script=Myanmar}';

/** True when a text holds a character of a script written without spaces. */
export const HAS_UNSPACED_SCRIPT = new RegExp(`[${CJ}${SOUTHEAST_ASIAN}]`, 'u');

/** A run of such characters (with their combining marks); whitespace between two CJ characters joins the run. */
export const UNSPACED_RUN = new RegExp(
  `(?:[${CJ}${SOUTHEAST_ASIAN}]\\p{M}*|(?<=[${CJ}]\\p{M}*)\\s+(?=[${CJ}]))+`,
  'gu',
);

const WHITESPACE = /\s+/gu;
const HAN = /\p{Script=Han}/u;
const MAX_WORD_LENGTH = 64;

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

/**
 * Appends the terms of one unspaced run (as UNSPACED_RUN matches it, already folded): its dictionary words in
 * text order, then the overlapping bigrams of its Han characters, except where a two-character word already
 * stands at that position.
 */
export function emitUnspacedRun(match: string, out: string[], bigrams = true): void {
  const run = match.replace(WHITESPACE, '');
  const wordAt = new Map<number, string>();
  for (const { segment, index, isWordLike } of segmenter.segment(run)) {
    if (!isWordLike || segment.length > MAX_WORD_LENGTH) continue;
    out.push(segment);
    wordAt.set(index, segment);
  }
  if (!bigrams) return;
  // Code points with their UTF-16 offsets (rare Han characters lie outside the BMP).
  const chars: { char: string; at: number }[] = [];
  for (let at = 0; at < run.length; ) {
    const char = String.fromCodePoint(run.codePointAt(at) as number);
    chars.push({ char, at });
    at += char.length;
  }
  for (let i = 0; i + 1 < chars.length; i++) {
    const { char: first, at } = chars[i] as { char: string; at: number };
    const second = (chars[i + 1] as { char: string }).char;
    if (!HAN.test(first) || !HAN.test(second) || wordAt.get(at) === first + second) continue;
    out.push(first + second);
  }
}

/** Where a dropped word stood: a separator that ends a run, so no bigram spans the gap. */
const GAP = '、';

/**
 * The text with every dictionary word of its unspaced runs that is in `words` replaced by a separator (text in
 * other scripts is left as it is). Used to take the question words out of a question ("营业收入是多少" →
 * "营业收入、、"), as English function words are.
 */
export function withoutUnspacedWords(text: string, words: ReadonlySet<string>): string {
  if (!HAS_UNSPACED_SCRIPT.test(text)) return text;
  return text.replace(UNSPACED_RUN, (match) => {
    let out = '';
    for (const { segment } of segmenter.segment(match.replace(WHITESPACE, ''))) {
      out += words.has(segment) ? GAP : segment;
    }
    return out;
  });
}

/**
 * The words of a text: whitespace-separated tokens, with each run of an unspaced script split into its
 * dictionary words (punctuation between them dropped). Text without such scripts splits exactly on whitespace.
 */
export function wordsOf(text: string): string[] {
  const tokens = text.split(/\s+/).filter(Boolean);
  if (!HAS_UNSPACED_SCRIPT.test(text)) return tokens;
  const out: string[] = [];
  for (const token of tokens) {
    if (!HAS_UNSPACED_SCRIPT.test(token)) {
      out.push(token);
      continue;
    }
    for (const { segment, isWordLike } of segmenter.segment(token)) {
      if (isWordLike || /[\p{L}\p{N}]/u.test(segment)) out.push(segment);
    }
  }
  return out;
}
