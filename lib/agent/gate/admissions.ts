/**
 * Admissions: statements that the documents lack something ("the documents do not say X", "no information on Y",
 * "Insufficient documentation"). An admission is about the sources, so it needs no citation, but it excuses only
 * its own clause. A unit is split into clauses at ";", at contrast words ("but", "however", "although", "whereas",
 * "while", "yet", "except"), and at every join (comma, "and"/"or"/"so", "which"/"who", dash, colon, parentheses)
 * between two pieces that each state something; only the clauses that admit are excused, the others are claims.
 *
 * A clause admits when it says that the sources (documents, sources, passages, text, context, documentation,
 * manual, guide, evidence…) do not contain something, that no source or none of them reports it, that something is
 * not documented, mentioned, covered, specified or stated, that there is no information, mention or documentation
 * of it, that the sources say nothing about it, that the writer could not find it or cannot answer, or when it
 * contains the question's own insufficiency phrase. A negative statement about the world ("the service does not
 * cover EU regions", "nothing in the sources contradicts that X") is not an admission.
 */

import { predicates } from './predication';
import { findQuotes } from './quotes';

const SOURCE =
  '(?:documents?|docs|sources?|passages?|texts?|context|documentation|manuals?|guides?|evidence|excerpts?|materials?|files?|pages?|records?|information provided|provided information)';
const NEGATION =
  "(?:do(?:es)?\\s*n[o']t|did\\s*n[o']t|never|cannot|can't|may\\s+not|might\\s+not|fail(?:s|ed)?\\s+to|lack)";
/** Up to two words between the sources and the negation ("the documents I opened do not"), none of them a verb
 * that reports content ("the documentation says deletions do not…" is a claim, not an admission). */
const GAP =
  "(?:(?!(?:that|which|who|says?|states?|notes?|shows?|explains?|confirms?|adds?|warns?)\\b)[\\w'-]+\\s+){0,2}";
const REPORTING =
  '(?:mention|say|state|specify|describe|explain|document|address|discuss|list|name|detail|give|provide|include|contain|cover|indicate|show|answer|define|clarify)';

/** The stem of a verb that reports content, in any form ("mentions", "specifies", "covered"). */
const REPORTING_STEM =
  '(?:mention|say|said|state|specif|describ|explain|document|address|discuss|list|nam|detail|giv|gave|provid|includ|contain|cover|indicat|show|answer|defin|clarif)\\w*';

const PATTERNS: RegExp[] = [
  // "No opened source covers X", "none of the documents mention X", "neither document states X".
  new RegExp(
    `\\b(?:no|none\\s+of\\s+the|neither)\\s+(?:[\\w'-]+\\s+){0,2}${SOURCE}\\s+(?:[\\w'-]+\\s+){0,2}?${REPORTING_STEM}\\b`,
    'i',
  ),
  new RegExp(`\\b${SOURCE}\\s+${GAP}${NEGATION}\\b`, 'i'),
  new RegExp(`\\b(?:it|they|this|these)\\s+${NEGATION}\\s+(?:\\w+\\s+){0,2}${REPORTING}`, 'i'),
  /\bnot\s+(?:documented|mentioned|covered|specified|stated|described|addressed|provided|included|found|listed|given|defined)\b/i,
  /\bno\s+(?:information|mention|details?|documentation|evidence|data|description|passage|source|answer)\b/i,
  /\b(?:could|can)\s*(?:not|n't)\s+(?:find|locate|determine|confirm|verify|answer)\b/i,
  /\b(?:unable|impossible)\s+to\s+(?:find|locate|determine|confirm|verify|answer)\b/i,
  /\binsufficient\s+(?:documentation|information|evidence|sources?|context)\b/i,
  // "say nothing about", "there is nothing in": nothing is said. "Nothing in the sources contradicts that…" claims
  // something about the world, so "nothing in X" admits only when a reporting verb follows it.
  /\b(?:there\s+is|there's|(?:I\s+)?found|says?|said|mentions?|states?|contains?|gives?|provides?)\s+nothing\s+(?:in|about|on|regarding)\b/i,
  new RegExp(`\\bnothing\\s+(?:in|about)\\s+(?:[\\w'-]+\\s+){0,5}?${REPORTING_STEM}\\b`, 'i'),
];

/** True when `text` admits that the sources lack something (or carries the question's insufficiency phrase). */
export function admits(text: string, phrase?: string | null): boolean {
  if (phrase && phrase.trim().length > 0 && text.toLowerCase().includes(phrase.trim().toLowerCase())) return true;
  return PATTERNS.some((re) => re.test(text));
}

export interface Clause {
  text: string;
  start: number;
  end: number;
  admits: boolean;
}

/** Where a unit always splits: ";" and contrast words ("but", "however", "although", "except" …). */
const SPLIT =
  /;|,?\s+\b(?:but|however|although|though|whereas|while|yet|except(?:\s+that)?|nevertheless|instead)\b,?/gi;

/**
 * Where a clause may be joined to another: "and", "or", "so", a comma (with or without "and", "which", "who" …), a dash
 * (spaced, or an unspaced em dash: an unspaced en dash is a range), a colon before a space, and parentheses. A piece
 * between these joins is a clause of its own when it states something (see ./predication); a piece that only names
 * something belongs to the clause before it ("do not give the price, the term, or the renewal date").
 */
const JOIN =
  /\s+(?:and|or|so)\s+|,\s*(?:(?:and|so|or|nor|then|thus|therefore|hence|because|since|which|who|whom|whose|where|meaning|so\s+that)\b)?|\s+[-\u2013\u2014]+\s+|\u2014|:(?=\s)|\s*[()]\s*/giu;

interface Piece {
  start: number;
  end: number;
  states: boolean;
  admits: boolean;
}

/**
 * The pieces of `text` between its joins (offsets relative to `text`, empty pieces dropped). A join inside a quote
 * or code span does not split: the quote is one thing named (and its text is checked as a quote).
 */
function piecesOf(text: string, base: number, phrase?: string | null): Piece[] {
  const out: Piece[] = [];
  const quoted = findQuotes(text);
  let from = 0;
  const push = (end: number, next: number) => {
    const part = text.slice(from, end);
    if (part.trim().length > 0)
      out.push({ start: base + from, end: base + end, states: predicates(part), admits: admits(part, phrase) });
    from = next;
  };
  for (const m of text.matchAll(JOIN)) {
    if (quoted.some((q) => m.index >= q.start && m.index < q.end)) continue;
    push(m.index, m.index + m[0].length);
  }
  push(text.length, text.length);
  return out;
}

/**
 * The clauses of a unit's text, each marked as admitting or not (offsets relative to `text`). An admission excuses
 * only its own clause: the unit splits at ";" and contrast words, and at every join (comma, dash, colon,
 * parentheses) whose pieces on both sides state something. A piece that names without stating (a list item, an
 * aside such as "Unfortunately") joins the clause before it, or the one after it when it comes first; a piece that
 * admits is always a clause of its own, so "Premium tokens unlimited, no information on expiry" excuses nothing but
 * the admission.
 */
export function clauses(text: string, phrase?: string | null): Clause[] {
  const out: Clause[] = [];
  let from = 0;
  const segment = (end: number, next: number) => {
    const part = text.slice(from, end);
    // A segment that does not admit as a whole has no admitting piece: it is one clause, a claim or not, and the
    // tagger is not needed (most units of most answers).
    if (admits(part, phrase)) out.push(...mergePieces(piecesOf(part, from, phrase), text, phrase));
    else if (part.trim().length > 0) out.push({ text: part, start: from, end, admits: false });
    from = next;
  };
  for (const m of text.matchAll(SPLIT)) segment(m.index, m.index + m[0].length);
  segment(text.length, text.length);
  return out;
}

function mergePieces(pieces: Piece[], text: string, phrase?: string | null): Clause[] {
  // Neighbouring pieces that each only name are read together first: together they may state something
  // ("premium tokens: unlimited"), and then they are a clause of their own.
  const grouped: Piece[] = [];
  const joined = new Set<Piece>();
  for (const p of pieces) {
    const last = grouped.at(-1);
    if (last && !p.states && !p.admits && !last.states && !last.admits) {
      last.end = p.end;
      joined.add(last);
    } else grouped.push({ ...p });
  }
  for (const g of joined) g.states = predicates(text.slice(g.start, g.end));
  const merged: Piece[] = [];
  for (const p of grouped) {
    const last = merged.at(-1);
    // What only names belongs to the clause before it; when it comes first (an aside), to the clause after it.
    if (last && !p.states && !p.admits) {
      last.end = p.end;
      continue;
    }
    if (last && !last.states && !last.admits) {
      const admitsTogether = p.admits || admits(text.slice(last.start, p.end), phrase);
      merged[merged.length - 1] = { start: last.start, end: p.end, states: p.states, admits: admitsTogether };
      continue;
    }
    merged.push(p);
  }
  return merged.map((c) => ({ text: text.slice(c.start, c.end), start: c.start, end: c.end, admits: c.admits }));
}
