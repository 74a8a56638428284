/**
 * Quoted spans of a piece of answer text, in every quote style: straight and curly double quotes, „…“, «…» and
 * »…«, straight and curly single quotes (an apostrophe inside a word, "don't", never opens or closes one), and
 * inline code in backticks. A quote may run across single line breaks. Nested quotes belong to the outer one.
 * Marks that look like quotes are quotes too: any initial/final quotation punctuation pair (Unicode Pi … Pf,
 * ‚…‘), CJK corner brackets and double-prime quotes (「…」 『…』 〝…〞), and the look-alikes of the straight
 * marks (full-width ＂ ＇, primes ″ ′, modifier letters ʺ ʹ, Hebrew ״), and HTML <q> and <blockquote>: a
 * reader sees each as a quotation, so each is checked as one.
 */

export interface QuoteMatch {
  /** The quoted text, without its quote marks. */
  text: string;
  /** Offsets of the whole quote, marks included. */
  start: number;
  end: number;
  kind: 'quote' | 'code';
}

const L = '\\p{L}\\p{N}';
/** Marks a reader takes for a straight double quote: " and its full-width, prime, modifier-letter look-alikes. */
const DQ = '"\\uFF02\\u2033\\u2036\\u02BA\\u02EE\\u05F4\\u3003';
/** Marks a reader takes for a straight single quote. */
const SQ = "'\\uFF07\\u2032\\u2035\\u02B9";
const PATTERNS: { re: RegExp; kind: QuoteMatch['kind'] }[] = [
  { re: /(`+)(?!`)([^`]|[^`][\s\S]*?[^`])\1(?!`)/gu, kind: 'code' },
  { re: /[\u201C\u201E]([^\u201C\u201D\u201E]+?)[\u201D\u201C]/gu, kind: 'quote' },
  { re: /\u00AB\s?([^\u00AB\u00BB]+?)\s?\u00BB/gu, kind: 'quote' },
  { re: /\u00BB([^\u00AB\u00BB]+?)\u00AB/gu, kind: 'quote' },
  { re: /\u2039([^\u2039\u203A]+?)\u203A/gu, kind: 'quote' },
  { re: new RegExp(`(?<![${L}])[${DQ}](?=\\S)([^${DQ}]+?)(?<=\\S)[${DQ}](?![${L}])`, 'gu'), kind: 'quote' },
  {
    re: new RegExp(
      `(?<![${L}${SQ}])[${SQ}](?=[^\\s${SQ}])((?:[^${SQ}\\n]|[${SQ}](?=[${L}]))+?)(?<=\\S)[${SQ}](?![${L}])`,
      'gu',
    ),
    kind: 'quote',
  },
  { re: /\u201A([^\u201A\u2018\u2019]+?)[\u2018\u2019]/gu, kind: 'quote' },
  {
    re: /[\u300C\u300E\u301D\uFE41\uFE43]([^\u300C-\u300F\u301D-\u301F\uFE41-\uFE44]+?)[\u300D\u300F\u301E\u301F\uFE42\uFE44]/gu,
    kind: 'quote',
  },
  { re: /\p{Pi}([^\p{Pi}\p{Pf}]+?)\p{Pf}/gu, kind: 'quote' },
  { re: /<(q|blockquote)(?:\s[^>]*)?>([\s\S]+?)<\/\1\s*>/giu, kind: 'quote' },
  {
    re: new RegExp(`(?<![${L}\u2019])\u2018((?:[^\u2018\u2019]|\u2019(?=[${L}]))+?)\u2019(?![${L}])`, 'gu'),
    kind: 'quote',
  },
];

/** Quotes never span a blank line (a paragraph break). */
const PARAGRAPH = /\n[ \t]*\n/;

export function findQuotes(text: string): QuoteMatch[] {
  const all: QuoteMatch[] = [];
  for (const { re, kind } of PATTERNS) {
    for (const m of text.matchAll(re)) {
      const inner = kind === 'code' || /^<\w/.test(m[0]) ? (m[2] ?? '') : (m[1] ?? '');
      if (PARAGRAPH.test(inner) || inner.trim().length === 0) continue;
      all.push({ text: inner.trim(), start: m.index, end: m.index + m[0].length, kind });
    }
  }
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: QuoteMatch[] = [];
  for (const q of all) {
    const last = out.at(-1);
    if (last && q.start < last.end) continue;
    out.push(q);
  }
  return out;
}
