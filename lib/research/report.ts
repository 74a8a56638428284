import type { LanguageModel } from 'ai';
import { z } from 'zod';
import { callStructured } from '@/lib/agent/model-call';
import { citationMarkers, keyTerms, splitSentences, termCoverage } from '@/lib/agent/text';
import type { ReportSection, ResearchCitation, ResearchReport, ResearchTask } from './schema';

/**
 * The synthesis step: a structured report whose sections are the tasks' answers. Every section's text is what its
 * task's agent run delivered through the validation gate (lib/agent/gate/deliver.ts), so every claim in it passed
 * that gate against the task's own opened sources; here its [n] markers are only renumbered across the report and
 * each section lists its sources. The key findings are sentences taken from the sections: a model may choose them
 * (by index, schema-checked) but cannot write them, so the summary adds no unchecked claim. Without a model the
 * first cited sentence of each section is taken (extractive).
 */

const CONFIDENCE_SCORE = { high: 100, medium: 70, low: 40 } as const;

/** A section's quality (0-100): cited claims, validation, relevance to its task, confidence. */
export function sectionQuality(task: ResearchTask): number {
  const text = task.answer ?? '';
  const claims = splitSentences(text).filter((s) => !/^\s*[#-]/.test(s.text) && keyTerms(s.text).length >= 3);
  const cited = claims.filter((s) => citationMarkers(s.text).length > 0).length;
  const citations = claims.length === 0 ? 0 : (cited / claims.length) * 100;
  const validated = task.validated ? 100 : 50;
  const terms = keyTerms(task.query);
  const relevance = terms.length === 0 ? 100 : termCoverage(terms, text) * 100;
  const confidence = task.confidence ? CONFIDENCE_SCORE[task.confidence] : 0;
  return Math.round((citations + validated + relevance + confidence) / 4);
}

interface Numbered {
  sections: ReportSection[];
  citations: ResearchCitation[];
}

/** Renumbers each task's [n] across the report (one number per cited passage) and lists each section's sources. */
export function numberSections(tasks: readonly ResearchTask[]): Numbered {
  const byChunk = new Map<string, number>();
  const citations: ResearchCitation[] = [];
  const sections: ReportSection[] = [];
  for (const task of tasks) {
    const local = new Map<number, number>();
    for (const c of task.citations) {
      let global = byChunk.get(c.chunkId);
      if (global === undefined) {
        global = citations.length + 1;
        byChunk.set(c.chunkId, global);
        citations.push({ ...c, n: global });
      }
      local.set(c.n, global);
    }
    const text = (task.answer ?? '').replace(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g, (whole, inner: string) => {
      const mapped = inner.split(',').map((p) => local.get(Number.parseInt(p.trim(), 10)));
      return mapped.every((n) => n !== undefined) ? `[${mapped.join(', ')}]` : whole;
    });
    const used = new Set(citationMarkers(text).map((m) => m.n));
    const sources = citations
      .filter((c) => used.has(c.n))
      .map((c) => ({
        n: c.n,
        documentId: c.documentId,
        chunkId: c.chunkId,
        filename: c.filename,
        page: c.page,
        sheet: c.sheet,
        headingPath: c.headingPath,
        quote: c.quote,
      }));
    sections.push({
      heading: task.title,
      taskId: task.id,
      text,
      sources,
      validated: task.validated,
      confidence: task.confidence ?? 'low',
      quality: sectionQuality(task),
    });
  }
  return { sections, citations };
}

/** The cited, non-heading sentences of each section, as candidates for the key findings. */
function candidates(sections: readonly ReportSection[]): { section: number; sentence: string }[][] {
  return sections.map((s, section) =>
    splitSentences(s.text)
      .map((x) => x.text.trim())
      .filter((t) => !/^\s*#/.test(t) && citationMarkers(t).length > 0)
      .map((sentence) => ({ section, sentence })),
  );
}

function findingsText(sections: readonly ReportSection[], picks: { section: number; sentence: string }[]): string {
  return picks
    .map((p) => `- **${sections[p.section]?.heading ?? ''}**: ${p.sentence.replace(/^[-*•]\s*/, '')}`)
    .join('\n');
}

const picksSchema = z.object({
  picks: z
    .array(z.object({ section: z.number().int().min(0), sentence: z.number().int().min(0) }))
    .min(1)
    .max(6),
});

export interface SummaryOutcome {
  summary: string;
  source: 'model' | 'extractive';
  fallback: string | null;
  modelMs: number;
}

/** Key findings: model-chosen gated sentences, or the first cited sentence of each section. */
export async function keyFindings(
  question: string,
  sections: readonly ReportSection[],
  model: { model: LanguageModel; timeoutMs: number; signal?: AbortSignal; now?: () => number } | null,
): Promise<SummaryOutcome> {
  const pool = candidates(sections);
  const first = pool.flatMap((c) => (c[0] ? [c[0]] : []));
  const extractive = findingsText(sections, first);
  if (!model || first.length === 0) return { summary: extractive, source: 'extractive', fallback: null, modelMs: 0 };
  const listing = pool
    .map((c, i) => `Section ${i} (${sections[i]?.heading}):\n${c.map((x, j) => `  ${j}: ${x.sentence}`).join('\n')}`)
    .join('\n');
  const outcome = await callStructured({
    model: model.model,
    instructions:
      'Choose the sentences that best answer the research question, as {section, sentence} indexes from the list. Choose; do not write.',
    prompt: `Research question: ${question}\n${listing}`,
    schema: picksSchema,
    name: 'key_findings',
    timeoutMs: model.timeoutMs,
    now: model.now ?? (() => performance.now()),
    ...(model.signal ? { signal: model.signal } : {}),
  });
  if (!outcome.ok)
    return {
      summary: extractive,
      source: 'extractive',
      fallback: `${outcome.reason}: ${outcome.message}`.slice(0, 300),
      modelMs: outcome.ms,
    };
  const seen = new Set<string>();
  const picks = outcome.value.picks.flatMap((p) => {
    const c = pool[p.section]?.[p.sentence];
    const key = `${p.section}:${p.sentence}`;
    if (!c || seen.has(key)) return [];
    seen.add(key);
    return [c];
  });
  if (picks.length === 0)
    return { summary: extractive, source: 'extractive', fallback: 'no valid pick', modelMs: outcome.ms };
  return { summary: findingsText(sections, picks), source: 'model', fallback: null, modelMs: outcome.ms };
}

/** The report as one Markdown text (the saved answer's text), with [n] markers numbered across the report. */
export function reportMarkdown(report: Pick<ResearchReport, 'title' | 'summary' | 'sections'>): string {
  const parts = [`# ${report.title}`];
  if (report.summary.trim()) parts.push(`## Key findings\n\n${report.summary}`);
  for (const s of report.sections) parts.push(`## ${s.heading}\n\n${s.text}`);
  return parts.join('\n\n');
}
