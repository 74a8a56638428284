import { analyze } from '@/lib/retrieval/analyzer';
import { keyTerms } from '../text';
import { clauses } from './admissions';
import { findVerbatim, normalize, normalizedText, spanOfNormalized } from './normalize';
import { evidenceKeys, grounded, type NumberMention, numberMentions } from './numbers';
import { claimUnits, type Unit, withoutLinkTargets, withoutMarkers } from './units';

/**
 * The trust gate: every claim-bearing unit of an answer checked against the sources its own markers cite.
 *
 * - QUOTE_NOT_FOUND: a quote (any quote style, inline code, block quote) is not verbatim, after the one
 *   normalisation of ./normalize, in an opened chunk that its marker (or its unit's marker) points to. "…" inside a
 *   quote elides: the parts must appear in that order in one chunk, and what it leaves out holds no negation. The
 *   question is never evidence, except for
 *   words an admission names as missing.
 *   Code blocks (fenced or indented) are quotes too: each of their lines is verbatim in a chunk the block cites.
 * - UNGROUNDED_NUMBER: a number (any written form, see ./numbers) has no value equal to one in the cited chunks.
 * - UNCITED_CLAIM: a clause that states something (a number, a quote, or two or more content words) cites no
 *   opened source, and is not an admission (see ./admissions). Such a unit gets only this issue: its quotes and
 *   numbers have no source to be checked against.
 * Headings are labels: their numbers must appear in some opened chunk or in the question, and a heading without a
 *   marker may bring at most one word of its own (one in neither the question nor any opened source: "Summary");
 *   one that brings more states something ("## Premium tokens are exempt") and is an UNCITED_CLAIM.
 */

export interface GateIssue {
  code: 'QUOTE_NOT_FOUND' | 'UNGROUNDED_NUMBER' | 'UNCITED_CLAIM';
  message: string;
  /** Index of the failing unit in `GateReport.units`. */
  unit: number;
}

export interface GateSource {
  n: number;
  /**
   * `sheet` and `headingPath` are the source's location labels: the citation names them with the text. `filename`
   * and `title` name its document: an answer may name a document it cites, digits in the name included.
   */
  chunk: { text: string; sheet?: string | null; headingPath?: string | null; filename?: string; title?: string | null };
  /**
   * false for a model's reading of a picture (visual_interpretation): it may ground numbers and claims, never a
   * quote, a block quote or a code line, which must be the document's own words.
   */
  verbatim?: boolean;
}

/** The location labels of a source (sheet name, section heading path): numbers in them are grounded by citing it. */
function labelsOf(source: GateSource): string {
  return [source.chunk.sheet, source.chunk.headingPath].filter((x): x is string => !!x && x.length > 0).join('\n');
}

/**
 * The unit's text with the names of the documents it cites blanked (same length, so offsets hold): a document's
 * name ("report-2023-06.pdf") is not a claim, and its digits are no number to ground. Only a name written out in
 * full is blanked; a number merely shared with a name must still be in the cited text.
 */
function withoutCitedNames(text: string, sources: readonly GateSource[]): string {
  let out = text;
  const names = sources
    .flatMap((s) => [s.chunk.filename, s.chunk.title])
    .filter((x): x is string => typeof x === 'string' && /\d/.test(x) && x.trim().length >= 4)
    .sort((a, b) => b.length - a.length);
  for (const name of names) out = out.split(name).join(' '.repeat(name.length));
  return out;
}

export interface GateInput {
  question: string;
  opened: readonly GateSource[];
  insufficiencyPhrase?: string | null;
}

export interface GateReport {
  issues: GateIssue[];
  units: Unit[];
  /** Quotes and code lines found verbatim in the source they cite. */
  verified: string[];
}

/** Words that make a clause a claim: two content words (or a number or a quote). */
const CLAIM_MIN_TERMS = 2;

const ELLIPSIS = /\s*(?:\[\s*(?:\.\.\.|\u2026)\s*\]|\.\.\.|\u2026)\s*/u;

/** A sentence end in normalised text. */
const SENTENCE_END = /[.!?]["')\]]*\s/u;

/** A word that negates or restricts what follows it: an elision may not leave one out. */
const NEGATOR =
  /(?:^|[^\p{L}])(?:not|no|never|without|cannot|none|nor|neither|unless|except|nothing|nobody|nowhere)(?![\p{L}])|n['\u2019]t(?![\p{L}])/iu;

/**
 * Whether an elision from `end` to `next` in `hay` is fair: it may not leave out a negation ("rebuild the index
 * [without] blocking writes" quoted as "rebuild the index ... blocking writes"), and it leaves out words of one
 * sentence, or whole sentences only: it may not splice the start of one sentence onto the end of another ("kept
 * [...] this retention period").
 */
function fairElision(hay: string, end: number, next: number): boolean {
  const gap = hay.slice(end, next);
  if (NEGATOR.test(gap)) return false;
  if (!SENTENCE_END.test(gap)) return true;
  const endsSentence = /[.!?]["')\]]*$/u.test(hay.slice(0, end)) || /^[.!?]/u.test(gap);
  return endsSentence && /[.!?]["')\]]*\s*$/u.test(gap);
}

/**
 * Whether `quote` is verbatim in `text` (trailing punctuation ignored). An elision (… or [...]) leaves out words:
 * the parts must appear in that order in one chunk, and an elision crossing a sentence end must leave out whole
 * sentences (see fairElision).
 */
export function quoteIn(text: string, quote: string): boolean {
  const parts = quote
    .replace(/[.,;:!?]+$/u, '')
    .split(ELLIPSIS)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  const [head, ...rest] = parts;
  if (head === undefined) return false;
  // The text is normalised once (cached per text); each part is searched after the previous one, from every
  // place the first part occurs (the nearest next part is the best one: a longer gap only adds sentence ends).
  const hay = normalizedText(text);
  for (
    let first = spanOfNormalized(hay, head, true);
    first;
    first = spanOfNormalized(hay, head, true, first.start + 1)
  ) {
    let end = first.end;
    const whole = rest.every((part) => {
      const next = spanOfNormalized(hay, part, false, end);
      if (next === null || !fairElision(hay.text, end, next.start)) return false;
      end = next.end;
      return true;
    });
    if (whole) return true;
  }
  return false;
}

/** Whether a clause states something that needs a source. */
export function isClaim(text: string): boolean {
  const plain = withoutMarkers(text);
  return numberMentions(plain).length > 0 || keyTerms(plain).length >= CLAIM_MIN_TERMS;
}

const list = (ns: readonly number[]) => ns.map((n) => `[${n}]`).join(', ');
const short = (s: string) => (s.length > 100 ? `${s.slice(0, 100)}…` : s);

/** Runs the gate over `answer`. Pure. */
export function checkAnswer(answer: string, input: GateInput): GateReport {
  const byN = new Map(input.opened.map((o) => [o.n, o.chunk.text]));
  const sourceByN = new Map(input.opened.map((o) => [o.n, o]));
  const labelsByN = new Map(input.opened.map((o) => [o.n, labelsOf(o)]));
  const wordsByN = new Map(input.opened.filter((o) => o.verbatim !== false).map((o) => [o.n, o.chunk.text]));
  const phrase = input.insufficiencyPhrase ?? null;
  const units = claimUnits(answer);
  const issues: GateIssue[] = [];
  const verified: string[] = [];
  const questionKeys = evidenceKeys(input.question);
  // Every opened chunk's keys are needed only for a heading's numbers: read them then, not on every check.
  let allKeys: ReadonlySet<string>[] | null = null;
  const everyKeys = () => {
    allKeys ??= [questionKeys, ...input.opened.map((o) => evidenceKeys(o.chunk.text))];
    return allKeys;
  };
  const groundedIn = (m: NumberMention, sets: readonly ReadonlySet<string>[]) => sets.some((k) => grounded(m, k));
  // The words of the question and of every opened source (text, location labels, document names), for headings.
  let known: ReadonlySet<string> | null = null;
  const ownWords = (heading: string): string[] => {
    known ??= new Set(
      analyze(
        [
          input.question,
          ...input.opened.flatMap((o) => [o.chunk.text, labelsOf(o), o.chunk.filename ?? '', o.chunk.title ?? '']),
        ].join('\n'),
      ),
    );
    const have = known;
    return keyTerms(withoutMarkers(heading).replace(/^[#*_\s]+|[*_:\s]+$/g, '')).filter(
      (t) => /\p{L}/u.test(t) && !have.has(t),
    );
  };

  for (const [index, unit] of units.entries()) {
    const before = issues.length;
    checkUnit(unit);
    for (const issue of issues.slice(before)) issue.unit = index;
  }
  return { issues, units, verified };

  function checkUnit(unit: Unit): void {
    const cited = unit.cites.filter((n) => byN.has(n));
    const texts = cited.map((n) => byN.get(n) ?? '');
    const wordTexts = cited.flatMap((n) => wordsByN.get(n) ?? []);
    if (unit.kind === 'heading') {
      const own = cited.length === 0 ? ownWords(unit.text) : [];
      if (own.length >= CLAIM_MIN_TERMS)
        issues.push({
          code: 'UNCITED_CLAIM',
          message: `The heading "${short(unit.text)}" states something no opened source or the question says (${own.join(', ')}): cite it as [n], or make it a label.`,
          unit: -1,
        });
      for (const m of numberMentions(withoutLinkTargets(withoutMarkers(unit.text))))
        if (!groundedIn(m, everyKeys()))
          issues.push({
            code: 'UNGROUNDED_NUMBER',
            message: `The heading number "${m.raw}" is in no opened source.`,
            unit: -1,
          });
      return;
    }
    if (unit.kind === 'code') {
      checkCode(unit, cited, wordTexts, issues, verified);
      return;
    }
    if (unit.kind === 'blockquote') {
      const body = withoutMarkers(unit.text).replace(/\s+/g, ' ').trim();
      if (body.length === 0) return;
      if (wordTexts.some((t) => quoteIn(t, body))) verified.push(body);
      else issues.push(quoteIssue(body, cited));
      return;
    }
    const parts = clauses(withoutMarkers(unit.text), phrase);
    if (cited.length === 0) {
      const claim =
        parts.find((c) => !c.admits && isClaim(c.text))?.text ?? (unit.row && isClaim(unit.row) ? unit.row : null);
      if (claim) {
        issues.push({
          code: 'UNCITED_CLAIM',
          message: `"${short(claim.trim())}" cites no opened source: cite it as [n] right after it, or remove it.`,
          unit: -1,
        });
        return;
      }
    }
    const admitting = (offset: number) =>
      parts.some((c) => c.admits && offset - unit.start >= c.start && offset - unit.start < c.end);
    for (const q of unit.quotes) {
      const qCited = q.cites.filter((n) => byN.has(n));
      const found = qCited.some((n) => quoteIn(wordsByN.get(n) ?? '', q.text));
      if (found) {
        verified.push(q.text);
        continue;
      }
      // An admission may name what is missing in the question's own words.
      if (
        admitting(q.start) &&
        (quoteIn(input.question, q.text) || (phrase && normalize(q.text) === normalize(phrase)))
      )
        continue;
      issues.push(quoteIssue(q.text, qCited));
    }
    const keys = [...texts.map((t) => evidenceKeys(t)), ...cited.map((n) => evidenceKeys(labelsByN.get(n) ?? ''))];
    const named = cited.flatMap((n) => sourceByN.get(n) ?? []);
    for (const m of numberMentions(withoutCitedNames(withoutLinkTargets(withoutMarkers(unit.text)), named))) {
      const at = unit.start + m.start;
      if (groundedIn(m, keys)) continue;
      if (admitting(at) && grounded(m, questionKeys)) continue;
      issues.push(numberIssue(m, cited));
    }
  }
}

function quoteIssue(text: string, cited: readonly number[]): GateIssue {
  return {
    code: 'QUOTE_NOT_FOUND',
    message:
      cited.length > 0
        ? `The quoted text "${short(text)}" does not appear verbatim in source ${list(cited)}.`
        : `The quoted text "${short(text)}" cites no opened source: quote only opened sources, with the marker of the one that holds it.`,
    unit: -1,
  };
}

function numberIssue(m: NumberMention, cited: readonly number[]): GateIssue {
  return {
    code: 'UNGROUNDED_NUMBER',
    message:
      cited.length > 0
        ? `The number "${m.raw}" does not appear (with that value) in source ${list(cited)}.`
        : `The number "${m.raw}" cites no opened source that states it.`,
    unit: -1,
  };
}

function checkCode(unit: Unit, cited: number[], texts: string[], issues: GateIssue[], verified: string[]): void {
  const lines = unit.text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.length > 0);
  if (lines.length === 0) return;
  if (cited.length === 0) {
    issues.push({
      code: 'QUOTE_NOT_FOUND',
      message: `The code block starting "${short(lines[0] ?? '')}" cites no opened source: put the marker of its source on the line before it.`,
      unit: -1,
    });
    return;
  }
  for (const line of lines) {
    if (texts.some((t) => findVerbatim(t, line) !== null)) verified.push(line);
    else
      issues.push({
        code: 'QUOTE_NOT_FOUND',
        message: `The code line "${short(line)}" does not appear verbatim in source ${list(cited)}.`,
        unit: -1,
      });
  }
}
