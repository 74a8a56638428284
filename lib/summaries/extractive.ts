import { splitSentences } from '@/lib/agent/text';
import { createTimeSlicer } from '@/lib/event-loop';
import { analyze } from '@/lib/retrieval/analyzer';
import { buildSections, type Section, type SectionChunk } from './sections';

/**
 * Extractive summaries (no model): for each section, its most central sentences (TF-IDF weight against the
 * document's other sections, length-normalised) in text order, then its most distinctive words. Written by hand:
 * the npm summarisers we found (node-summary, node-sumy ports) are unmaintained or English-only sentence rankers,
 * and this one must share the search analyser so that a summary matches the queries its section answers.
 */

export const SUMMARY_SENTENCES = 3;
export const SUMMARY_KEY_TERMS = 10;
export const SUMMARY_MAX_CHARS = 900;

export interface WrittenSummary {
  text: string;
  source: 'model' | 'extractive';
}

/** String.prototype.localeCompare's order (the default locale), without building a collator per comparison. */
const byLocale = new Intl.Collator().compare;

const WORD = /[\p{L}][\p{L}\p{N}'’-]{2,}/gu;

function sectionText(section: Section, chunks: readonly SectionChunk[]): string {
  // Chunks overlap by a few tokens; a repeated sentence would only count twice, which the TF cap absorbs.
  return chunks
    .filter((c) => c.index >= section.chunkStart && c.index <= section.chunkEnd)
    .map((c) => c.text)
    .join('\n\n');
}

/** A section with its summary text and where the text comes from. */
export interface SummarizedSection extends Section {
  text: string;
  source: WrittenSummary['source'];
}

/**
 * A document's sections with extractive summaries (what `summarizeDocument` gives without a model); an empty list
 * for a short document. Needs no model or network, so the parse worker runs it beside the chunker.
 */
export async function extractiveSections(chunks: readonly SectionChunk[]): Promise<SummarizedSection[]> {
  const sections = buildSections(chunks);
  if (sections.length === 0) return [];
  return withSummaries(sections, await extractiveSummaries(sections, chunks));
}

/** Sections paired with their written summaries (a section without one is summarised by its label). */
export function withSummaries(sections: readonly Section[], written: readonly WrittenSummary[]): SummarizedSection[] {
  return sections.map((s, i) => ({
    ...s,
    text: written[i]?.text ?? s.label,
    source: written[i]?.source ?? 'extractive',
  }));
}

/** Summaries for `sections` of one document, in the same order. */
export async function extractiveSummaries(
  sections: readonly Section[],
  chunks: readonly SectionChunk[],
): Promise<WrittenSummary[]> {
  // About 2 ms of analysis per section (a 5,000-chunk document has ~800 sections): the loops yield to the event
  // loop every few milliseconds, since ingest runs in the server process beside the requests it answers.
  const slice = createTimeSlicer();
  const texts: { text: string; terms: string[] }[] = [];
  const df = new Map<string, number>();
  for (const s of sections) {
    const text = sectionText(s, chunks);
    const terms = analyze(text);
    texts.push({ text, terms });
    for (const term of new Set(terms)) df.set(term, (df.get(term) ?? 0) + 1);
    await slice();
  }
  const n = sections.length;
  const idf = (term: string) => Math.log(1 + n / (df.get(term) ?? 1));
  // A word's analysis is the same wherever it occurs: each distinct word is analysed once per document.
  const termOfWord = new Map<string, string | undefined>();
  const analyzeWord = (word: string) => {
    if (!termOfWord.has(word)) termOfWord.set(word, analyze(word)[0]);
    return termOfWord.get(word);
  };
  // Sentences repeat between sections (chunks overlap): each distinct sentence is analysed once too.
  const termsOfSentence = new Map<string, string[]>();
  const analyzeSentence = (sentence: string) => {
    let terms = termsOfSentence.get(sentence);
    if (!terms) {
      terms = [...new Set(analyze(sentence))];
      termsOfSentence.set(sentence, terms);
    }
    return terms;
  };
  const out: WrittenSummary[] = [];
  for (const [i, { text, terms }] of texts.entries()) {
    out.push({
      text: summarizeOne(text, terms, sections[i]?.label ?? '', idf, { analyzeWord, analyzeSentence }),
      source: 'extractive',
    });
    await slice();
  }
  return out;
}

function summarizeOne(
  text: string,
  textTerms: readonly string[],
  label: string,
  idf: (term: string) => number,
  {
    analyzeWord,
    analyzeSentence,
  }: { analyzeWord: (word: string) => string | undefined; analyzeSentence: (sentence: string) => string[] },
): string {
  const tf = new Map<string, number>();
  for (const term of textTerms) tf.set(term, (tf.get(term) ?? 0) + 1);
  // Each term's weight is computed once (the sentence scores and the key-term order read it many times).
  const weights = new Map<string, number>();
  const weight = (term: string) => {
    let w = weights.get(term);
    if (w === undefined) {
      w = Math.log(1 + (tf.get(term) ?? 0)) * idf(term);
      weights.set(term, w);
    }
    return w;
  };
  const sentences = splitSentences(text)
    .map((s, position) => ({ ...s, position, clean: s.text.replace(/\s+/g, ' ').trim() }))
    .filter((s) => s.clean.length >= 30 && s.clean.length <= 400);
  const scored = sentences.map((s) => {
    const terms = analyzeSentence(s.clean);
    const total = terms.reduce((sum, t) => sum + weight(t), 0);
    return { ...s, score: terms.length === 0 ? 0 : total / Math.sqrt(terms.length + 4) };
  });
  const picked = [...scored]
    .sort((a, b) => b.score - a.score || a.position - b.position)
    .slice(0, SUMMARY_SENTENCES)
    .sort((a, b) => a.position - b.position);
  // Distinctive words, shown in their most frequent surface form.
  const surface = new Map<string, Map<string, number>>();
  for (const m of text.matchAll(WORD)) {
    const word = m[0].toLowerCase();
    const term = analyzeWord(word);
    if (!term) continue;
    const forms = surface.get(term) ?? new Map<string, number>();
    forms.set(word, (forms.get(word) ?? 0) + 1);
    surface.set(term, forms);
  }
  const keyTerms = [...tf.keys()]
    .filter((t) => surface.has(t))
    .sort((a, b) => weight(b) - weight(a) || byLocale(a, b))
    .slice(0, SUMMARY_KEY_TERMS)
    .map((t) => [...(surface.get(t)?.entries() ?? [])].sort((a, b) => b[1] - a[1])[0]?.[0] ?? t);
  const body = picked.map((s) => s.clean).join(' ');
  const head = label ? `${label}: ` : '';
  const terms = keyTerms.length > 0 ? ` Key terms: ${keyTerms.join(', ')}.` : '';
  const room = SUMMARY_MAX_CHARS - head.length - terms.length;
  return `${head}${body.length > room ? `${body.slice(0, Math.max(0, room - 1)).trimEnd()}…` : body}${terms}`;
}
