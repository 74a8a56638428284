import type { LanguageModel } from 'ai';
import { replaceDocumentPagesAndChunks } from '@/lib/db/chunks';
import { documentDepth } from '@/lib/db/document-children';
import { loadJobDocument, markJobIndexed, recordJobProgress, saveExtractedTitle } from '@/lib/db/jobs';
import { replaceSectionSummaries } from '@/lib/db/summaries';
import { type DocumentTypedMeta, getDocumentTypedMeta, setDocumentTypedValues } from '@/lib/db/typed-meta';
import { replaceVisualPages } from '@/lib/db/visual-pages';
import { readMetadata } from '@/lib/domain/document';
import { indexedMetaValues } from '@/lib/domain/typed-meta';
import { MAX_CHILD_DEPTH, registerChildFiles } from '@/lib/ingest/children';
import { IngestError } from '@/lib/ingest/errors';
import { extractTypedValues } from '@/lib/ingest/extract-typed-meta';
import { extractTypedValuesWithModel } from '@/lib/ingest/extract-typed-meta-model';
import type { OcrOptions } from '@/lib/ingest/ocr';
import { type IngestProfile, timed } from '@/lib/ingest/profile';
import { parseAndChunkFile } from '@/lib/ingest/sandbox';
import { storedFilePath } from '@/lib/ingest/storage';
import type { IngestChunk } from '@/lib/ingest/types';
import { detectLanguage } from '@/lib/retrieval/language';
import type { ChunkDocumentAttributes, ChunkIndex, IndexedChunk } from '@/lib/retrieval/types';
import { type SummarizedSection, summarizeDocument } from '@/lib/summaries/write';

/** Embeds chunk texts for indexing; null when no embedder answers (the document is then keyword-only). */
export interface DocumentEmbedder {
  readonly model: string;
  embedDocuments(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}

export interface PipelineDeps {
  index: ChunkIndex;
  /** Resolved per job: an embedder that answered its probe, or null. */
  embedder: DocumentEmbedder | null;
  limits: {
    parseTimeoutMs: number;
    parseMaxMemoryMb: number;
    ocr?: OcrOptions;
    /** Flag PDF pages for the visual_interpretation tool: whether a vision model is configured (default true). */
    visualFlags?: boolean;
  };
  /** Called often; answers true when the job must stop (cancelled, deleted, or the worker is shutting down). */
  shouldStop?: () => Promise<boolean>;
  /**
   * The model that reads typed metadata values, when one answers (resolved only for documents whose bucket
   * declares typed fields); absent or null = deterministic extraction only.
   */
  resolveMetaModel?: () => Promise<{ model: LanguageModel; timeoutMs: number } | null>;
  /** The model that writes section summaries (LLM_SUMMARY_MODEL) when one answers; absent or null = extractive. */
  resolveSummaryModel?: () => Promise<{ model: LanguageModel; timeoutMs: number } | null>;
  /**
   * Whether a summary model is configured (LLM_SUMMARY_MODEL set): the parse worker then skips the extractive
   * summaries, which the model's replace; they are computed here only when the model does not answer.
   */
  summaryModelConfigured?: boolean;
  /** When given, each stage's wall time is added to it (lib/ingest/profile.ts). */
  profile?: IngestProfile;
}

export type StageName = 'parsing' | 'chunking' | 'embedding' | 'indexing';

/** Where each stage sits in the overall 0..1 progress bar. */
const STAGE_SPAN: Record<StageName, [number, number]> = {
  parsing: [0.02, 0.4],
  chunking: [0.4, 0.5],
  embedding: [0.5, 0.85],
  indexing: [0.85, 0.99],
};

const EMBED_BATCH = 64;
const INDEX_BATCH = 500;

export class JobStopped extends Error {
  constructor() {
    super('stopped');
    this.name = 'JobStopped';
  }
}

/**
 * Runs one claimed document through parse → chunk → embed → index and marks it INDEXED; throws IngestError
 * (a reason for the user), JobStopped (cancelled or deleted), or anything else (an internal failure).
 * Re-running it for the same document replaces its pages, chunks and indexed vectors (idempotent).
 */
export async function processDocument(
  documentId: string,
  deps: PipelineDeps,
): Promise<{ pageCount: number; chunkCount: number }> {
  const { index, profile } = deps;
  const doc = await timed(profile, 'db', () => loadJobDocument(documentId));
  if (!doc) throw new JobStopped();
  const controller = new AbortController();
  let lastWrite = 0;
  let stopChecked = 0;

  const progress = async (stage: StageName, fraction: number, force = false) => {
    const now = Date.now();
    if (!force && now - lastWrite < 400) return;
    lastWrite = now;
    const [from, to] = STAGE_SPAN[stage];
    const overall = from + (to - from) * Math.min(1, Math.max(0, fraction));
    await timed(profile, 'db', () => recordJobProgress({ documentId, stage, progress: overall }));
    if (deps.shouldStop && now - stopChecked > 400) {
      stopChecked = now;
      if (await timed(profile, 'db', deps.shouldStop)) {
        controller.abort();
        throw new JobStopped();
      }
    }
  };

  await progress('parsing', 0, true);
  // a top-level document (no parent) is at depth 0: no need to walk the chain
  const depth = doc.parentId
    ? await timed(profile, 'db', () => documentDepth({ ownerId: doc.ownerId, id: doc.id, limit: MAX_CHILD_DEPTH }))
    : 0;
  const parsed = await parseAndChunkFile({
    path: storedFilePath(doc.storedName),
    filename: doc.filename,
    declaredMime: doc.mime,
    limits: { timeoutMs: deps.limits.parseTimeoutMs, maxMemoryMb: deps.limits.parseMaxMemoryMb },
    signal: controller.signal,
    ocr: deps.limits.ocr,
    extractChildren: depth < MAX_CHILD_DEPTH,
    visualFlags: deps.limits.visualFlags,
    extractiveSummaries: deps.summaryModelConfigured !== true,
    onProgress: (p) => {
      void progress(p.stage, p.fraction).catch(() => controller.abort());
    },
  });
  if (profile && parsed.ok) {
    profile.parse += parsed.timings.parseMs;
    profile.chunk += parsed.timings.chunkMs;
    profile.sandbox += Math.max(0, parsed.timings.totalMs - parsed.timings.parseMs - parsed.timings.chunkMs);
  }
  if (deps.shouldStop && (await timed(profile, 'db', deps.shouldStop))) throw new JobStopped();
  if (!parsed.ok) throw new IngestError(parsed.code ?? 'malformed', parsed.reason);
  const { document, chunks, derived } = parsed;
  if (chunks.length === 0) throw new IngestError('no-text', 'no extractable text (scanned?)');

  await progress('chunking', 1, true);
  const rows = await timed(profile, 'db', () =>
    replaceDocumentPagesAndChunks({ documentId: doc.id, ownerId: doc.ownerId, pages: document.units, chunks }),
  );

  const typedBefore = await timed(profile, 'db', () =>
    extractTypedMeta(doc.ownerId, doc.id, chunks, deps.resolveMetaModel, controller.signal),
  );
  // Section summaries (a model's time counts here too when LLM_SUMMARY_MODEL answers) and visual page flags.
  await timed(profile, 'db', () =>
    writeSectionSummaries(doc.ownerId, doc.id, chunks, deps.resolveSummaryModel, controller.signal, derived.summaries),
  );
  await timed(profile, 'db', () =>
    replaceVisualPages({ ownerId: doc.ownerId, documentId: doc.id, pages: document.visualPages ?? [] }),
  );

  const metadata = readMetadata(doc.metadata);
  const title = metadata.title ?? document.title ?? null;
  const extractedTitle = document.title;
  if (!metadata.title && extractedTitle) {
    await timed(profile, 'db', () => saveExtractedTitle({ documentId: doc.id, title: extractedTitle, metadata }));
  }
  // The typed values just extracted (or set before), copied onto every chunk so typed filters run in the index.
  // read again only when the extraction wrote values (it merges them over the stored ones)
  const typed = typedBefore.wrote
    ? await timed(profile, 'db', () => getDocumentTypedMeta({ ownerId: doc.ownerId, documentId: doc.id }))
    : typedBefore.meta;
  const attributes: ChunkDocumentAttributes = {
    bucketId: doc.bucketId,
    mime: doc.mime,
    filename: doc.filename,
    title,
    documentDate: metadata.documentDate,
    tags: metadata.tags,
    fields: metadata.fields,
    meta: indexedMetaValues(doc.bucketId, typed.meta.values),
  };

  // Embedding: only when an embedder answers; otherwise the document is keyword-searchable now and gets its
  // vectors later (see backfillVectors).
  let vectors: (number[] | null)[] = chunks.map(() => null);
  let embeddingModel: string | null = null;
  if (deps.embedder) {
    try {
      vectors = [];
      for (let i = 0; i < chunks.length; i += EMBED_BATCH) {
        const batch = chunks.slice(i, i + EMBED_BATCH);
        const embedder = deps.embedder;
        const out = await timed(profile, 'embed', () =>
          embedder.embedDocuments(batch.map(embeddingText), controller.signal),
        );
        vectors.push(...out);
        await progress('embedding', (i + batch.length) / chunks.length);
      }
      embeddingModel = deps.embedder.model;
    } catch (error) {
      if (error instanceof JobStopped) throw error;
      console.warn(`[ingest] embedding failed for ${doc.id}; indexing for keyword search only`, error);
      vectors = chunks.map(() => null);
      embeddingModel = null;
    }
  }
  await progress('embedding', 1, true);

  const idByIndex = new Map(rows.map((r) => [r.index, r.id]));
  await timed(profile, 'index', () => index.deleteDocument(doc.ownerId, doc.id));
  for (let i = 0; i < chunks.length; i += INDEX_BATCH) {
    const batch: IndexedChunk[] = chunks.slice(i, i + INDEX_BATCH).map((c, j) => ({
      ...attributes,
      chunkId: idByIndex.get(c.index) ?? '',
      documentId: doc.id,
      ownerId: doc.ownerId,
      index: c.index,
      text: c.text,
      contextPrefix: c.contextPrefix,
      tokenCount: c.tokenCount,
      page: c.page,
      sheet: c.sheet,
      rowStart: c.rowStart,
      rowEnd: c.rowEnd,
      headingPath: c.headingPath,
      charStart: c.charStart,
      charEnd: c.charEnd,
      vector: vectors[i + j] ?? null,
      embeddingModel: vectors[i + j] ? embeddingModel : null,
      // Per chunk: a document can switch language (an English abstract in a German thesis).
      language: derived.languages[i + j] ?? detectLanguage(c.text),
    }));
    await timed(profile, 'index', () => index.upsert(batch));
    await progress('indexing', (i + batch.length) / chunks.length);
  }

  // Attachments and archive members become documents of their own (queued for this same pipeline).
  const children = document.children?.length
    ? await registerChildFiles(doc, document.children)
    : { created: [], warnings: [] };

  // The document may have been deleted while we indexed: then nothing of it may stay searchable.
  const finished = await timed(profile, 'db', () =>
    markJobIndexed({
      documentId: doc.id,
      pageCount: document.pageCount,
      chunkCount: chunks.length,
      embeddingModel,
      warnings: [...document.warnings, ...children.warnings],
    }),
  );
  if (!finished) {
    await index.deleteDocument(doc.ownerId, doc.id);
    throw new JobStopped();
  }
  return { pageCount: document.pageCount, chunkCount: chunks.length };
}

/**
 * Typed values for the bucket's schema fields: the model's (verified quotes) when one answers, and the
 * deterministic extractor's for the fields it did not give (lib/ingest/extract-typed-meta*.ts). Resolves with the
 * document's typed metadata as read before, and whether values were written since (then it must be read again).
 */
async function extractTypedMeta(
  ownerId: string,
  documentId: string,
  chunks: readonly IngestChunk[],
  resolveModel: PipelineDeps['resolveMetaModel'],
  signal: AbortSignal,
): Promise<{ meta: DocumentTypedMeta; wrote: boolean }> {
  const meta = await getDocumentTypedMeta({ ownerId, documentId });
  const { schema } = meta;
  if (schema.fields.length === 0) return { meta, wrote: false };
  const found = extractTypedValues(schema, chunks);
  const model = resolveModel ? await resolveModel() : null;
  const read = model ? await extractTypedValuesWithModel({ ...model, schema, chunks, signal }) : null;
  const values = { ...found.values, ...(read?.values ?? {}) };
  const evidence = { ...found.evidence, ...(read?.evidence ?? {}) };
  if (Object.keys(values).length === 0) return { meta, wrote: false };
  await setDocumentTypedValues({ ownerId, documentId, values, evidence, replace: false });
  return { meta, wrote: true };
}

/** Sections and their summaries for the summary → segment route (none for a short document). */
async function writeSectionSummaries(
  ownerId: string,
  documentId: string,
  chunks: readonly IngestChunk[],
  resolveModel: PipelineDeps['resolveSummaryModel'],
  signal: AbortSignal,
  extractive: readonly SummarizedSection[] | null,
): Promise<void> {
  const model = resolveModel ? await resolveModel() : null;
  // Without a model, the extractive summaries the parse worker already wrote (the same summarizeDocument gives),
  // or, when the worker skipped them because a model is configured but it does not answer now, computed here.
  const sections = model || !extractive ? await summarizeDocument({ chunks, model, signal }) : extractive;
  await replaceSectionSummaries({
    ownerId,
    documentId,
    summaries: sections.map(
      ({ ordinal, label, chunkStart, chunkEnd, pageStart, pageEnd, text, source, tokenCount }) => ({
        ordinal,
        label,
        chunkStart,
        chunkEnd,
        pageStart,
        pageEnd,
        text,
        source,
        tokenCount,
      }),
    ),
  });
}

/** The text a chunk is embedded with: its short context prefix, then its text. */
export function embeddingText(chunk: Pick<IngestChunk, 'contextPrefix' | 'text'>): string {
  return chunk.contextPrefix ? `${chunk.contextPrefix}\n\n${chunk.text}` : chunk.text;
}
