import { wordsOf } from '@/lib/retrieval/unspaced-scripts';
import { displayWidth, type Sentence, splitSentences } from './text';

/**
 * The units extractive mode quotes from a chunk: its sentences, with a long multi-line "sentence" (table rows, code,
 * lists, a form) split into its lines and the lines that only wrap prose joined again; and which units are too short
 * to quote.
 */

/**
 * Whether `next` continues the prose of `line` that a PDF wrapped at the page width: `line` ends inside a sentence
 * (its last word lower-case, or a comma, hyphen or dash) and neither line is a table row. A line ending in a number,
 * a capitalised word, a colon or a closing bracket (a form field, a heading, a caption) stays a line of its own.
 */
export function wrapsProse(line: string, next: string): boolean {
  if (line.includes(' | ') || next.includes(' | ')) return false;
  return /(?:^|\s)\p{Ll}[\p{L}'\u2019]*,?$|[,\u2010-\u2014-]$/u.test(line) && /^[\p{L}(\u2018\u201C"']/u.test(next);
}

/**
 * A field line: a short label, a colon and its value ("Author: E. F. Benson", "Date of Incident: 12/01/2015"). The
 * label is one to four words starting with a letter and ends in a letter or a closing bracket ("Table 2: Results" is a
 * caption); the value is not empty.
 */
export function isFieldLine(line: string): boolean {
  const t = line.trim();
  const colon = t.indexOf(':');
  if (colon <= 0 || colon === t.length - 1) return false;
  const label = t.slice(0, colon).trim();
  const value = t.slice(colon + 1).trim();
  return (
    /^\p{L}[\p{L}\p{M}'\u2019&/().\s-]*[\p{L})]$/u.test(label) &&
    label.split(/\s+/).length <= 4 &&
    value.length > 0 &&
    !/^\/\//.test(value)
  );
}

/**
 * Whether a multi-line unit is a block of fields (two or more lines, every one a field line: a title page's "Author:",
 * "Illustrator:", "Publisher:"): each is quoted alone. A block that mixes fields and prose stays one unit, as the
 * sentence splitter cut it (its fields read with the sentence they head).
 */
function fieldBlock(text: string): boolean {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  return lines.length >= 2 && lines.every(isFieldLine);
}

/**
 * Sentences; a long multi-line "sentence" (or a block of field lines, "Author: …" over "Illustrator: …") is split into
 * its lines, and lines that only wrap prose are joined again.
 */
export function quoteUnits(text: string): Sentence[] {
  const out: Sentence[] = [];
  for (const s of splitSentences(text)) {
    if (!s.text.includes('\n') || (s.text.length <= 300 && !fieldBlock(s.text))) {
      out.push(s);
      continue;
    }
    let offset = s.start;
    let open: Sentence | null = null;
    for (const line of s.text.split('\n')) {
      const lead = line.length - line.trimStart().length;
      const trimmed = line.trim();
      if (trimmed.length > 0) {
        const start = offset + lead;
        const end = start + trimmed.length;
        if (open && wrapsProse(open.text, trimmed)) {
          open = { text: text.slice(open.start, end), start: open.start, end };
        } else {
          if (open) out.push(open);
          open = { text: trimmed, start, end };
        }
      }
      offset += line.length + 1;
    }
    if (open) out.push(open);
  }
  return out;
}

/** The marker opening a bullet or numbered list item ("- ", "* ", "• ", "3. ", "3) "). */
export const LIST_ITEM = /^(?:[-*•]|\d{1,2}[.)])\s+/;

/**
 * A short unit that still states something: a sentence end, at least three words and a digit ("This edition July
 * 2016."), a list item of three words or more holding a digit ("- 500 g bread flour"), or a field line of at least
 * three words ("Author: E. F. Benson"). Other short units are dropped as fragments (labels, page furniture, running
 * heads).
 */
export function shortStatement(text: string): boolean {
  const t = text.trim();
  if (isFieldLine(t) && !t.includes('\n')) return wordsOf(t).length >= 3;
  // A list item stating an amount of something ("- 500 g bread flour", "2. 3 x M6 bolts"): a list's line ends without
  // a full stop, like an ingredient, a part or a dose.
  if (LIST_ITEM.test(t) && !t.includes('\n')) {
    const item = t.replace(LIST_ITEM, '');
    return wordsOf(item).length >= 3 && /\d/.test(item);
  }
  return /[.!?。！？]$/.test(t) && wordsOf(t).length >= 3 && /\d/.test(t);
}

/** Too short to quote as an answer: under 25 columns or four words, unless it is a short statement. */
export function tooShortToQuote(text: string): boolean {
  return (displayWidth(text) < 25 || wordsOf(text).length < 4) && !shortStatement(text);
}

/**
 * A source's own reference markers ("[35]", "[3, 12]", not an index such as "x[1]"): an answer reads the same
 * brackets as its citations.
 */
const SOURCE_MARKER = /\s*(?<![\p{L}\p{N}_])\[\d{1,3}(?:\s*,\s*\d{1,3})*\]\s*/gu;

/**
 * The text of a unit as it may be quoted: the source's own bracketed reference numbers ("built upon Detectron2 [35],
 * provides") elided with "…" (the gate's elision), so that they are not read as the answer's citation markers. A
 * marker that ends the unit is dropped.
 */
export function quotableText(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(SOURCE_MARKER, (m, offset: number, whole: string) =>
      offset + m.length >= whole.length ? '' : offset === 0 ? '' : ' … ',
    )
    .trim();
}
