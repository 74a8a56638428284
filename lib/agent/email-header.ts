import { kindOfMime } from '@/lib/ingest/mime-by-kind';
import type { DocumentKind } from '@/lib/ingest/types';
import { analyze } from '@/lib/retrieval/analyzer';
import { detectLanguage } from '@/lib/retrieval/language';
import type { AnswerType } from './answer-type';
import { type AnswerSignals, certainSignals } from './confidence';
import { kindTerms } from './document-kind';
import { holds } from './extractive-select';
import { unicodeBoundaries } from './injection';
import type { OpenedChunk } from './state';

/**
 * Who sent an e-mail, to whom, when, and its subject: read from the header lines the mail parser writes above the
 * body (lib/ingest/parsers/email.ts: "Subject:", "From:", "To:", "Cc:", "Date:", "Attachments:", for .eml and Outlook
 * .msg alike).
 * A question asks for one of these fields by a verb the header never says ("Who sent …", "When was … sent"), so
 * the sentence reader finds no word of the question on the line that answers it; like a table cell read where its
 * row meets its column, the field is read by its label. Used only when the question names the message as an
 * e-mail and one opened e-mail is the one it is about (its other words are in that e-mail); otherwise the ordinary
 * reader answers or declines.
 */

/** An e-mail as the mail parser reads it: a saved message (.eml) or an Outlook item (.msg). */
function isMail(kind: DocumentKind | undefined): boolean {
  return kind === 'eml' || kind === 'msg';
}

export type MailField = 'From' | 'To' | 'Date' | 'Subject' | 'Attachments';

/** The header labels the mail parser writes, in its order. */
const HEADER_LINE = /^(Subject|From|To|Cc|Date|Attachments): .+$/;

/** A case-insensitive pattern whose `\b` sees accented letters as letters ("envoyé"; injection.ts's rule). */
function unicodeWords(source: string): RegExp {
  return unicodeBoundaries(new RegExp(source, 'iu'));
}

/** The question names the message as an e-mail ("the email", "this e-mail", "the message", "la mail"). */
const NAMES_MAIL = unicodeWords(String.raw`\b(?:e-?mails?|mails?|messages?|courriels?|nachrichten?)\b`);

const ASKS: readonly (readonly [MailField, RegExp])[] = [
  // "Who was the email sent to?", "To whom …", "the recipients", "addressed to" (asked before "who sent")
  [
    'To',
    unicodeWords(
      String.raw`\b(?:to\s+whom|recipients?|addressees?|addressed\s+to|who\s+(?:received|got)|destinataires?|empf[äa]nger)\b|\b(?:sent|send|written|wrote|mailed|emailed)\s+to\s*\??\s*$`,
    ),
  ],
  [
    'From',
    unicodeWords(
      String.raw`\b(?:who\s+(?:sent|sends|send|wrote|writes|emailed|mailed)|sender|sent\s+by|written\s+by|from\s+whom|who\s+(?:is|was)\s+(?:it|the\s+[\p{L}-]+(?:\s+[\p{L}-]+)?)\s+from|exp[ée]diteur|absender|qui\s+a\s+(?:envoy[ée]|[ée]crit))\b|\bwer\s+hat\b.*\b(?:geschickt|gesendet|geschrieben|verschickt)\b`,
    ),
  ],
  [
    'Date',
    unicodeWords(
      String.raw`\b(?:when|what\s+(?:date|day|time)|on\s+which\s+(?:date|day)|quand|wann)\b.*\b(?:sent|send|written|wrote|dated|received|mailed|emailed|envoy[ée]e?|gesendet|geschickt)\b|\b(?:sending|sent)\s+date\b|\bdate\s+of\s+the\s+(?:e-?mail|message)\b`,
    ),
  ],
  ['Subject', unicodeWords(String.raw`\b(?:subject|subject\s+line|objet|betreff)\b`)],
  [
    'Attachments',
    unicodeWords(String.raw`\b(?:attach(?:ed|ments?)|enclosed|enclosures?|pi[èe]ces?\s+jointes?|anh[äa]nge?)\b`),
  ],
];

/** The field a question asks of an e-mail, if it asks one. */
export function askedMailField(question: string): MailField | null {
  if (!NAMES_MAIL.test(question)) return null;
  for (const [field, re] of ASKS) if (re.test(question)) return field;
  return null;
}

/** The header lines at the top of an e-mail's first passage, by label. */
export function mailHeaders(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = HEADER_LINE.exec(line.trim());
    if (!m) break;
    out.set(m[1] as string, line.trim());
  }
  return out;
}

/** Words of the question that only say which field is asked or that the message is an e-mail. */
const FIELD_TEXT =
  'who whom when what which date day time sent send sends sender wrote written write writes mailed emailed received ' +
  'recipient recipients addressed addressee subject line title email e-mail mail message from to by attached ' +
  'attachment attachments enclosed ' +
  // the French and German words the field patterns read (ASKS)
  'qui quand envoyé envoyée écrit courriel courriels expéditeur destinataire destinataires objet pièce pièces ' +
  'jointe jointes wer wann wurde hat gesendet geschickt geschrieben verschickt absender empfänger betreff anhang ' +
  'anhänge nachricht nachrichten';
/** The same words as each language's analysis writes them (a French question is read with French stop words). */
const FIELD_WORDS = new Set([null, 'fr', 'de'].flatMap((language) => analyze(FIELD_TEXT, language)));

export interface MailHeaderAnswer {
  opened: OpenedChunk;
  field: MailField;
  /** The header lines that answer (To answers with Cc too), verbatim. */
  lines: string[];
  signals: AnswerSignals;
}

/**
 * The header lines answering a question about an e-mail's sender, recipients, date or subject, from the one opened
 * e-mail the question is about; null when the question asks no such field, no opened e-mail carries its header, or
 * more than one e-mail fits the question's other words equally well.
 */
export function mailHeaderAnswer(
  question: string,
  answerType: AnswerType,
  opened: readonly OpenedChunk[],
): MailHeaderAnswer | null {
  const field = askedMailField(question);
  if (!field) return null;
  // The question's other words, read in its language (its stop words dropped; a one-letter piece of "E-Mail" says nothing).
  const rest = analyze(question, detectLanguage(question)).filter((t) => t.length > 1 && !FIELD_WORDS.has(t));
  const fits = opened
    .filter((o) => isMail(kindOfMime(o.chunk.mime)))
    .map((o) => ({ o, headers: mailHeaders(o.chunk.text) }))
    .filter((x) => x.headers.has(field))
    .map((x) => {
      const have = new Set([...analyze(`${x.o.chunk.text} ${x.o.chunk.title ?? ''}`), ...kindTerms(x.o.chunk.mime)]);
      return { ...x, said: rest.filter((t) => holds(have, t)).length };
    })
    // every other word of the question is said by the e-mail ("the budget email": its subject or body says budget)
    .filter((x) => x.said === rest.length);
  const best = fits[0];
  if (!best) return null;
  const line = best.headers.get(field) as string;
  // two different e-mails fit as well: which one is meant is not known
  if (fits.some((x) => x.o.chunk.documentId !== best.o.chunk.documentId && x.headers.get(field) !== line)) return null;
  const cc = field === 'To' ? best.headers.get('Cc') : undefined;
  return {
    opened: best.o,
    field,
    lines: cc ? [line, cc] : [line],
    // a field read by its label, as a table cell is read by its row and column
    signals: certainSignals(answerType, { table: true }),
  };
}
