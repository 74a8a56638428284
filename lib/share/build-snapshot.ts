import { z } from 'zod';
import { traceEventSchema } from '@/lib/agent/events';
import { researchReportSchema } from '@/lib/research/schema';
import { redactSnapshot } from '@/lib/share/redact-snapshot';
import type { ShareSnapshot, SnapshotCitation } from '@/lib/share/snapshot';

/** What the snapshot is built from: the stored answer and, per cited chunk, its text and document hash. */
export interface SnapshotSource {
  question: string;
  text: string;
  citations: unknown;
  insufficiencies: unknown;
  confidence: string;
  models: unknown;
  trace: unknown;
  createdAt: Date;
  /** The research report (sections with sources) when the answer is one. */
  report?: unknown;
}

const storedCitationSchema = z.object({
  n: z.number().int().positive(),
  documentId: z.string(),
  chunkId: z.string(),
  filename: z.string(),
  title: z.string().nullable().default(null),
  page: z.number().int().nullable().default(null),
  sheet: z.string().nullable().default(null),
  headingPath: z.string().nullable().default(null),
  snippet: z.string().default(''),
  quote: z.string().default(''),
  quoteStart: z.number().int().nullable().default(null),
  quoteEnd: z.number().int().nullable().default(null),
  instructionLike: z.boolean().default(false),
});

const insufficiencySchema = z.object({
  section: z.string(),
  missing: z.string(),
  queriesTried: z.array(z.string()).default([]),
});
const modelsSchema = z
  .object({
    decision: z.string().nullable().default(null),
    synthesis: z.string().nullable().default(null),
    extractive: z.boolean().default(false),
  })
  .loose();

/**
 * Freezes an answer into a share snapshot: question, answer, each citation's document name, page, quoted span
 * and the cited chunk's text (never more of a document), insufficiencies, confidence, models, date, a compact
 * trace, and each cited document's sha256. Pure: the caller supplies chunk texts and hashes it looked up for
 * the answer's owner. A citation whose chunk is missing (its document was deleted) is frozen redacted: no quote,
 * text or snippet, and the answer's sentences citing only such sources are removed (see redact-snapshot.ts).
 */
export function buildShareSnapshot(
  answer: SnapshotSource,
  cited: Map<string, { text: string; sha256: string }>,
): ShareSnapshot {
  const citations = z.array(storedCitationSchema).catch([]).parse(answer.citations);
  const trace = z
    .array(z.unknown())
    .catch([])
    .parse(answer.trace)
    .flatMap((e) => {
      const parsed = traceEventSchema.safeParse(e);
      return parsed.success ? [parsed.data] : [];
    });
  const calls = new Map<string, { tool: string; query: string }>();
  const searches: ShareSnapshot['trace']['searches'] = [];
  let opened = 0;
  let reprompts = 0;
  let validationPassed = false;
  for (const event of trace) {
    if (event.type === 'tool_call')
      calls.set(event.id, { tool: event.tool, query: event.input.query ?? event.input.reference ?? '' });
    if (event.type === 'tool_result') {
      const call = calls.get(event.id);
      if (event.tool === 'open_citation' && event.ok) opened++;
      else if (call && event.tool !== 'get_document_metadata' && event.tool !== 'open_citation') {
        searches.push({ tool: event.tool, query: call.query, hits: event.hits });
      }
    }
    if (event.type === 'reprompt') reprompts++;
    if (event.type === 'validation' && event.stage === 'draft') validationPassed = event.passed;
  }
  const snapshotCitations: SnapshotCitation[] = citations.map((c) => {
    const source = cited.get(c.chunkId);
    return {
      n: c.n,
      documentId: c.documentId,
      filename: c.filename,
      title: c.title,
      page: c.page,
      sheet: c.sheet,
      headingPath: c.headingPath,
      quote: c.quote || null,
      text: source?.text ?? null,
      snippet: c.snippet || null,
      quoteStart: c.quoteStart,
      quoteEnd: c.quoteEnd,
      sha256: source?.sha256 ?? null,
      redacted: !source,
      instructionLike: c.instructionLike,
    };
  });
  const confidence = z.enum(['high', 'medium', 'low']).catch('low').parse(answer.confidence);
  const models = modelsSchema.catch({ decision: null, synthesis: null, extractive: false }).parse(answer.models);
  const snapshot: ShareSnapshot = {
    version: 1,
    question: answer.question,
    answer: answer.text,
    citations: snapshotCitations,
    insufficiencies: z.array(insufficiencySchema).catch([]).parse(answer.insufficiencies),
    confidence,
    models: { decision: models.decision, synthesis: models.synthesis, extractive: models.extractive },
    answeredAt: answer.createdAt.toISOString(),
    trace: { searches, citationsOpened: opened, validationPassed, reprompts },
  };
  const report = answer.report ? researchReportSchema.safeParse(answer.report) : null;
  if (report?.success)
    snapshot.report = {
      sections: report.data.sections.map((s) => ({ heading: s.heading, sources: s.sources.map((x) => x.n) })),
      quality: report.data.quality.score,
    };
  return redactSnapshot(snapshot, (c) => c.redacted);
}
