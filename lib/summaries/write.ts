import type { LanguageModel } from 'ai';
import { extractiveSections, type SummarizedSection, withSummaries } from './extractive';
import { modelSummaries } from './model';
import { buildSections, type SectionChunk } from './sections';

export type { SummarizedSection } from './extractive';

/**
 * A document's sections with their summaries: model-written when `model` is given, extractive otherwise; an
 * empty list for a short document (its chunks already are its sections).
 */
export async function summarizeDocument(args: {
  chunks: readonly SectionChunk[];
  model?: { model: LanguageModel; timeoutMs: number } | null;
  signal?: AbortSignal;
}): Promise<SummarizedSection[]> {
  if (!args.model) return extractiveSections(args.chunks);
  const sections = buildSections(args.chunks);
  if (sections.length === 0) return [];
  const written = await modelSummaries({ ...args.model, sections, chunks: args.chunks, signal: args.signal });
  return withSummaries(sections, written.summaries);
}
