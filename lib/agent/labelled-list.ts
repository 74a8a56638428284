import { analyze } from '@/lib/retrieval/analyzer';
import { type AnswerType, questionFrameTerms, specificWords, typeIsStrict, withoutInterrogatives } from './answer-type';
import { type AnswerSignals, certainSignals } from './confidence';
import { kindTerms } from './document-kind';
import { holds } from './extractive-select';
import type { OpenedChunk } from './state';
import { keyTerms } from './text';

/**
 * A list under a label that says what the question asks: "What are the important points in the email?" over
 * "Important points:" and two bullets; "What are the side effects of the vaccine?" over "## Side effects" and its
 * items. The items seldom repeat the label's words, so the sentence reader finds none of the question on them and
 * declines, and the label alone is a heading it never quotes. Read here as a unit: the label line holds at least half
 * of the asked attribute words (the words that are not names; "the email" is said by the format, document-kind.ts),
 * every other word of the question stands above it (the title, the heading path, the file name or the text before the
 * label: what the list is about), and at least two list items follow the label directly. The answer quotes the label
 * and its items. Only for questions that ask for no number, date or name and no yes or no (those have their value in
 * a sentence), and only when one opened document has such a list: two documents' lists are left to the reader.
 */

export interface LabelledList {
  opened: OpenedChunk;
  /** The label line, verbatim ("Important points:"; a Markdown heading without its "#"). */
  label: string;
  /** The items' text after their bullet or number, verbatim, in order. */
  items: string[];
  signals: AnswerSignals;
}

/** Items quoted at most (the rest of a long list stays in the cited passage). */
export const MAX_ITEMS = 12;

/** A list item: a bullet, a dash, or "1." / "a)" before its text. */
const ITEM = /^\s*(?:[-*•‣◦▪–]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s+(\S.*)$/u;

/** A label line: a short phrase ending in a colon, or a Markdown heading. */
function labelText(line: string): string | null {
  const t = line.trim();
  const heading = /^#{1,6}\s+(\S.*)$/.exec(t);
  if (heading) return (heading[1] as string).trim();
  if (!t.endsWith(':') || t.length > 80 || t.length < 3) return null;
  // one phrase, not a sentence that ends in a colon after saying something ("Please note the following:")
  if (/[.!?;]/.test(t.slice(0, -1)) || ITEM.test(t)) return null;
  return t;
}

/** The items right under line `at` (one blank line may stand before and between them), verbatim. */
function itemsUnder(lines: readonly string[], at: number): string[] {
  const out: string[] = [];
  let blanks = 0;
  for (let i = at + 1; i < lines.length && out.length < MAX_ITEMS; i++) {
    const line = lines[i] ?? '';
    if (line.trim() === '') {
      if (++blanks > 1) break;
      continue;
    }
    blanks = 0;
    const m = ITEM.exec(line);
    if (!m) break;
    out.push((m[1] as string).trim());
  }
  return out;
}

/**
 * The list that answers the question, from the one opened document that has one; null when the question asks a
 * typed value or yes/no, names nothing but the type of answer, or no (or more than one) document has such a list.
 */
export function labelledListAnswer(
  question: string,
  answerType: AnswerType,
  opened: readonly OpenedChunk[],
): LabelledList | null {
  if (typeIsStrict(answerType) || answerType === 'yesno') return null;
  const frame = questionFrameTerms(question);
  const topic = keyTerms(withoutInterrogatives(question)).filter((t) => !frame.has(t));
  const specific = new Set(specificWords(question).flatMap((w) => analyze(w)));
  const found: { o: OpenedChunk; label: string; items: string[] }[] = [];
  for (const o of opened) {
    const c = o.chunk;
    const kind = new Set(kindTerms(c.mime));
    const attributes = topic.filter((t) => !specific.has(t) && !kind.has(t));
    if (attributes.length === 0) continue;
    const named = `${c.title ?? ''} ${c.headingPath ?? ''} ${c.filename.replace(/[-_.]/g, ' ')}`;
    const lines = c.text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const label = labelText(lines[i] ?? '');
      if (!label) continue;
      const said = new Set(analyze(label));
      // the label says most of what is asked; what it leaves out (the thing the list is about) is said above it
      if (attributes.filter((t) => holds(said, t)).length * 2 < attributes.length) continue;
      const above = new Set([...analyze(`${named} ${lines.slice(0, i).join('\n')}`), ...kind, ...said]);
      if (!topic.every((t) => holds(above, t))) continue;
      const items = itemsUnder(lines, i);
      if (items.length >= 2) {
        found.push({ o, label, items });
        break;
      }
    }
  }
  const documents = new Set(found.map((f) => f.o.chunk.documentId));
  const best = found[0];
  if (!best || documents.size > 1) return null;
  return {
    opened: best.o,
    label: best.label,
    items: best.items,
    // whether the list is complete the words cannot show (a chunk may end mid-list): never High
    signals: certainSignals(answerType, { openSpan: true }),
  };
}
