import type { Schemas } from '@qdrant/js-client-rest';
import { z } from 'zod';
import type { MetaValue } from '@/lib/domain/typed-meta';
import { ANALYZER_VERSION, analyze, analyzeQueryTerms } from '@/lib/retrieval/analyzer';
import { detectLanguage, likelyQueryLanguages } from '@/lib/retrieval/language';
import {
  chunkPointId,
  DENSE_VECTOR,
  fieldPair,
  metaPayload,
  SPARSE_VECTOR,
  toQdrantDatetime,
} from '@/lib/retrieval/qdrant-requests';
import { type Bm25Params, DEFAULT_BM25_PARAMS, documentSparseVector } from '@/lib/retrieval/sparse-bm25';
import type { ChunkDocumentAttributes, IndexedChunk, SearchHit } from '@/lib/retrieval/types';

/**
 * Mapping between chunks and Qdrant points: what is stored in the payload, and how payloads read back.
 * Payloads are external input and are validated with zod on the way back.
 */

/** The payload keys that carry document attributes (the ones updateDocumentAttributes rewrites). */
export function attributesPayload(attributes: ChunkDocumentAttributes): Record<string, unknown> {
  return {
    bucketId: attributes.bucketId,
    mime: attributes.mime,
    filename: attributes.filename,
    title: attributes.title,
    documentDate: attributes.documentDate === null ? null : toQdrantDatetime(attributes.documentDate),
    tags: [...new Set(attributes.tags)],
    fields: { ...attributes.fields },
    fieldPairs: Object.entries(attributes.fields).map(([key, value]) => fieldPair(key, value)),
    // Replaced whole by a payload update (set_payload overwrites top-level keys), so removed values disappear.
    meta: metaPayload(attributes.meta ?? {}),
  };
}

/** The chunk's stored language, detected from its text when the caller did not set one. */
function languageOfChunk(chunk: Pick<IndexedChunk, 'language' | 'text'>): string {
  return chunk.language ?? detectLanguage(chunk.text);
}

/** Full payload of a chunk point (everything but the vector). */
export function chunkPayload(chunk: IndexedChunk, embeddingModel: string | null): Record<string, unknown> {
  return {
    chunkId: chunk.chunkId,
    documentId: chunk.documentId,
    ownerId: chunk.ownerId,
    index: chunk.index,
    text: chunk.text,
    contextPrefix: chunk.contextPrefix,
    tokenCount: chunk.tokenCount,
    page: chunk.page,
    sheet: chunk.sheet,
    rowStart: chunk.rowStart,
    rowEnd: chunk.rowEnd,
    headingPath: chunk.headingPath,
    charStart: chunk.charStart,
    charEnd: chunk.charEnd,
    embeddingModel,
    language: languageOfChunk(chunk),
    // The analyser version the sparse vector was made with (qdrant-reanalyse.ts rebuilds other versions).
    analyzer: ANALYZER_VERSION,
    ...attributesPayload(chunk),
  };
}

/** The text the BM25 vector is built from: the contextual prefix (title, heading path) and the chunk text. */
export function indexedText(chunk: Pick<IndexedChunk, 'contextPrefix' | 'text'>): string {
  return chunk.contextPrefix ? `${chunk.contextPrefix}\n${chunk.text}` : chunk.text;
}

/**
 * A chunk as a point: deterministic id, payload, sparse `bm25` vector (omitted when the text has no indexable
 * term) and the `dense` vector when the chunk has one. A vector of the wrong size or with a non-finite value
 * is refused. The chunk's embedding-model label is stored as given (null without a vector): the collection is
 * chosen by the configured model, and the ingest layer decides what to re-embed when that model changes.
 */
export function chunkToPoint(
  chunk: IndexedChunk,
  options: { dimensions: number; bm25?: Bm25Params },
): Schemas['PointStruct'] {
  const vector: Record<string, Schemas['Vector']> = {};
  const sparse = documentSparseVector(indexedText(chunk), options.bm25 ?? DEFAULT_BM25_PARAMS, languageOfChunk(chunk));
  if (sparse.indices.length > 0) vector[SPARSE_VECTOR] = sparse;
  let model: string | null = null;
  if (chunk.vector !== null) {
    if (chunk.vector.length !== options.dimensions || !chunk.vector.every(Number.isFinite)) {
      throw new Error(
        `Chunk ${chunk.chunkId} has a ${chunk.vector.length}-dimension vector, the index expects ${options.dimensions} finite numbers`,
      );
    }
    vector[DENSE_VECTOR] = chunk.vector;
    model = chunk.embeddingModel;
  }
  return { id: chunkPointId(chunk.chunkId), vector, payload: chunkPayload(chunk, model) };
}

const nullableString = z.string().nullable().catch(null);
const nullableInt = z.number().int().nullable().catch(null);

const payloadSchema = z.object({
  chunkId: z.string(),
  documentId: z.string(),
  ownerId: z.string(),
  index: z.number().int(),
  text: z.string(),
  contextPrefix: z.string().catch(''),
  tokenCount: z.number().catch(0),
  page: nullableInt,
  sheet: nullableString,
  rowStart: nullableInt,
  rowEnd: nullableInt,
  headingPath: nullableString,
  charStart: z.number().int().catch(0),
  charEnd: z.number().int().catch(0),
  bucketId: nullableString,
  mime: z.string(),
  filename: z.string(),
  title: nullableString,
  documentDate: nullableString,
  tags: z.array(z.string()).catch([]),
  fields: z.record(z.string(), z.string()).catch({}),
  // Absent on points written before typed values were copied into the payload: no typed values.
  meta: z
    .record(
      z.string(),
      z.object({ num: z.number().optional(), bool: z.boolean().optional(), str: z.string().optional() }),
    )
    .catch({}),
  embeddingModel: nullableString,
  // Absent on points written before languages were detected (their sparse vectors are English).
  language: z.string().optional().catch(undefined),
});

export type ChunkPayload = z.infer<typeof payloadSchema>;

/** Validates a stored payload; null when it is not one of ours (a foreign or corrupt point is skipped). */
export function parseChunkPayload(payload: unknown): ChunkPayload | null {
  const parsed = payloadSchema.safeParse(payload);
  return parsed.success ? parsed.data : null;
}

function metaValuesOf(meta: ChunkPayload['meta']): Record<string, MetaValue> {
  const values: Record<string, MetaValue> = {};
  for (const [field, kinds] of Object.entries(meta)) {
    const value = kinds.num ?? kinds.bool ?? kinds.str;
    if (value !== undefined) values[field] = value;
  }
  return values;
}

const namedDenseSchema = z.object({ [DENSE_VECTOR]: z.array(z.number()).optional() });

/** A retrieved point (payload + optional named dense vector) back as an IndexedChunk, or null if unreadable. */
export function recordToChunk(record: Pick<Schemas['Record'], 'payload' | 'vector'>): IndexedChunk | null {
  const payload = parseChunkPayload(record.payload);
  if (!payload) return null;
  const vectors = namedDenseSchema.safeParse(record.vector ?? {});
  const dense = vectors.success ? (vectors.data[DENSE_VECTOR] ?? null) : null;
  return {
    chunkId: payload.chunkId,
    documentId: payload.documentId,
    ownerId: payload.ownerId,
    index: payload.index,
    text: payload.text,
    contextPrefix: payload.contextPrefix,
    tokenCount: payload.tokenCount,
    page: payload.page,
    sheet: payload.sheet,
    rowStart: payload.rowStart,
    rowEnd: payload.rowEnd,
    headingPath: payload.headingPath,
    charStart: payload.charStart,
    charEnd: payload.charEnd,
    bucketId: payload.bucketId,
    mime: payload.mime,
    filename: payload.filename,
    title: payload.title,
    documentDate: payload.documentDate === null ? null : payload.documentDate.slice(0, 10),
    tags: payload.tags,
    fields: payload.fields,
    meta: metaValuesOf(payload.meta),
    vector: dense,
    embeddingModel: dense ? payload.embeddingModel : null,
    ...(payload.language !== undefined ? { language: payload.language } : {}),
  };
}

/**
 * A stored payload as a search hit with the given score(s) (null when the payload is unreadable or belongs to
 * another owner).
 */
export function payloadToHit(
  rawPayload: unknown,
  score: number,
  scores: SearchHit['scores'],
  context: { ownerId: string; query: string; includeText: boolean },
): SearchHit | null {
  const payload = parseChunkPayload(rawPayload);
  if (!payload || payload.ownerId !== context.ownerId) return null;
  const hit: SearchHit = {
    chunkId: payload.chunkId,
    documentId: payload.documentId,
    index: payload.index,
    filename: payload.filename,
    title: payload.title,
    page: payload.page,
    sheet: payload.sheet,
    rowStart: payload.rowStart,
    rowEnd: payload.rowEnd,
    headingPath: payload.headingPath,
    charStart: payload.charStart,
    charEnd: payload.charEnd,
    snippet: makeSnippet(payload.text, context.query, undefined, payload.language),
    score,
    scores,
  };
  if (context.includeText) hit.text = payload.text;
  return hit;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_'’.,-]*/gu;

/**
 * A short excerpt (about `maxLength` characters) of `text` around the densest cluster of query terms
 * (compared after analysis, so "invoices" finds "invoice"); the start of the text when nothing matches.
 * Cut on word boundaries, with an ellipsis where text was dropped.
 */
export function makeSnippet(text: string, query: string, maxLength = 240, language?: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= maxLength) return flat;
  const wanted = new Set(analyzeQueryTerms(query, likelyQueryLanguages(query)).content);
  const hits: { at: number; terms: string[] }[] = [];
  if (wanted.size > 0) {
    for (const match of flat.matchAll(WORD)) {
      const terms = analyze(match[0], language).filter((t) => wanted.has(t));
      if (terms.length > 0) hits.push({ at: match.index, terms });
    }
  }
  let anchor = 0;
  let best = 0;
  for (let i = 0; i < hits.length; i++) {
    const start = hits[i]?.at ?? 0;
    const seen = new Set<string>();
    for (let j = i; j < hits.length && (hits[j]?.at ?? 0) < start + maxLength * 0.8; j++) {
      for (const term of hits[j]?.terms ?? []) seen.add(term);
    }
    if (seen.size > best) {
      best = seen.size;
      anchor = start;
    }
  }
  let start = Math.max(0, anchor - Math.floor(maxLength / 4));
  if (start > 0) {
    const space = flat.indexOf(' ', start);
    start = space === -1 || space >= anchor ? start : space + 1;
  }
  let end = Math.min(flat.length, start + maxLength);
  if (end < flat.length) {
    const space = flat.lastIndexOf(' ', end);
    if (space > start + maxLength / 2) end = space;
  }
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`;
}
