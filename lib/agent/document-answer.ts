import { analyze } from '@/lib/retrieval/analyzer';
import { detectLanguage } from '@/lib/retrieval/language';
import type { SearchHit } from '@/lib/retrieval/types';
import { wordsOf } from '@/lib/retrieval/unspaced-scripts';
import type { AnswerSignals } from './confidence';
import type { DocumentQuestion } from './document-questions';
import { holds, looksLikeHeading } from './extractive-select';
import { withoutSpans } from './injection';
import { quoteUnits } from './sentence-units';
import type { AgentState, OpenedChunk, ResultEntry } from './state';
import { splitSentences } from './text';
import type { Insufficiency } from './types';

/**
 * The per-document answer of a document-level question (./document-questions): which search results to open (one
 * per document that names the subject, in the asked language) and the answer, one line per document naming it
 * (file name and title) with the passage that names the subject quoted verbatim and cited. "Which documents were
 * written by X" lists only documents with authorship evidence: a sentence naming X with a word of writing or
 * authorship ("written", "author", "geschrieben", "rédigé", "by X", "von X", "par X"), or X near the top of the
 * document's first passage (a title page's byline). When more documents match than were opened, the answer says
 * so and the insufficiency names them.
 */

/** Documents one answer lists at most (one opened passage each, within the tool budget). */
export const MAX_DOCUMENTS = 4;

/** How far into a document's first passage a name still reads as its byline (title, authors, affiliation). */
const BYLINE_CHARS = 400;
/** The opening a "what is it about" line quotes: whole lines up to this length (at least one line). */
const OPENING_CHARS = 200;
/** Sentences quoted per document for "what do my documents say about X". */
const QUOTES_PER_DOCUMENT = 2;
/** A longer sentence is narrowed to its lines that name the subject. */
const MAX_QUOTE_CHARS = 300;

/** Words of writing and authorship in the library's languages. */
const AUTHORSHIP =
  /\b(?:written|wrote|authored|authors?|co-?authors?|edited|prepared|compiled|copyright|auteure?s?|[ée]crit|r[ée]dig[ée]e?s?|autor(?:in|en)?|verfasst|geschrieben|herausgegeben|erstellt|bearbeitet)\b|©/iu;
/** "by X", "von X", "par X", at most two words (a title) between. */
const BY = '(?:by|von|par)\\s+(?:[\\p{L}.]+\\s+){0,2}';

/** The analysed terms of the subject (what a document must name to match). */
export function subjectTerms(subject: string): string[] {
  return [...new Set(analyze(subject))];
}

/** Whether a text names every term of the subject (words of one family count, see `holds`). */
export function namesSubject(text: string, terms: readonly string[]): boolean {
  if (terms.length === 0) return false;
  const have = new Set(analyze(text));
  return terms.every((t) => holds(have, t));
}

/** Whether a text is in the asked language (no language asked: always). */
function inLanguage(text: string, language: string | null): boolean {
  return language === null || detectLanguage(text) === language;
}

/** A document's passages as one text for language detection (a short passage alone is often undetermined). */
function joined(texts: readonly string[]): string {
  return texts.join('\n').slice(0, 2000);
}

/** Passages a per-document search reads before keeping the best of each document. */
export const PER_DOCUMENT_CANDIDATES = 60;

/**
 * A search's hits as documents: per document its best-scoring hit and its earliest one (a title page), for the
 * `documents` best documents; hits in another language than the asked one are dropped.
 */
export function hitsPerDocument(hits: readonly SearchHit[], documents: number, language: string | null): SearchHit[] {
  const byDocument = new Map<string, SearchHit[]>();
  for (const h of hits) byDocument.set(h.documentId, [...(byDocument.get(h.documentId) ?? []), h]);
  const out: SearchHit[] = [];
  const kept = [...byDocument.values()].filter((list) =>
    inLanguage(joined(list.map((h) => h.text ?? h.snippet)), language),
  );
  for (const list of kept.slice(0, documents)) {
    const best = list[0] as SearchHit;
    const earliest = list.reduce((a, b) => (b.index < a.index ? b : a));
    out.push(best);
    if (earliest.chunkId !== best.chunkId) out.push(earliest);
  }
  return out;
}

function entryText(entry: ResultEntry): string {
  return withoutSpans(entry.hit.text ?? entry.hit.snippet, entry.injected);
}

/**
 * The results worth opening, one per document that names the subject in the asked language: the document's
 * earliest passage for authorship and descriptions (a title page names the authors and says what a document is),
 * its best-scoring one for mentions. Documents in the order of their best score.
 */
export function resultsPerDocument(entries: readonly ResultEntry[], dq: DocumentQuestion): ResultEntry[] {
  if (dq.kind === 'overview') {
    // read_opening found these documents by name or scope: each one's earliest passage, in the order it found them.
    const seen = new Set<string>();
    return overviewOpenOrder(entries).filter((e) => !seen.has(e.hit.documentId) && seen.add(e.hit.documentId));
  }
  const terms = subjectTerms(dq.subject);
  const byDocument = new Map<string, ResultEntry[]>();
  for (const e of entries) {
    if (!namesSubject(`${e.hit.title ?? ''}\n${entryText(e)}`, terms)) continue;
    byDocument.set(e.hit.documentId, [...(byDocument.get(e.hit.documentId) ?? []), e]);
  }
  const best = (list: ResultEntry[]) => Math.max(...list.map((e) => e.hit.score));
  return [...byDocument.values()]
    .filter((list) => inLanguage(joined(list.map(entryText)), dq.language))
    .sort((a, b) => best(b) - best(a))
    .map(
      (list) =>
        [...list].sort((a, b) =>
          dq.kind === 'mentions' ? b.hit.score - a.hit.score : a.hit.index - b.hit.index || b.hit.score - a.hit.score,
        )[0] as ResultEntry,
    );
}

/**
 * The order an overview opens the passages read_opening registered: every document's first passage (in the order
 * the tool listed the documents, newest first), then their second ones.
 */
export function overviewOpenOrder(entries: readonly ResultEntry[]): ResultEntry[] {
  return [...entries].sort((a, b) => a.hit.index - b.hit.index || b.hit.score - a.hit.score);
}

/** Sentences an overview quotes per document from its opening. */
const OVERVIEW_SENTENCES = 2;
/** Words a sentence needs to say what a document is (shorter lines are headings, captions, page furniture). */
const OVERVIEW_MIN_WORDS = 6;
/** A longer sentence is not quoted in an overview unless nothing else is there. */
const OVERVIEW_MAX_CHARS = 400;

/**
 * Whether a line reads as a sentence of prose: it starts with a word (or a quotation), has enough words, most of
 * them with lower-case letters (a form's field codes, addresses, numbers and capitalised headings do not), is not a
 * table row, and is not a parenthesised caption ("(Exact name of registrant as specified in its charter)").
 */
export function readsAsProse(text: string): boolean {
  const t = text.trim();
  if (t.includes(' | ') || /^\(.*\)[.:]?$/su.test(t) || !/^["“‘'(]?\p{L}/u.test(t)) return false;
  const words = wordsOf(t);
  if (words.length < OVERVIEW_MIN_WORDS) return false;
  // Scripts without case (Chinese, Arabic...) count as prose words; in cased scripts a word needs a lower-case letter.
  const prose = words.filter((w) => /\p{Ll}/u.test(w) || !/[\p{Lu}\p{N}]/u.test(w)).length;
  return prose / words.length >= 0.6;
}

/**
 * What an overview quotes of one document: the first sentences of prose in its opening passages (not headings,
 * table rows, planted text, or lines too short to say anything), each with the passage it is in; a document
 * without such prose (a spreadsheet, a form) quotes its first lines instead.
 */
function overviewQuotes(passages: readonly OpenedChunk[]): OverviewQuote[] {
  const ordered = [...passages].sort((a, b) => a.chunk.index - b.chunk.index);
  const out: OverviewQuote[] = [];
  for (const opened of ordered) {
    for (const unit of quoteUnits(opened.chunk.text)) {
      if (out.length >= OVERVIEW_SENTENCES) return out;
      const t = unit.text.replace(/\s+/g, ' ').trim();
      if (t.length > OVERVIEW_MAX_CHARS || !readsAsProse(t)) continue;
      if (looksLikeHeading(t, opened) || opened.injected.some((span) => span.includes(t) || t.includes(span))) continue;
      out.push({ opened, quote: t });
    }
  }
  if (out.length > 0) return out;
  const first = ordered[0];
  if (!first || first.injected.length > 0) return [];
  // A table (a sheet, a CSV) is described by its header row: its first line of cells.
  const header = first.chunk.text
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l.includes(' | ') && l.length <= OVERVIEW_MAX_CHARS);
  if (header) return [{ opened: first, quote: header, lead: 'a table with the columns' }];
  const lines = opening(first.chunk.text, OPENING_CHARS);
  return lines ? [{ opened: first, quote: lines }] : [];
}

/** A quote of an overview, with the words that introduce it ("a table with the columns"), if any. */
interface OverviewQuote {
  opened: OpenedChunk;
  quote: string;
  lead?: string;
}

/** The answer to an overview: one line per document with the first sentences of its opening. */
function overviewAnswer(state: AgentState, phrase: string): { lines: string[]; insufficiencies: Insufficiency[] } {
  const byDocument = new Map<string, OpenedChunk[]>();
  for (const o of state.opened) byDocument.set(o.chunk.documentId, [...(byDocument.get(o.chunk.documentId) ?? []), o]);
  const lines: string[] = [];
  for (const passages of byDocument.values()) {
    const quotes = overviewQuotes(passages);
    const first = quotes[0];
    if (!first) continue;
    lines.push(
      `- ${documentLabel(first.opened)}: ${quotes.map((q) => `${q.lead ? `${q.lead} ` : ''}${quoted(q.quote)} [${q.opened.n}]`).join(' ')}`,
    );
  }
  const total = state.documentsInScope ?? byDocument.size;
  const insufficiencies: Insufficiency[] = [];
  if (lines.length > 0 && total > lines.length) {
    // No figure in the answer's text: the gate grounds every number in a cited source; the report gives the count.
    lines.push('', `${phrase}: your older documents in scope are not described here, only the newest.`);
    insufficiencies.push({
      section: 'Answer',
      missing: `${total - lines.length} of your ${total} documents in scope are not described (the limit is ${MAX_DOCUMENTS} per answer): ask about one by its name`,
      queriesTried: state.searches.map((s) => s.query),
    });
  }
  return { lines, insufficiencies };
}

/** A document's name for the answer: its file name, and its title when it has another one. */
export function documentLabel(opened: OpenedChunk): string {
  const { filename, title } = opened.chunk;
  const t = title?.replace(/\s+/g, ' ').trim();
  return t && t.toLowerCase() !== filename.toLowerCase() ? `${filename} (${t})` : filename;
}

function quoted(text: string): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.includes('"') ? `\u201C${t}\u201D` : `"${t}"`;
}

/** The passage's lines from its start, up to `max` characters (at least the first line). */
function opening(text: string, max: number): string {
  const out: string[] = [];
  let length = 0;
  for (const line of text.split('\n').map((l) => l.trim())) {
    if (line.length === 0) continue;
    if (out.length > 0 && length + line.length > max) break;
    out.push(line);
    length += line.length + 1;
  }
  return out.join(' ');
}

/** The sentences of a passage that name the subject (long ones narrowed to their lines that do), prose first. */
function namingSentences(opened: OpenedChunk, terms: readonly string[]): string[] {
  const out: string[] = [];
  for (const s of splitSentences(opened.chunk.text)) {
    const pieces = s.text.length > MAX_QUOTE_CHARS ? s.text.split('\n') : [s.text];
    for (const piece of pieces) {
      const p = piece.trim();
      if (p.length > 0 && namesSubject(p, terms) && !opened.injected.some((span) => span.includes(p))) out.push(p);
    }
  }
  const prose = out.filter((p) => !looksLikeHeading(p, opened));
  return prose.length > 0 ? prose : out;
}

/** The subject's position in the passage (the first line that names it), or -1. */
function subjectOffset(text: string, terms: readonly string[]): number {
  let offset = 0;
  for (const line of text.split('\n')) {
    if (namesSubject(line, terms)) return offset;
    offset += line.length + 1;
  }
  return -1;
}

/** The authorship evidence a passage holds for the subject: an author sentence or a byline, quoted; or null. */
function authorshipQuote(opened: OpenedChunk, subject: string, terms: readonly string[]): string | null {
  const escaped = subject.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+');
  const byName = new RegExp(`${BY}${escaped}`, 'iu');
  const stated = namingSentences(opened, terms).find((s) => AUTHORSHIP.test(s) || byName.test(s));
  if (stated) return stated;
  const text = opened.chunk.text;
  const at = subjectOffset(text, terms);
  if (opened.chunk.index !== 0 || at < 0 || at > BYLINE_CHARS) return null;
  // A title page: its lines from the top through the one naming the subject.
  const end = text.indexOf('\n', at);
  return opening(text.slice(0, end < 0 ? text.length : end), BYLINE_CHARS + MAX_QUOTE_CHARS);
}

/** What one document's opened passages quote for the question, or null when they do not answer it. */
function documentQuotes(passages: readonly OpenedChunk[], dq: DocumentQuestion, terms: readonly string[]) {
  if (!inLanguage(joined(passages.map((o) => o.chunk.text)), dq.language)) return null;
  for (const opened of passages) {
    if (dq.kind === 'authorship') {
      const q = authorshipQuote(opened, dq.subject, terms);
      if (q) return { opened, quotes: [q] };
      continue;
    }
    const naming = namingSentences(opened, terms);
    if (dq.kind === 'about') {
      if (!namesSubject(`${opened.chunk.title ?? ''}\n${opened.chunk.text}`, terms)) continue;
      const first = opened.chunk.index === 0 ? opening(opened.chunk.text, OPENING_CHARS) : naming[0];
      if (first) return { opened, quotes: [first] };
      continue;
    }
    if (naming.length > 0) return { opened, quotes: naming.slice(0, QUOTES_PER_DOCUMENT) };
  }
  return null;
}

export interface DocumentAnswer {
  answer: string;
  insufficiencies: Insufficiency[];
  coverage: number;
  signals: AnswerSignals;
}

const WHAT: Record<DocumentQuestion['kind'], string> = {
  authorship: 'names it as written by',
  mentions: 'mentions',
  about: 'matches',
  overview: 'opens',
};

/** The answer to a document-level question from the opened passages: one line per matching document. */
export function documentAnswer(state: AgentState, dq: DocumentQuestion, phrase: string): DocumentAnswer {
  if (dq.kind === 'overview') return documentOverview(state, phrase);
  const terms = subjectTerms(dq.subject);
  const queries = state.searches.map((s) => s.query);
  const byDocument = new Map<string, OpenedChunk[]>();
  for (const o of state.opened) byDocument.set(o.chunk.documentId, [...(byDocument.get(o.chunk.documentId) ?? []), o]);
  const lines: string[] = [];
  for (const passages of byDocument.values()) {
    const found = documentQuotes(passages, dq, terms);
    if (!found || lines.length >= MAX_DOCUMENTS) continue;
    const n = found.opened.n;
    lines.push(`- ${documentLabel(found.opened)}: ${found.quotes.map((q) => `${quoted(q)} [${n}]`).join(' ')}`);
  }
  const signals: AnswerSignals = {
    answerType: dq.kind === 'authorship' ? 'entity' : 'other',
    typeMatch: lines.length > 0,
    termCoverage: lines.length > 0 ? 1 : 0,
    sentenceCoverage: lines.length > 0 ? 1 : 0,
    attributeCoverage: lines.length > 0 ? 1 : 0,
    margin: 0,
    // One line per document: the documents are listed side by side, not competing for one answer.
    rivalMargin: 1,
    documents: lines.length,
    declined: lines.length === 0,
    table: false,
    slotNear: lines.length > 0,
  };
  if (lines.length === 0) {
    const what = dq.kind === 'authorship' ? `names "${dq.subject}" as an author` : `mentions "${dq.subject}"`;
    return {
      answer: `${phrase}: no passage found in your documents ${what}.`,
      insufficiencies: [
        { section: 'Answer', missing: `No passage found ${WHAT[dq.kind]} ${dq.subject}`, queriesTried: queries },
      ],
      coverage: 0,
      signals,
    };
  }
  // Matching documents the run found but did not open: the list may be incomplete, and the report names them.
  const opened = new Set(state.opened.map((o) => o.chunk.documentId));
  const unopened = resultsPerDocument([...state.results.values()], dq).filter((e) => !opened.has(e.hit.documentId));
  const insufficiencies: Insufficiency[] = [];
  if (unopened.length > 0) {
    lines.push('', `${phrase}: the passages opened do not cover every document that matches the search.`);
    insufficiencies.push({
      section: 'Answer',
      missing: `Not opened (over the limit of documents per answer): ${[...new Set(unopened.map((e) => e.hit.filename))].join(', ')}`,
      queriesTried: queries,
    });
  }
  return { answer: lines.join('\n'), insufficiencies, coverage: 1, signals };
}

/** The answer to an overview question ("what is this document about?"), see overviewAnswer. */
function documentOverview(state: AgentState, phrase: string): DocumentAnswer {
  const { lines, insufficiencies } = overviewAnswer(state, phrase);
  const listed = lines.filter((l) => l.startsWith('- ')).length;
  const signals: AnswerSignals = {
    answerType: 'other',
    typeMatch: listed > 0,
    termCoverage: listed > 0 ? 1 : 0,
    sentenceCoverage: listed > 0 ? 1 : 0,
    attributeCoverage: listed > 0 ? 1 : 0,
    margin: 0,
    rivalMargin: 1,
    documents: listed,
    declined: listed === 0,
    table: false,
    slotNear: listed > 0,
    // Two sentences of an opening describe a document; nothing shows they describe all of it.
    openSpan: true,
  };
  if (listed === 0)
    return {
      answer: `${phrase}: the documents asked about do not open with text that could be quoted.`,
      insufficiencies: [
        {
          section: 'Answer',
          missing: 'No readable opening passage',
          queriesTried: state.searches.map((s) => s.query),
        },
      ],
      coverage: 0,
      signals,
    };
  return { answer: lines.join('\n'), insufficiencies, coverage: 1, signals };
}
