import { analyze } from '@/lib/retrieval/analyzer';
import { detectAnswerType, questionFrameTerms, subQuestions, withoutInterrogatives } from './answer-type';
import { recordAnswerSignals } from './confidence';
import { DEFAULT_INSUFFICIENCY_PHRASE } from './constraints';
import { documentAnswer } from './document-answer';
import { documentDateAnswer } from './document-date';
import { kindTerms } from './document-kind';
import { mailHeaderAnswer } from './email-header';
import { declineAnswer, questionWords, tableAnswerLine } from './extractive-answer';
import { type Candidate, combinedSignals, looksLikeHeading, selectEvidence } from './extractive-select';
import { labelledListAnswer } from './labelled-list';
import { searchableQuestion } from './plan';
import { quotableText, quoteUnits, tooShortToQuote } from './sentence-units';
import type { AgentState, OpenedChunk } from './state';
import { keyTerms } from './text';
import { namingSection, sectionWords } from './tools/follow-reference';
import { detectReferences } from './tools/references';
import type { AnswerStyle, Insufficiency } from './types';
import { missingParts } from './validate';

/**
 * The deterministic answer of extractive mode: the best-supported sentences of the opened sources, quoted
 * verbatim and cited, sections filled from their own terms, exact quotes taken from the sources, and what is
 * missing stated with the insufficiency phrase. Never invents a word outside quotes, headings and the phrase.
 */

const SQL_LINE =
  /^[ \t]*(?:SELECT|INSERT|UPDATE|DELETE|REINDEX|CREATE|ALTER|DROP|VACUUM|WITH|GRANT|REVOKE|TRUNCATE|ANALYZE|EXPLAIN)\b[^\n]*/gm;

function candidates(state: AgentState): Candidate[] {
  const out: Candidate[] = [];
  for (const opened of state.opened) {
    for (const sentence of quoteUnits(opened.chunk.text)) {
      if (tooShortToQuote(sentence.text)) continue;
      // Planted instructions are never quoted, nor is a unit that joined a line of them to the prose around them.
      const lines = sentence.text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.length > 0);
      const planted = (span: string) =>
        span.includes(sentence.text) || lines.some((l) => l.length >= 12 && span.includes(l));
      if (opened.injected.some((span) => planted(span) || sentence.text.includes(span.split('\n')[0] ?? span)))
        continue;
      if (state.injectedSpans.some(planted)) continue;
      out.push({ opened, sentence, terms: new Set(analyze(sentence.text)) });
    }
  }
  return out;
}

function coverage(terms: readonly string[], have: Set<string>): number {
  if (terms.length === 0) return 0;
  let n = 0;
  for (const t of terms) if (have.has(t)) n++;
  return n / terms.length;
}

/** Dates rank newer (or older) sources first when the question sets a conflict rule. */
function dateBonus(state: AgentState, opened: OpenedChunk): number {
  const rule = state.constraints.conflictRule;
  const date = opened.chunk.documentDate;
  if (!date || (rule !== 'newest' && rule !== 'oldest')) return 0;
  const dates = state.opened
    .map((o) => o.chunk.documentDate)
    .filter((d): d is string => !!d)
    .sort();
  const rank = dates.indexOf(date) / Math.max(1, dates.length - 1);
  return (rule === 'newest' ? rank : 1 - rank) * 0.3;
}

function best(state: AgentState, pool: Candidate[], terms: string[], count: number, used: Set<Candidate>): Candidate[] {
  const scored = pool
    .filter((c) => !used.has(c))
    .map((c) => ({
      c,
      s: coverage(terms, c.terms) + dateBonus(state, c.opened) - c.opened.n * 0.001 - c.sentence.start * 0.000001,
    }))
    .filter((x) => coverage(terms, x.c.terms) > 0)
    .sort((a, b) => b.s - a.s);
  const top = scored[0]?.s ?? 0;
  const picked: Candidate[] = [];
  for (const { c, s } of scored) {
    if (picked.length >= count || s < top * 0.5) break;
    picked.push(c);
    used.add(c);
  }
  return picked.sort((a, b) => a.opened.n - b.opened.n || a.sentence.start - b.sentence.start);
}

function quoteLine(c: Candidate, bullet: boolean): string {
  return `${bullet ? '- ' : ''}${quoted(quotableText(c.sentence.text), c.opened.n)}`;
}

/** A verbatim quote and its marker (curly quotes around text that holds straight ones). */
function quoted(text: string, n: number): string {
  const [open, close] = text.includes('"') ? ['\u201C', '\u201D'] : ['"', '"'];
  return `${open}${text}${close} [${n}]`;
}

export interface ExtractiveAnswer {
  answer: string;
  insufficiencies: Insufficiency[];
  /** Share of the question's key terms the quoted sentences cover (0-1). */
  coverage: number;
}

const COUNT: Record<AnswerStyle, number> = { concise: 2, detailed: 4, bullet: 4 };

/** Builds the extractive answer; `wider` quotes more sentences (the quality remediation). */
export function extractiveAnswer(state: AgentState, style: AnswerStyle, wider = false): ExtractiveAnswer {
  const c = state.constraints;
  const phrase = c.insufficiencyPhrase ?? DEFAULT_INSUFFICIENCY_PHRASE;
  const pool = candidates(state);
  const used = new Set<Candidate>();
  const questionTerms = keyTerms(searchableQuestion(state.question));
  const bullet = style === 'bullet';
  const lines: string[] = [];
  const insufficiencies: Insufficiency[] = [];
  const queries = state.searches.map((s) => s.query);
  const count = COUNT[style] + (wider ? 2 : 0);
  const covered = new Set<string>();
  // A quoted sentence is read under its chunk's sheet, heading path and format: "Who approved the leave policy?"
  // answered by "Approved by Dana Whitfield" under the heading "Leave Policy" does not miss "leave" or "policy". Not
  // under the document's title or file name: they say what the whole document is about, not what the quoted passage
  // says (counting the title hid the missing words of 25 ClapNQ unanswerables whose article title holds them).
  const addCovered = (picked: Candidate[]) => {
    for (const p of picked) {
      const c = p.opened.chunk;
      const above = new Set([...analyze(`${c.sheet ?? ''} ${c.headingPath ?? ''}`), ...kindTerms(c.mime)]);
      for (const t of questionTerms) if (p.terms.has(t) || above.has(t)) covered.add(t);
    }
  };

  if (state.opened.length === 0 && state.safetyFlags.has('index_unavailable')) {
    return {
      answer:
        'The search index is not reachable right now, so your documents could not be searched. Please try again in a moment.',
      insufficiencies: [{ section: 'Answer', missing: 'The search index did not answer', queriesTried: queries }],
      coverage: 0,
    };
  }
  if (state.opened.length === 0) {
    const answer = `${phrase}: no passage in your documents matched this question.`;
    return {
      answer,
      insufficiencies: [{ section: 'Answer', missing: 'No relevant passage was found', queriesTried: queries }],
      coverage: 0,
    };
  }

  // A question about the library ("which of my documents …") is answered per document.
  if (state.plan.documents && c.requiredSections.length === 0) {
    const { signals, ...answer } = documentAnswer(state, state.plan.documents, phrase);
    recordAnswerSignals(state, signals);
    return answer;
  }

  // The question's conditions on typed fields became filters (plan.ts): every opened document passed them, so the
  // answer is the list of those documents, each with its passage that best shows the filtered fields.
  const meta = state.plan.filters.meta ?? [];
  if (meta.length > 0 && c.requiredSections.length === 0) {
    const fieldTerms = meta.flatMap((f) => analyze(f.field.replace(/_/g, ' ')));
    const seen = new Set<string>();
    for (const o of state.opened) {
      if (seen.has(o.chunk.documentId) || seen.size >= count + 2) continue;
      const own = pool.filter((p) => p.opened.chunk.documentId === o.chunk.documentId);
      const ranked = own
        .map((p) => ({
          p,
          s:
            coverage(fieldTerms, p.terms) +
            (/\d/.test(p.sentence.text) ? 0.5 : 0) -
            (looksLikeHeading(p.sentence.text, p.opened) ? 1 : 0) -
            p.sentence.start * 0.000001,
        }))
        .sort((a, b) => b.s - a.s);
      const top = ranked[0]?.p;
      if (!top) continue;
      seen.add(o.chunk.documentId);
      lines.push(quoteLine(top, true));
    }
    if (lines.length > 0)
      return { answer: lines.join('\n'), insufficiencies: [], coverage: coverage(questionTerms, new Set(fieldTerms)) };
  }

  // An e-mail's sender, recipients, date or subject is read from its header lines by their labels (email-header.ts).
  const mail =
    c.requiredSections.length === 0
      ? mailHeaderAnswer(state.question, detectAnswerType(state.question), state.opened)
      : null;
  if (mail) {
    recordAnswerSignals(state, mail.signals);
    return { answer: mail.lines.map((l) => quoted(l, mail.opened.n)).join(' '), insufficiencies: [], coverage: 1 };
  }

  // When a document was written: the date line at its opening, read by its place (document-date.ts).
  const dated =
    c.requiredSections.length === 0
      ? documentDateAnswer(state.question, detectAnswerType(state.question), state.opened)
      : null;
  if (dated) {
    recordAnswerSignals(state, dated.signals);
    return { answer: `Dated at its opening: ${quoted(dated.date, dated.opened.n)}`, insufficiencies: [], coverage: 1 };
  }

  // A list under a label that says what the question asks ("Important points:" and its bullets; labelled-list.ts).
  const list =
    c.requiredSections.length === 0
      ? labelledListAnswer(state.question, detectAnswerType(state.question), state.opened)
      : null;
  if (list) {
    recordAnswerSignals(state, list.signals);
    const n = list.opened.n;
    return {
      answer: [quoted(list.label, n), ...list.items.map((item) => `- ${quoted(item, n)}`)].join('\n'),
      insufficiencies: [],
      coverage: 1,
    };
  }

  let sqlDone = false;
  const exactBlock = (terms: string[]): string | null => {
    if (sqlDone || !c.exactQuotes.some((w) => /sql/i.test(w))) return null;
    const ranked = [...state.opened].sort(
      (a, b) =>
        dateBonus(state, b) - dateBonus(state, a) ||
        coverage(terms, new Set(analyze(b.chunk.text))) - coverage(terms, new Set(analyze(a.chunk.text))),
    );
    for (const o of ranked) {
      const line = [...o.chunk.text.matchAll(SQL_LINE)][0]?.[0]?.trim();
      if (line && (terms.length === 0 || coverage(terms, new Set(analyze(o.chunk.text))) > 0)) {
        sqlDone = true;
        return `Exact SQL [${o.n}]:\n\`\`\`sql\n${line}\n\`\`\``;
      }
    }
    return null;
  };

  if (c.requiredSections.length > 0) {
    for (const section of c.requiredSections) {
      const topic = c.requiredTopics.find((t) => keyTerms(t).some((x) => keyTerms(section).includes(x)));
      const terms = [...new Set([...keyTerms(section), ...keyTerms(topic ?? '')])];
      lines.push(`## ${section}`);
      const picked = best(state, pool, terms, wider ? 3 : 2, used);
      addCovered(picked);
      const block = exactBlock(terms);
      if (picked.length === 0 && !block) {
        lines.push(`${phrase}: the opened sources do not cover ${section}.`);
        insufficiencies.push({
          section,
          missing: `No opened source covers ${section}`,
          queriesTried: queries.filter((q) => keyTerms(q).some((t) => terms.includes(t))),
        });
      } else {
        for (const p of picked) lines.push(quoteLine(p, true));
        if (block) lines.push(block);
      }
      lines.push('');
    }
  } else {
    const terms = questionTerms.length > 0 ? questionTerms : keyTerms(state.question);
    // A compound question ("How many X …, and what is Y?") is answered part by part: each part's evidence may be
    // in another document, and a part nothing answers is declined on its own line.
    const parts = subQuestions(searchableQuestion(state.question), keyTerms);
    const chosen = parts.map((part) =>
      selectEvidence({
        question: parts.length > 1 ? part : searchableQuestion(state.question),
        terms: parts.length > 1 && keyTerms(part).length > 0 ? keyTerms(part) : terms,
        pool,
        opened: state.opened,
        count: parts.length > 1 ? Math.max(1, Math.floor(count / parts.length)) : count,
        bonus: (o) => dateBonus(state, o),
        chunkCount: (documentId) => state.metadata.get(documentId)?.chunkCount ?? null,
      }),
    );
    const answering = chosen.filter((c) => !c.decline);
    recordAnswerSignals(state, combinedSignals(chosen));
    if (answering.length === 0) {
      const missing = [...new Set(chosen.flatMap((c) => c.decline?.missing ?? []))];
      return declineAnswer(state, phrase, missing, queries, chosen[0]?.signals.termCoverage ?? 0);
    }
    const quoted = new Set<string>();
    for (const [i, c] of chosen.entries()) {
      if (c.decline) {
        const words = questionWords(parts[i] ?? '', c.decline.missing);
        lines.push(
          `${phrase}: the passages found in your documents do not answer this part of the question${words.length > 0 ? `; they do not mention ${words.map((w) => `"${w}"`).join(', ')}` : ''}.`,
        );
        insufficiencies.push({
          section: 'Answer',
          missing: `No passage found answers "${parts[i] ?? ''}"`,
          queriesTried: queries,
        });
        continue;
      }
      addCovered(c.picked);
      const fresh = c.picked.filter((p) => !quoted.has(p.sentence.text));
      for (const p of fresh) quoted.add(p.sentence.text);
      if (c.table) {
        lines.push(tableAnswerLine(c.table));
        for (const t of parts.length > 1 ? keyTerms(parts[i] ?? '') : questionTerms) covered.add(t);
      } else if (bullet) for (const p of fresh) lines.push(quoteLine(p, true));
      else if (fresh.length > 0) lines.push(fresh.map((p) => quoteLine(p, false)).join(' '));
    }
    const block = exactBlock(questionTerms);
    if (block) lines.push('', block);
    lines.push(...referencedLines(state, pool, questionTerms, quoted));
  }

  for (const part of missingParts(state)) {
    if (insufficiencies.some((i) => i.section === part.section)) continue;
    insufficiencies.push({
      section: part.section,
      missing: `The opened sources do not cover ${part.section}`,
      queriesTried: part.queries,
    });
  }
  const cov = questionTerms.length > 0 ? covered.size / questionTerms.length : 1;
  const uncovered = questionTerms.filter((t) => !covered.has(t));
  if (c.requiredSections.length === 0 && cov < 0.5) {
    const words = uncoveredWords(state.question, uncovered);
    lines.push(
      '',
      `${phrase}: the quoted passages may not answer the question fully${words.length > 0 ? `; they do not mention ${words.map((w) => `"${w}"`).join(', ')}` : ''}.`,
    );
    insufficiencies.push({
      section: 'Answer',
      missing: `Passages do not mention ${words.join(', ') || 'all parts of the question'}`,
      queriesTried: queries,
    });
  } else if (insufficiencies.length > 0 && c.requiredSections.length === 0) {
    lines.push('', ...insufficiencies.map((i) => `${phrase}: ${i.missing}.`));
  }
  return {
    answer: lines
      .join('\n')
      .replace(/\n{3,}/g, '\n\n')
      .trim(),
    insufficiencies,
    coverage: cov,
  };
}

/**
 * The sections the answer's quoted passages point to ("defined in Section 4.2 of the Integration Guide"), when the
 * run followed the reference and opened the section: its sentence that best covers the question, quoted and cited,
 * under the reference's own words when the section carries its label (else as "Referenced passage").
 */
function referencedLines(state: AgentState, pool: Candidate[], terms: string[], quoted: Set<string>): string[] {
  const quotedChunks = new Set(pool.filter((p) => quoted.has(p.sentence.text)).map((p) => p.opened.chunk.chunkId));
  const out: string[] = [];
  for (const o of state.opened) {
    const entry = state.results.get(o.handle);
    const reference = entry?.origin === 'follow' ? entry.queries[0] : undefined;
    if (!reference || quotedChunks.has(o.chunk.chunkId)) continue;
    const pointing = state.opened.some((p) => quotedChunks.has(p.chunk.chunkId) && p.chunk.text.includes(reference));
    if (!pointing) continue;
    const best = pool
      .filter((c) => c.opened === o && !quoted.has(c.sentence.text) && !looksLikeHeading(c.sentence.text, o))
      .map((c) => ({ c, s: coverage(terms, c.terms) - c.sentence.start * 0.000001 }))
      .sort((a, b) => b.s - a.s)[0]?.c;
    if (!best) continue;
    quoted.add(best.sentence.text);
    const detected = detectReferences(reference)[0];
    const labelled =
      detected && namingSection([{ ...o.chunk, snippet: '', score: 0, scores: {} }], detected).length > 0;
    // The section's label is written only when the cited section carries it (its digits must be in the source).
    const named = labelled && (!/\d/.test(detected.target) || o.chunk.text.includes(detected.target));
    out.push(`${named ? `Referenced ${sectionWords(detected)}` : 'Referenced passage'}: ${quoteLine(best, false)}`);
  }
  return out;
}

/**
 * The question's own words for analysed terms (so the answer names them as the user wrote them). Words of the
 * question's frame ("how much", "where does … come from", "what is the meaning of") name no topic: a passage need not
 * say them, so the note does not list them as unmentioned.
 */
export function uncoveredWords(question: string, terms: string[]): string[] {
  const frame = questionFrameTerms(question);
  const want = new Set(terms.filter((t) => !frame.has(t)));
  const out: string[] = [];
  for (const word of withoutInterrogatives(question).match(/[\p{L}\p{N}_'-]+/gu) ?? []) {
    const analysed = analyze(word);
    if (analysed.length === 1 && want.has(analysed[0] ?? '') && !out.includes(word)) out.push(word);
    if (out.length >= 4) break;
  }
  return out;
}
