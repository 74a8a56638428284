import { analyze } from '@/lib/retrieval/analyzer';
import { detectLanguage } from '@/lib/retrieval/language';
import type { AnswerType } from './answer-type';
import { type AnswerSignals, certainSignals } from './confidence';
import { kindTerms } from './document-kind';
import { holds } from './extractive-select';
import { unicodeBoundaries } from './injection';
import type { OpenedChunk } from './state';

/**
 * When a document was written: an essay, an article, a memo or a letter says it by a date line at its opening
 * ("January 2023", "12 March 2021", "2021-03-12") above or before its first sentence, a byline date that never says
 * "written". Like an e-mail's Date header (email-header.ts), the date is read by its place: a question asking when
 * the document itself was written, published or dated, about one opened document whose first passage opens with a
 * date, is answered with that date. A date later in the text dates an event, not the document, and is left to the
 * sentence reader.
 */

/** A case-insensitive pattern whose `\b` sees accented letters as letters ("écrit"). */
function unicodeWords(source: string): RegExp {
  return unicodeBoundaries(new RegExp(source, 'iu'));
}

/** The question asks when a text was made: written, published, dated, issued, posted (English, French, German). */
const ASKS_WHEN_MADE = unicodeWords(
  String.raw`\b(?:when|what\s+(?:date|year|month)|in\s+which\s+(?:year|month)|quand|wann)\b.*\b(?:written|wrote|write|published|dated|issued|posted|authored|composed|penned|[ée]crite?s?|publi[ée]e?s?|paru|geschrieben|ver[öo]ffentlicht|erschienen)\b`,
);

/** Words of the question that only ask when the document was made, or name a kind of text. */
const FRAME_TEXT =
  'when what which date year month in was is were did the this that it written wrote write published dated issued ' +
  'posted authored composed penned document text essay article post piece paper memo letter report note page ' +
  'quand a été est écrit écrite publié publiée paru le la ce cet cette document texte essai article lettre ' +
  'wann wurde ist hat geschrieben veröffentlicht erschienen der die das dieser diese dokument text aufsatz artikel brief';
const FRAME_WORDS = new Set([null, 'fr', 'de'].flatMap((language) => analyze(FRAME_TEXT, language)));

const MONTH = String.raw`(?:jan(?:uary|vier)?|feb(?:ruary)?|f[ée]v(?:rier)?|m[äa]r(?:ch|s|z)?|apr(?:il)?|avr(?:il)?|may|mai|jun[ei]?|juin|jul[iy]?|juillet|aug(?:ust)?|ao[ûu]t|sep(?:t(?:ember|embre)?)?|o[ck]t(?:ober|obre)?|nov(?:ember|embre)?|d[ée]c(?:ember|embre)?|dez(?:ember)?)\.?`;
/** A date standing first: "January 2023", "January 5, 2023", "5 January 2023", "2023-01-05", "05/01/2023". */
const OPENING_DATE = new RegExp(
  String.raw`^(?:${MONTH}\s+\d{1,2},?\s+\d{4}|\d{1,2}\.?\s+${MONTH}\s+\d{4}|${MONTH}\s+\d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}[/.]\d{4})(?=$|[\s,;.(])`,
  'iu',
);

/** How many short lines (a title, a byline) may stand above the date line. */
const LINES_ABOVE = 2;

/** The date a passage opens with (after at most `LINES_ABOVE` short lines without a full stop), or null. */
export function openingDate(text: string): string | null {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  for (const [i, line] of lines.entries()) {
    const m = OPENING_DATE.exec(line);
    if (m) return m[0].trim();
    const short = line.split(/\s+/).length <= 12 && !/[.!?]$/.test(line);
    if (i >= LINES_ABOVE || !short) return null;
  }
  return null;
}

export interface DocumentDateAnswer {
  opened: OpenedChunk;
  date: string;
  signals: AnswerSignals;
}

/**
 * The opening date answering "When was <document> written/published?", from the one opened document the question is
 * about (its other words are in the document's title, file name or format name) whose first passage opens with a
 * date; null when the question asks something else, no such passage was opened, or two documents fit.
 */
export function documentDateAnswer(
  question: string,
  answerType: AnswerType,
  opened: readonly OpenedChunk[],
): DocumentDateAnswer | null {
  if (answerType !== 'date' || !ASKS_WHEN_MADE.test(question)) return null;
  const rest = analyze(question, detectLanguage(question)).filter((t) => t.length > 1 && !FRAME_WORDS.has(t));
  const fits = opened
    .filter((o) => o.chunk.index === 0)
    .map((o) => ({ o, date: openingDate(o.chunk.text) }))
    .filter((x): x is { o: OpenedChunk; date: string } => x.date !== null)
    .filter((x) => {
      const { title, filename, mime } = x.o.chunk;
      const names = new Set([...analyze(`${title ?? ''} ${filename ?? ''}`), ...kindTerms(mime)]);
      return rest.every((t) => holds(names, t));
    });
  const best = fits[0];
  if (!best || fits.some((x) => x.o.chunk.documentId !== best.o.chunk.documentId)) return null;
  // Read by its place, not its words: a byline date may date the last revision; Medium at most.
  return { opened: best.o, date: best.date, signals: certainSignals(answerType, { openSpan: true }) };
}
