import { analyze } from '@/lib/retrieval/analyzer';

/** Small, pure text helpers shared by the stages (sentences, key terms, quote normalisation, token estimates). */

export interface Sentence {
  text: string;
  start: number;
  end: number;
}

const SENTENCE_END = /[.!?](?=\s|$)|\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)/g;

/** Splits text into sentences with their offsets; list items and paragraphs end a sentence too. */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let start = 0;
  const push = (from: number, to: number) => {
    let a = from;
    let b = to;
    while (a < b && /\s/.test(text.charAt(a))) a++;
    while (b > a && /\s/.test(text.charAt(b - 1))) b--;
    if (b > a) out.push({ text: text.slice(a, b), start: a, end: b });
  };
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = (match.index ?? 0) + (match[0].startsWith('\n') ? 0 : match[0].length);
    // Do not split after a short abbreviation-like token ("e.g.", "No.", "v2.")
    const before = text.slice(Math.max(start, end - 5), end);
    if (/(?:\b[A-Za-z]\.|\be\.g\.|\bi\.e\.|\bvs\.|\bNo\.)$/.test(before)) continue;
    push(start, end);
    start = end;
  }
  push(start, text.length);
  return out;
}

/** Words that make a question but say nothing about its topic (already analysed: lower-case, stemmed). */
const QUESTION_NOISE = new Set(
  analyze(
    'list describe explain give tell find show name please document documents according provide summarize summarise ' +
      'answer question mention mentioned say says use using based detail details kind type tool tools search searches ' +
      'separate open_citation citation citations least quote exact verbatim line section sections insufficient documentation ' +
      'newest dated oldest conflict conflicts prefer explicitly produce include write runbook cite sources source two three four five one',
  ),
);

/** The analysed topic terms of a question (deduplicated, in order), without question scaffolding words. */
export function keyTerms(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const term of analyze(text)) {
    if (QUESTION_NOISE.has(term) || seen.has(term)) continue;
    seen.add(term);
    out.push(term);
  }
  return out;
}

/** Share (0-1) of `terms` present among the analysed terms of `text`. */
export function termCoverage(terms: readonly string[], text: string): number {
  if (terms.length === 0) return 0;
  const have = new Set(analyze(text));
  let hit = 0;
  for (const t of terms) if (have.has(t)) hit++;
  return hit / terms.length;
}

/** Normalises text for verbatim comparison: NFKC, curly quotes and dashes folded, whitespace collapsed. */
export function normalizeForQuote(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201A\u201B\u2032`]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Rough token estimate (4 characters per token), enough for budgets. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Truncates at a word boundary and marks the cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Citation markers [n] (also [1, 2] and [1][2]) in order of appearance. */
export function citationMarkers(text: string): { n: number; start: number; end: number }[] {
  const out: { n: number; start: number; end: number }[] = [];
  for (const m of text.matchAll(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g)) {
    const start = m.index ?? 0;
    for (const part of (m[1] ?? '').split(',')) {
      const n = Number.parseInt(part.trim(), 10);
      if (Number.isFinite(n)) out.push({ n, start, end: start + m[0].length });
    }
  }
  return out;
}
