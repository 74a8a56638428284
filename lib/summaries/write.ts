import type { LanguageModel } from 'ai';
import { extractiveSummaries, type WrittenSummary } from './extractive';
import { modelSummaries } from './model';
import { buildSections, type Section, type SectionChunk } from './sections';

export interface SummarizedSection extends Section {
  text: string;
  source: WrittenSummary['source'];
}

/**
 * A document's sections with their summaries: model-written when `model` is given, extractive otherwise; an
 * empty list for a short document (its chunks already are its sections).
 */
export async function summarizeDocument(args: {
  chunks: readonly SectionChunk[];
  model?: { model: LanguageModel; timeoutMs: number } | null;
  signal?: AbortSignal;
}): Promise<SummarizedSection[]> {
  const sections = buildSections(args.chunks);
  if (sections.length === 0) return [];
  const written = args.model
    ? (await modelSummaries({ ...args.model, sections, chunks: args.chunks, signal: args.signal })).summaries
    : await extractiveSummaries(sections, args.chunks);
  return sections.map((s, i) => ({
    ...s,
    text: written[i]?.text ?? s.label,
    source: written[i]?.source ?? 'extractive',
  }));
}
