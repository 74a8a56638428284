/** The whole parse + chunk step for one file, in-process (the sandbox runs it inside a worker thread). */

import { readFile, stat } from 'node:fs/promises';
import { detectLanguage } from '@/lib/retrieval/language';
import { extractiveSections, type SummarizedSection } from '@/lib/summaries/extractive';
import { chunkDocument } from './chunker';
import { IngestError } from './errors';
import type { OcrOptions } from './ocr';
import { parseDocument } from './parse';
import type { ChunkerOptions, IngestChunk, ParsedDocument, ProgressCallback } from './types';
import type { ZipLimits } from './zip-guard';

export const DEFAULT_MAX_FILE_BYTES = 256 * 1024 * 1024;

export interface ParseAndChunkOptions {
  filename: string;
  declaredMime?: string | null;
  onProgress?: ProgressCallback;
  chunker?: ChunkerOptions;
  zipLimits?: Partial<ZipLimits>;
  /** Files larger than this are refused before they are read (default 256 MiB). */
  maxFileBytes?: number;
  ocr?: OcrOptions;
  /** See ParseOptions.extractChildren. */
  extractChildren?: boolean;
  /** See ParseOptions.visualFlags. */
  visualFlags?: boolean;
  /**
   * Compute the extractive section summaries (default true). False when a summary model is configured
   * (LLM_SUMMARY_MODEL): its summaries replace them, and the pipeline computes the extractive ones itself only when
   * the model does not answer.
   */
  extractiveSummaries?: boolean;
}

export interface ParseAndChunkOutput {
  parsed: ParsedDocument;
  chunks: IngestChunk[];
  /**
   * What the pipeline would otherwise compute from the chunks on its own thread: the extractive section summaries
   * (used when no summary model answers; null when `extractiveSummaries` was false) and each chunk's detected
   * language, in chunk order.
   */
  derived: { summaries: SummarizedSection[] | null; languages: string[] };
  /** chunkMs includes the derived values. */
  timings: { parseMs: number; chunkMs: number };
}

/**
 * Parses and chunks file bytes. Resolves only with at least one chunk; throws IngestError with a readable reason
 * otherwise (including "no extractable text (scanned?)" for a PDF without text).
 */
export async function parseAndChunkBytes(
  bytes: Uint8Array,
  options: ParseAndChunkOptions,
): Promise<ParseAndChunkOutput> {
  const t0 = performance.now();
  const parsed = await parseDocument(bytes, options);
  const t1 = performance.now();
  const chunks = chunkDocument(
    parsed,
    { ...options.chunker, filename: options.chunker?.filename ?? options.filename },
    options.onProgress,
  );
  if (chunks.length === 0) {
    throw new IngestError('no-text', parsed.kind === 'pdf' ? 'no extractable text (scanned?)' : 'no extractable text');
  }
  const summaries = options.extractiveSummaries === false ? null : await extractiveSections(chunks);
  const derived = { summaries, languages: chunks.map((c) => detectLanguage(c.text)) };
  const t2 = performance.now();
  return { parsed, chunks, derived, timings: { parseMs: t1 - t0, chunkMs: t2 - t1 } };
}

/** Reads a file (refusing one over `maxFileBytes` before reading it) and parses and chunks it. */
export async function parseAndChunkPath(path: string, options: ParseAndChunkOptions): Promise<ParseAndChunkOutput> {
  const maxBytes = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const info = await stat(path);
  if (info.size > maxBytes) {
    throw new IngestError(
      'too-large',
      `file too large: ${(info.size / 1048576).toFixed(1)} MB (limit ${(maxBytes / 1048576).toFixed(0)} MB)`,
    );
  }
  const bytes = new Uint8Array(await readFile(path));
  return parseAndChunkBytes(bytes, options);
}
