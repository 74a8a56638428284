import { analyze } from '@/lib/retrieval/analyzer';
import { type AnswerSignals, type ConfidenceInput, confidenceScore, extractiveConfidence } from './confidence';
import { findVerbatim } from './gate/normalize';
import { claimUnits, type Unit, withoutMarkers } from './gate/units';
import type { AgentState, OpenedChunk } from './state';
import { citationMarkers, clip, keyTerms, splitSentences } from './text';
import type { AgentCitation, Confidence, Insufficiency } from './types';
import { admitsMissing, missingParts } from './validate';

/**
 * Stage 9: the answer's [n] markers resolved to real chunks (document, chunk, page, file name, snippet, the quoted
 * span with offsets), invented markers stripped and reported, citations renumbered in order of first use.
 */

export interface Grounded {
  answer: string;
  citations: AgentCitation[];
  strippedMarkers: number[];
  /** Share (0-1) of the answer's claim sentences whose words their cited source supports. */
  support: number;
}

/** Rewrites [n] markers: invalid ones removed, valid ones renumbered by first use. */
function rewriteMarkers(answer: string, state: AgentState): { text: string; stripped: number[]; order: number[] } {
  const valid = new Set(state.opened.map((o) => o.n));
  const order: number[] = [];
  const stripped: number[] = [];
  for (const m of citationMarkers(answer)) {
    if (valid.has(m.n)) {
      if (!order.includes(m.n)) order.push(m.n);
    } else if (!stripped.includes(m.n)) stripped.push(m.n);
  }
  const text = answer
    .replace(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g, (_all, list: string) => {
      const kept = list
        .split(',')
        .map((p) => Number.parseInt(p.trim(), 10))
        .filter((n) => valid.has(n))
        .map((n) => order.indexOf(n) + 1);
      return kept.length > 0 ? `[${[...new Set(kept)].join(', ')}]` : '\u0000';
    })
    // Tidy only where a marker was removed; quoted text keeps its exact spacing.
    .replace(/[ \t]*\u0000(?=[.,;:!?])/g, '')
    .replace(/[ \t]*\u0000[ \t]*/g, ' ');
  return { text, stripped, order };
}

/** The sentence of `chunk` sharing most analysed terms with `claim`, with offsets. */
export function bestSupportingSentence(
  chunk: string,
  claim: string,
): { text: string; start: number; end: number; overlap: number } {
  const claimTerms = new Set(analyze(claim));
  let bestSentence = { text: '', start: 0, end: 0, overlap: -1 };
  for (const s of splitSentences(chunk)) {
    const terms = analyze(s.text);
    let overlap = 0;
    for (const t of new Set(terms)) if (claimTerms.has(t)) overlap++;
    if (overlap > bestSentence.overlap) bestSentence = { ...s, overlap };
  }
  if (bestSentence.overlap < 0)
    return { text: chunk.slice(0, 200), start: 0, end: Math.min(200, chunk.length), overlap: 0 };
  return bestSentence;
}

function snippetAround(text: string, start: number, end: number): string {
  const from = Math.max(0, start - 80);
  const to = Math.min(text.length, Math.max(end + 80, from + 240));
  return `${from > 0 ? '…' : ''}${clip(text.slice(from, to).trim(), 400)}${to < text.length ? '…' : ''}`;
}

/** Share of claim sentences (≥ 3 key terms, not headings or admissions) supported by the sources they cite. */
export function supportRatio(answer: string, state: AgentState): number {
  let claims = 0;
  let supported = 0;
  for (const s of splitSentences(answer)) {
    if (/^\s*#/.test(s.text) || admitsMissing(s.text)) continue;
    const terms = keyTerms(s.text.replace(/\[\d[\d,\s]*\]/g, ''));
    if (terms.length < 3) continue;
    claims++;
    const cited = citationMarkers(s.text)
      .map((m) => state.opened.find((o) => o.n === m.n))
      .filter((o): o is OpenedChunk => !!o);
    if (cited.length === 0) continue;
    const have = new Set(cited.flatMap((o) => analyze(o.chunk.text)));
    const hit = terms.filter((t) => have.has(t)).length;
    if (hit / terms.length >= 0.5) supported++;
  }
  return claims === 0 ? 1 : supported / claims;
}

/** Grounds an accepted (or repaired) answer. */
export function groundAnswer(answer: string, state: AgentState): Grounded {
  const support = supportRatio(answer, state);
  const units = claimUnits(answer);
  const { text, stripped, order } = rewriteMarkers(answer, state);
  const citations: AgentCitation[] = order.flatMap((oldN, i) => {
    const opened = state.opened.find((o) => o.n === oldN);
    if (!opened) return [];
    const chunk = opened.chunk;
    let quote: { text: string; start: number; end: number } | null = null;
    for (const q of quotedBy(units, oldN)) {
      const found = findVerbatim(chunk.text, q, true) ?? findVerbatim(chunk.text, q.replace(/[.,;:!?]+$/u, ''), true);
      if (found) {
        quote = { text: chunk.text.slice(found.start, found.end), start: found.start, end: found.end };
        break;
      }
    }
    if (!quote) {
      const claim = units
        .filter((u) => u.cites.includes(oldN))
        .map((u) => u.text)
        .join(' ');
      const bestSentence = bestSupportingSentence(chunk.text, claim || state.question);
      quote = { text: bestSentence.text, start: bestSentence.start, end: bestSentence.end };
    }
    return [
      {
        n: i + 1,
        documentId: chunk.documentId,
        chunkId: chunk.chunkId,
        filename: chunk.filename,
        title: chunk.title,
        page: chunk.page,
        sheet: chunk.sheet,
        headingPath: chunk.headingPath,
        chunkIndex: chunk.index,
        snippet: snippetAround(chunk.text, quote.start, quote.end),
        quote: quote.text,
        quoteStart: quote.start,
        quoteEnd: quote.end,
        charStart: chunk.charStart,
        charEnd: chunk.charEnd,
        score: Math.round(opened.score * 1000) / 1000,
        instructionLike: opened.injected.length > 0 || opened.suspect.length > 0,
        openedAs: oldN,
      },
    ];
  });
  return { answer: text.trim(), citations, strippedMarkers: stripped, support };
}

/** The quoted texts (quotes, block quotes, code lines) that cite source n, in order. */
function quotedBy(units: readonly Unit[], n: number): string[] {
  return units.flatMap((u) => {
    if (!u.cites.includes(n) && !u.quotes.some((q) => q.cites.includes(n))) return [];
    if (u.kind === 'code')
      return u.text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.length > 0);
    if (u.kind === 'blockquote') return [withoutMarkers(u.text).replace(/\s+/g, ' ').trim()];
    return u.quotes.filter((q) => q.cites.includes(n)).map((q) => q.text);
  });
}

/** Structured insufficiencies: required parts the sources miss, plus any the answer stage found. */
export function buildInsufficiencies(state: AgentState, extra: Insufficiency[]): Insufficiency[] {
  const out: Insufficiency[] = [...extra];
  for (const part of missingParts(state)) {
    if (out.some((i) => i.section.toLowerCase() === part.section.toLowerCase())) continue;
    out.push({ section: part.section, missing: `No opened source covers ${part.section}`, queriesTried: part.queries });
  }
  if (state.opened.length === 0 && !out.some((i) => i.section === 'Answer')) {
    out.push({
      section: 'Answer',
      missing: 'No relevant passage was found',
      queriesTried: state.searches.map((s) => s.query),
    });
  }
  return out;
}

const UNCERTAIN = /\b(?:might|possibly|perhaps|unclear|not\s+sure|may\s+not)\b/i;

/**
 * Confidence: high when the gate passed, every claim is supported, nothing is missing and no
 * hedging; low when the gate failed, nothing is cited or support is weak; medium otherwise. Planted instructions
 * in the evidence cap it at medium.
 */
export function computeConfidence(args: {
  validated: boolean;
  citations: number;
  support: number;
  insufficiencies: number;
  answer: string;
  injectionInContext: boolean;
  signals?: AnswerSignals | null;
}): Confidence {
  if (args.signals) return extractiveConfidence(confidenceInput(args));
  // A model-written answer: not yet calibrated (needs live runs); the gate, claim support and hedging decide.
  if (!args.validated || args.citations === 0 || args.support < 0.5) return 'low';
  const high =
    args.support >= 0.8 && args.insufficiencies === 0 && !UNCERTAIN.test(args.answer) && !admitsMissing(args.answer);
  return high && !args.injectionInContext ? 'high' : 'medium';
}

/** The 0-1 score behind the label (lib/agent/confidence.ts). */
export function computeConfidenceScore(args: Parameters<typeof computeConfidence>[0]): number {
  return confidenceScore(confidenceInput(args));
}

function confidenceInput(args: Parameters<typeof computeConfidence>[0]): ConfidenceInput {
  return {
    signals: args.signals ?? null,
    validated: args.validated,
    citations: args.citations,
    support: args.support,
    insufficiencies: args.insufficiencies,
    injectionInContext: args.injectionInContext,
    hedged: UNCERTAIN.test(args.answer) || admitsMissing(args.answer),
  };
}
