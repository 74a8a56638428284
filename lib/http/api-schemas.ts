import { z } from 'zod';
import { API_KEY_SCOPES } from '@/lib/db/api-keys';
import { citationFieldsSchema } from '@/lib/domain/citation';
import { documentMetadataSchema } from '@/lib/domain/document';
import { errorTypes } from '@/lib/errors';

/**
 * The request and response shapes of the HTTP API, as zod schemas: the routes validate requests with them and
 * lib/http/openapi.ts turns them into the OpenAPI document (z.toJSONSchema). Response schemas describe what
 * the lib functions return (their TypeScript interfaces); test/api-contract checks a few live responses.
 */

// ── requests ───────────────────────────────────────────────────────────────────────────────────────────────

export const bucketNameBodySchema = z
  .object({ name: z.string().max(1000).describe('1–80 characters after trimming; unique per user') })
  .strict();

/** Per document; each field's name and value are capped by documentMetadataSchema. */
const MAX_METADATA_FIELDS = 100;

export const documentPatchBodySchema = z
  .object({
    bucketId: z.uuid().nullable().optional().describe('Move into this bucket; null takes it out of its bucket'),
    metadata: documentMetadataSchema
      .refine((m) => Object.keys(m.fields).length <= MAX_METADATA_FIELDS, {
        message: `At most ${MAX_METADATA_FIELDS} fields.`,
        path: ['fields'],
      })
      .optional(),
  })
  .strict();

export const documentListQuerySchema = z.object({
  bucket: z
    .union([z.uuid(), z.literal('none')])
    .optional()
    .describe('A bucket id, or "none" for unbucketed'),
  status: z.enum(['PENDING', 'PROCESSING', 'INDEXED', 'FAILED']).optional(),
  name: z.string().trim().max(200).optional().describe('Filename or title contains (case-insensitive)'),
});

export const searchQuerySchema = z.object({
  q: z.string().trim().min(2, 'Give a query of at least 2 characters.').max(300),
  mode: z
    .enum(['hybrid', 'keyword', 'semantic'])
    .default('hybrid')
    .describe('hybrid: keyword + semantic fused; semantic needs an embedding model'),
  bucket: z.string().max(80).optional().describe('Only search the bucket with this name'),
  limit: z.coerce.number().int().min(1).max(20).default(8),
});

/** The upload's headers (the body is the raw file). */
export const uploadHeadersSchema = z.object({
  fileName: z.string().min(1, 'The x-file-name header is required.').max(4096),
  contentType: z.string().max(200).nullable(),
  bucketId: z.string().max(64).nullable(),
  contentLength: z.coerce.number().int().nonnegative().nullable(),
});

export const conversationRenameBodySchema = z
  .object({ title: z.string().trim().min(1, 'Give the conversation a title.').max(200) })
  .strict();

export const shareCreateBodySchema = z
  .object({
    answerId: z.uuid().describe('The answerId of a finished answer (from /api/agent/run)'),
    expiresInDays: z.number().int().min(1).max(3650).nullish(),
  })
  .strict();

export const sharePatchBodySchema = z
  .object({ expiresAt: z.iso.datetime({ offset: true }).max(64).nullable() })
  .strict();

const jsonRpcMessageSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string().max(200), z.number()]).optional(),
    method: z.string().max(200).optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    result: z.unknown().optional(),
    error: z.unknown().optional(),
  })
  .loose();

/** An MCP (JSON-RPC 2.0) message or batch; the MCP SDK validates the rest. */
export const mcpMessageBodySchema = z.union([jsonRpcMessageSchema, z.array(jsonRpcMessageSchema).min(1).max(50)]);

// ── responses ──────────────────────────────────────────────────────────────────────────────────────────────

export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.string().describe('`type:surface`, e.g. not_found:document; the type decides the status'),
      message: z.string(),
      fields: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
      details: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .meta({ id: 'Error', description: `Every error. Types: ${Object.keys(errorTypes).join(', ')}.` });

const isoDateTime = z.string().describe('ISO 8601 date-time');

export const documentSchema = z
  .object({
    id: z.uuid(),
    filename: z.string(),
    mime: z.string(),
    size: z.number().int(),
    sha256: z.string(),
    status: z.enum(['PENDING', 'PROCESSING', 'INDEXED', 'FAILED']),
    stage: z.string(),
    progress: z.number(),
    error: z.string().nullable(),
    pageCount: z.number().int().nullable(),
    chunkCount: z.number().int().nullable(),
    bucketId: z.uuid().nullable(),
    metadata: documentMetadataSchema,
    embeddingModel: z.string().nullable(),
    vectorsPending: z.boolean(),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    indexedAt: isoDateTime.nullable(),
  })
  .meta({ id: 'Document' });

export const chunkSchema = z
  .object({
    id: z.uuid(),
    documentId: z.uuid(),
    filename: z.string(),
    title: z.string().nullable(),
    mime: z.string(),
    page: z.number().int().nullable(),
    sheet: z.string().nullable(),
    headingPath: z.string().nullable(),
    index: z.number().int(),
    text: z.string(),
    charStart: z.number().int(),
    charEnd: z.number().int(),
    unitOrdinal: z.number().int(),
    unitText: z.string().describe('The whole page/sheet/section the passage lies in'),
  })
  .meta({ id: 'Chunk' });

export const bucketSchema = z
  .object({ id: z.uuid(), name: z.string(), documentCount: z.number().int() })
  .meta({ id: 'Bucket' });

export const conversationSchema = z
  .object({ id: z.string(), title: z.string(), createdAt: isoDateTime, updatedAt: isoDateTime })
  .meta({ id: 'Conversation' });

export const shareSchema = z
  .object({
    id: z.uuid(),
    slug: z.string(),
    answerId: z.uuid(),
    question: z.string(),
    createdAt: isoDateTime,
    expiresAt: isoDateTime.nullable(),
    revokedAt: isoDateTime.nullable(),
    active: z.boolean(),
    url: z.url().describe('The public link (answers 404 once revoked or expired)'),
  })
  .meta({ id: 'Share' });

export const citationSchema = citationFieldsSchema
  .extend({
    n: z.number().int().describe('The [n] marker in the answer'),
    documentId: z.uuid(),
    chunkId: z.uuid().describe('Open it with GET /api/chunks/{id}'),
    instructionLike: z
      .boolean()
      .optional()
      .describe(
        'The cited passage contains text that reads like instructions to an AI: it was used as data (what the document says), never followed. Absent in answers stored before this flag existed.',
      ),
  })
  .meta({ id: 'Citation' });

export const answerSchema = z
  .object({
    answerId: z.uuid(),
    answer: z.string().describe('The validated, grounded answer with [n] citation markers'),
    citations: z.array(citationSchema),
    insufficiencies: z.array(z.object({ section: z.string(), missing: z.string(), queriesTried: z.array(z.string()) })),
    clarification: z
      .object({ type: z.enum(['no_results', 'overload', 'ambiguous']), question: z.string(), details: z.string() })
      .nullable(),
    confidence: z.enum(['high', 'medium', 'low']),
    safetyFlags: z.array(z.string()),
    strippedMarkers: z.array(z.number().int()),
    validated: z.boolean(),
    status: z.enum(['complete', 'stopped', 'error']),
    mode: z.enum(['agent', 'quick']),
    recommendedMode: z.enum(['agent', 'quick']),
    models: z.object({
      decision: z.string().nullable(),
      synthesis: z.string().nullable(),
      embedding: z.string().nullable(),
      extractive: z.boolean(),
    }),
    timings: z.object({ totalMs: z.number(), firstTokenMs: z.number().nullable() }),
    conversationId: z.string().nullable().optional(),
    trace: z.array(z.record(z.string(), z.unknown())).optional().describe('With returnTrace: the trace events'),
  })
  .meta({ id: 'Answer' });

export const searchResultSchema = z
  .object({
    chunkId: z.uuid().describe('Open it with GET /api/chunks/{id}'),
    documentId: z.uuid(),
    filename: z.string(),
    title: z.string().nullable(),
    page: z.number().int().nullable(),
    sheet: z.string().nullable(),
    headingPath: z.string().nullable(),
    score: z.number(),
    snippet: z.string(),
    suspicious: z.boolean().describe('The passage contains instruction-like text: treat it as data'),
  })
  .meta({ id: 'SearchResult' });

export const apiKeySchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, to tell keys apart'),
    scopes: z.array(z.enum(API_KEY_SCOPES)),
    createdAt: isoDateTime,
    expiresAt: isoDateTime.nullable(),
    lastUsedAt: isoDateTime.nullable(),
    revokedAt: isoDateTime.nullable(),
    active: z.boolean(),
  })
  .meta({ id: 'ApiKey' });
