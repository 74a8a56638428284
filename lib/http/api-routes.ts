import { z } from 'zod';
import { createApiKeyBodySchema } from '@/lib/auth/api-keys';
import { agentApiBodySchema, chatBodySchema } from '@/lib/chat/request';
import type { ApiKeyScope } from '@/lib/db/api-keys';
import { bucketMetaSchemaSchema, manualValuesSchema, typedMetaSchema } from '@/lib/domain/typed-meta';
import type { ErrorType } from '@/lib/errors';
import {
  answerSchema,
  apiKeySchema,
  bucketNameBodySchema,
  bucketSchema,
  chunkSchema,
  conversationRenameBodySchema,
  conversationSchema,
  documentListQuerySchema,
  documentPatchBodySchema,
  documentSchema,
  mcpMessageBodySchema,
  searchQuerySchema,
  searchResultSchema,
  shareCreateBodySchema,
  sharePatchBodySchema,
  shareSchema,
} from '@/lib/http/api-schemas';
import {
  researchAnswersBodySchema,
  researchPlanBodySchema,
  researchRunSchema,
  researchStartBodySchema,
} from '@/lib/research/schema';

/**
 * The one registry of the HTTP API: every route file's method and path with who may call it, what it reads and
 * what it answers. Route files pass their entry to `withUser` (which enforces `scope`) and read their body with
 * `entry.body`; lib/http/openapi.ts builds /api/openapi.json from the same entries; lib/http/api-routes.test.ts
 * fails when a route file exports a method without an entry, an entry has no route, an authenticated route
 * file does not pass its own entry to withUser, or a route reads a body with another schema.
 *
 * scope: `read` / `write` = a session, or an API key with that scope; `session` = browser session only (keys
 * refused); `public` = no credentials (a route with its own rules).
 */
export type RouteScope = ApiKeyScope | 'session' | 'public';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiResponseSpec {
  status: number;
  description: string;
  /** JSON body schema; absent with `contentType` for streams and files, absent alone for an empty body. */
  schema?: z.ZodType;
  contentType?: string;
}

export interface ApiRoute {
  method: HttpMethod;
  /** OpenAPI style: `/api/documents/{id}` for the file app/api/documents/[id]/route.ts. */
  path: string;
  scope: RouteScope;
  tag: string;
  summary: string;
  description?: string;
  /** JSON request body, read with readJson. */
  body?: z.ZodType;
  /** An example body (the registry test parses it with `body`, so it is always valid). */
  example?: unknown;
  /** Non-JSON request body (e.g. the raw file of an upload). */
  rawBody?: { contentType: string; description: string };
  query?: z.ZodObject;
  headers?: { name: string; required: boolean; description: string }[];
  response: ApiResponseSpec;
  /** Error types this route answers with beyond 401/403/429 (which every authenticated route may). */
  errors: ErrorType[];
  /** Hidden from the reference page (still in the document): browser plumbing. */
  internal?: boolean;
}

const routes = {
  'POST /api/agent/run': {
    method: 'POST',
    path: '/api/agent/run',
    scope: 'read',
    tag: 'Ask',
    summary: 'Ask a question and get a cited answer',
    description:
      'Runs the agent over your indexed documents (search, open, cite, validate) and answers when it is done. ' +
      'With `conversationId` the question continues (and is saved to) that conversation. ' +
      '`mode: "research"` starts a research run instead and answers 201 `{run}` (see POST /api/research).',
    body: agentApiBodySchema,
    example: { question: 'On which day do we deploy?', mode: 'agent', style: 'concise', returnTrace: false },
    response: { status: 200, description: 'The validated answer with its citations', schema: answerSchema },
    errors: ['invalid_json', 'unprocessable', 'payload_too_large', 'unsupported_media_type', 'unavailable'],
  },
  'POST /api/agent/stream': {
    method: 'POST',
    path: '/api/agent/stream',
    scope: 'read',
    tag: 'Ask',
    summary: 'Ask a question and stream the trace and answer',
    description:
      'Server-Sent Events by default (`event: session | trace | token | complete | error`); with ' +
      '`Accept: application/x-ndjson`, one JSON object `{event, data}` per line. `complete` carries the same ' +
      'object as /api/agent/run; `error` carries `{code, message}`. `mode: "research"` starts a research run ' +
      'instead: one `research` event carries `{run}` (continue with /api/research/{id}).',
    body: agentApiBodySchema,
    example: { question: 'How do we roll back?', filters: { tags: ['runbook'] } },
    response: {
      status: 200,
      description: 'An event stream (SSE or NDJSON)',
      contentType: 'text/event-stream',
    },
    errors: ['invalid_json', 'unprocessable', 'payload_too_large', 'unsupported_media_type'],
  },
  'POST /api/research': {
    method: 'POST',
    path: '/api/research',
    scope: 'read',
    tag: 'Research',
    summary: 'Start a research run (clarifying questions, then an editable plan)',
    description:
      'Research mode: when the request is open the run asks up to three clarifying questions (status ' +
      '`clarifying`; answer or skip them with POST /api/research/{id}/answers), then proposes a plan of research ' +
      'tasks (status `awaiting_approval`; edit it with PUT /api/research/{id}/plan, run it with POST ' +
      '/api/research/{id}/approve). With `conversationId` the run shows in that conversation.',
    body: researchStartBodySchema,
    example: { question: 'What do our runbooks say about deployments?', style: 'detailed' },
    response: { status: 201, description: 'The run', schema: z.object({ run: researchRunSchema }) },
    errors: ['invalid_json', 'unprocessable', 'payload_too_large', 'unsupported_media_type', 'bad_request'],
  },
  'GET /api/research/{id}': {
    method: 'GET',
    path: '/api/research/{id}',
    scope: 'read',
    tag: 'Research',
    summary: 'One research run (its questions, plan, task progress and report)',
    description:
      'A run that was executing when its server stopped answers `awaiting_approval` with its finished tasks kept ' +
      'and a note; approving it again runs the remaining tasks.',
    response: { status: 200, description: 'The run', schema: z.object({ run: researchRunSchema }) },
    errors: ['not_found'],
  },
  'POST /api/research/{id}/answers': {
    method: 'POST',
    path: '/api/research/{id}/answers',
    scope: 'read',
    tag: 'Research',
    summary: 'Answer the clarifying questions (or skip them); the plan follows',
    description: 'Questions not answered count as skipped. `{"skip": true}` skips them all.',
    body: researchAnswersBodySchema,
    example: { answers: [{ id: 'q1', answer: 'rollback steps and owners' }] },
    response: { status: 200, description: 'The run, awaiting approval', schema: z.object({ run: researchRunSchema }) },
    errors: ['not_found', 'conflict', 'invalid_json', 'unprocessable', 'unsupported_media_type'],
  },
  'PUT /api/research/{id}/plan': {
    method: 'PUT',
    path: '/api/research/{id}/plan',
    scope: 'read',
    tag: 'Research',
    summary: 'Replace the plan: edit, reorder, delete or add tasks',
    description:
      'The tasks in their new order; keep an existing task by its `id`, leave the id out for a new one. ' +
      '`query` defaults to the title.',
    body: researchPlanBodySchema,
    example: {
      tasks: [{ id: 't2', title: 'Rollback', query: 'How do we roll back a deployment?' }, { title: 'Owners' }],
    },
    response: { status: 200, description: 'The run', schema: z.object({ run: researchRunSchema }) },
    errors: ['not_found', 'conflict', 'invalid_json', 'unprocessable', 'unsupported_media_type'],
  },
  'POST /api/research/{id}/approve': {
    method: 'POST',
    path: '/api/research/{id}/approve',
    scope: 'read',
    tag: 'Research',
    summary: 'Approve the plan and stream the run (tasks, quality check, report)',
    description:
      'Server-Sent Events by default (`event: research | error`), NDJSON with `Accept: application/x-ndjson` ' +
      '(`{event, data}` per line). `research` events carry `{type: status | task_start | task_event | task_done | ' +
      "quality | synthesis | report | run}`; each task's agent events arrive as `task_event` with its task id. " +
      'The run goes on if the stream is closed (follow it with GET /api/research/{id}); cancel it with POST ' +
      '/api/research/{id}/cancel.',
    response: { status: 200, description: 'An event stream (SSE or NDJSON)', contentType: 'text/event-stream' },
    errors: ['not_found', 'conflict', 'unprocessable'],
  },
  'POST /api/research/{id}/cancel': {
    method: 'POST',
    path: '/api/research/{id}/cancel',
    scope: 'read',
    tag: 'Research',
    summary: 'Cancel a research run at any step',
    response: {
      status: 200,
      description: 'The run (cancelled, or as it ended)',
      schema: z.object({ run: researchRunSchema }),
    },
    errors: ['not_found'],
  },
  'POST /api/chat': {
    method: 'POST',
    path: '/api/chat',
    scope: 'read',
    tag: 'Ask',
    summary: "The chat page's stream (AI SDK UI message stream)",
    description: 'For the web app; scripts should use /api/agent/run or /api/agent/stream.',
    body: chatBodySchema,
    response: { status: 200, description: 'AI SDK UI message stream (SSE)', contentType: 'text/event-stream' },
    errors: ['invalid_json', 'unprocessable', 'payload_too_large', 'unsupported_media_type'],
    internal: true,
  },
  'GET /api/search': {
    method: 'GET',
    path: '/api/search',
    scope: 'read',
    tag: 'Documents',
    summary: "Search your indexed documents (the agent's own search tools)",
    description:
      'Passages best first, each with its chunkId (open it with GET /api/chunks/{id}) and documentId. ' +
      'Semantic mode on a server without an embedding model answers 422 (use keyword or hybrid); a search that cannot run now (index down, the embedding model not answering) answers 503.',
    query: searchQuerySchema,
    response: {
      status: 200,
      description: 'The passages',
      schema: z.object({ results: z.array(searchResultSchema) }),
    },
    errors: ['unprocessable', 'unavailable'],
  },
  'GET /api/documents': {
    method: 'GET',
    path: '/api/documents',
    scope: 'read',
    tag: 'Documents',
    summary: 'List your documents',
    query: documentListQuerySchema,
    response: {
      status: 200,
      description: 'Your documents, newest first',
      schema: z.object({ documents: z.array(documentSchema) }),
    },
    errors: ['unprocessable'],
  },
  'POST /api/documents/upload': {
    method: 'POST',
    path: '/api/documents/upload',
    scope: 'write',
    tag: 'Documents',
    summary: 'Upload a file',
    description:
      'The body is the raw file. The type is sniffed from the content; the same content uploaded again answers ' +
      '200 with `duplicate: true`. Poll GET /api/documents/{id} until `status` is INDEXED or FAILED.',
    rawBody: { contentType: 'application/octet-stream', description: 'The file itself' },
    headers: [
      { name: 'x-file-name', required: true, description: 'The file name, URI-encoded' },
      { name: 'x-bucket-id', required: false, description: 'Put the document in this bucket' },
    ],
    response: {
      status: 201,
      description: 'Queued for indexing (200 when it is a duplicate)',
      schema: z.object({ document: documentSchema, duplicate: z.boolean() }),
    },
    errors: ['bad_request', 'unprocessable', 'payload_too_large', 'unsupported_media_type', 'not_found'],
  },
  'GET /api/documents/{id}': {
    method: 'GET',
    path: '/api/documents/{id}',
    scope: 'read',
    tag: 'Documents',
    summary: 'One document (poll its status)',
    response: { status: 200, description: 'The document', schema: z.object({ document: documentSchema }) },
    errors: ['not_found'],
  },
  'PATCH /api/documents/{id}': {
    method: 'PATCH',
    path: '/api/documents/{id}',
    scope: 'write',
    tag: 'Documents',
    summary: 'Move a document or edit its metadata',
    body: documentPatchBodySchema,
    example: {
      bucketId: null,
      metadata: {
        title: 'Release runbook',
        documentDate: '2026-11-01',
        tags: ['runbook'],
        fields: { team: 'platform' },
      },
    },
    response: { status: 200, description: 'The document', schema: z.object({ document: documentSchema }) },
    errors: ['not_found', 'invalid_json', 'unprocessable', 'unsupported_media_type'],
  },
  'DELETE /api/documents/{id}': {
    method: 'DELETE',
    path: '/api/documents/{id}',
    scope: 'write',
    tag: 'Documents',
    summary: 'Delete a document, its file and its index entries',
    response: { status: 204, description: 'Deleted' },
    errors: ['not_found'],
  },
  'GET /api/documents/{id}/file': {
    method: 'GET',
    path: '/api/documents/{id}/file',
    scope: 'read',
    tag: 'Documents',
    summary: 'Download the original file',
    response: {
      status: 200,
      description: 'The file (PDF inline, others as a download)',
      contentType: 'application/octet-stream',
    },
    errors: ['not_found'],
  },
  'POST /api/documents/{id}/cancel': {
    method: 'POST',
    path: '/api/documents/{id}/cancel',
    scope: 'write',
    tag: 'Documents',
    summary: 'Cancel a queued or running ingestion',
    response: { status: 200, description: 'The document', schema: z.object({ document: documentSchema }) },
    errors: ['not_found', 'conflict'],
  },
  'POST /api/documents/{id}/reindex': {
    method: 'POST',
    path: '/api/documents/{id}/reindex',
    scope: 'write',
    tag: 'Documents',
    summary: 'Index a document again (also retries a failed one)',
    response: { status: 200, description: 'The document, queued', schema: z.object({ document: documentSchema }) },
    errors: ['not_found', 'conflict'],
  },
  'GET /api/chunks/{id}': {
    method: 'GET',
    path: '/api/chunks/{id}',
    scope: 'read',
    tag: 'Documents',
    summary: 'Open a cited passage with its page or section',
    response: { status: 200, description: 'The passage', schema: z.object({ chunk: chunkSchema }) },
    errors: ['not_found'],
  },
  'GET /api/buckets': {
    method: 'GET',
    path: '/api/buckets',
    scope: 'read',
    tag: 'Buckets',
    summary: 'List your buckets',
    response: { status: 200, description: 'Your buckets', schema: z.object({ buckets: z.array(bucketSchema) }) },
    errors: [],
  },
  'POST /api/buckets': {
    method: 'POST',
    path: '/api/buckets',
    scope: 'write',
    tag: 'Buckets',
    summary: 'Create a bucket',
    body: bucketNameBodySchema,
    example: { name: 'Runbooks' },
    response: { status: 201, description: 'The bucket', schema: z.object({ bucket: bucketSchema }) },
    errors: ['invalid_json', 'unprocessable', 'conflict', 'unsupported_media_type'],
  },
  'PATCH /api/buckets/{id}': {
    method: 'PATCH',
    path: '/api/buckets/{id}',
    scope: 'write',
    tag: 'Buckets',
    summary: 'Rename a bucket',
    body: bucketNameBodySchema,
    example: { name: 'Operations runbooks' },
    response: { status: 200, description: 'The bucket', schema: z.object({ bucket: bucketSchema }) },
    errors: ['not_found', 'invalid_json', 'unprocessable', 'conflict', 'unsupported_media_type'],
  },
  'DELETE /api/buckets/{id}': {
    method: 'DELETE',
    path: '/api/buckets/{id}',
    scope: 'write',
    tag: 'Buckets',
    summary: 'Delete a bucket (its documents stay, unbucketed)',
    response: { status: 204, description: 'Deleted' },
    errors: ['not_found'],
  },
  'GET /api/buckets/{id}/schema': {
    method: 'GET',
    path: '/api/buckets/{id}/schema',
    scope: 'read',
    tag: 'Buckets',
    summary: "A bucket's typed metadata fields",
    response: {
      status: 200,
      description: 'The fields the bucket declares (none: an empty list)',
      schema: z.object({ schema: bucketMetaSchemaSchema }),
    },
    errors: ['not_found'],
  },
  'PATCH /api/buckets/{id}/schema': {
    method: 'PATCH',
    path: '/api/buckets/{id}/schema',
    scope: 'write',
    tag: 'Buckets',
    summary: "Replace a bucket's typed metadata fields",
    description:
      "Declares the bucket's typed fields (string, number, date, enum, boolean; required or not) and re-reads " +
      'values from its indexed documents (hand-set values are kept).',
    body: bucketMetaSchemaSchema,
    example: {
      fields: [
        { name: 'total_amount', type: 'number', required: true },
        { name: 'issued', type: 'date', required: true, label: 'Issued' },
      ],
    },
    response: {
      status: 200,
      description: 'The stored fields and how many documents were given values',
      schema: z.object({ schema: bucketMetaSchemaSchema, extracted: z.number() }),
    },
    errors: ['not_found', 'invalid_json', 'unprocessable', 'unsupported_media_type'],
  },
  'GET /api/documents/{id}/typed-metadata': {
    method: 'GET',
    path: '/api/documents/{id}/typed-metadata',
    scope: 'read',
    tag: 'Documents',
    summary: "A document's typed values with their evidence",
    response: { status: 200, description: 'Typed values, evidence and the bucket schema', schema: z.looseObject({}) },
    errors: ['not_found'],
  },
  'GET /api/documents/{id}/sections': {
    method: 'GET',
    path: '/api/documents/{id}/sections',
    scope: 'read',
    tag: 'Documents',
    summary: "A long document's sections with their summaries",
    description:
      'The sections the summary → segment route searches (search_sections): heading path or page range, chunk ' +
      'range and summary, written by LLM_SUMMARY_MODEL when configured (source "model"), else extractive. Empty ' +
      'for a short document.',
    response: {
      status: 200,
      description: 'Sections in document order',
      schema: z.object({
        sections: z.array(
          z.object({
            ordinal: z.number(),
            label: z.string(),
            chunkStart: z.number(),
            chunkEnd: z.number(),
            pageStart: z.number().nullable(),
            pageEnd: z.number().nullable(),
            summary: z.string(),
            source: z.enum(['model', 'extractive']),
          }),
        ),
      }),
    },
    errors: ['not_found'],
  },
  'GET /api/documents/{id}/visual-pages': {
    method: 'GET',
    path: '/api/documents/{id}/visual-pages',
    scope: 'read',
    tag: 'Documents',
    summary: 'PDF pages flagged at ingest as pictures',
    description:
      'Pages with figures or charts (raster images or many vector paths) or little text: where the ' +
      'visual_interpretation tool (LLM_VISION_MODEL) is worth calling.',
    response: {
      status: 200,
      description: 'Flagged pages in page order',
      schema: z.object({
        pages: z.array(
          z.object({ page: z.number(), imageCount: z.number(), textChars: z.number(), reason: z.string() }),
        ),
      }),
    },
    errors: ['not_found'],
  },
  'PATCH /api/documents/{id}/typed-metadata': {
    method: 'PATCH',
    path: '/api/documents/{id}/typed-metadata',
    scope: 'write',
    tag: 'Documents',
    summary: "Set a document's typed values by hand",
    description: 'Values are checked against the bucket schema (422 names each bad field); null clears a value.',
    body: manualValuesSchema,
    example: { values: { total_amount: 1500, issued: '2023-03-02' } },
    response: { status: 200, description: 'The stored typed values', schema: z.object({ meta: typedMetaSchema }) },
    errors: ['not_found', 'invalid_json', 'unprocessable', 'unsupported_media_type'],
  },
  'GET /api/conversations': {
    method: 'GET',
    path: '/api/conversations',
    scope: 'read',
    tag: 'Conversations',
    summary: 'List your conversations',
    response: {
      status: 200,
      description: 'Newest first',
      schema: z.object({ conversations: z.array(conversationSchema) }),
    },
    errors: [],
  },
  'GET /api/conversations/{id}': {
    method: 'GET',
    path: '/api/conversations/{id}',
    scope: 'read',
    tag: 'Conversations',
    summary: 'One conversation with its messages',
    response: {
      status: 200,
      description: 'The conversation and its messages (AI SDK UI messages)',
      schema: z.object({
        conversation: conversationSchema,
        messages: z.array(
          z.object({ id: z.string(), role: z.enum(['user', 'assistant']), parts: z.array(z.unknown()) }).loose(),
        ),
      }),
    },
    errors: ['not_found'],
  },
  'PATCH /api/conversations/{id}': {
    method: 'PATCH',
    path: '/api/conversations/{id}',
    scope: 'write',
    tag: 'Conversations',
    summary: 'Rename a conversation',
    body: conversationRenameBodySchema,
    example: { title: 'Deploy questions' },
    response: { status: 200, description: 'The conversation', schema: z.object({ conversation: conversationSchema }) },
    errors: ['not_found', 'invalid_json', 'unprocessable', 'unsupported_media_type'],
  },
  'DELETE /api/conversations/{id}': {
    method: 'DELETE',
    path: '/api/conversations/{id}',
    scope: 'write',
    tag: 'Conversations',
    summary: 'Delete a conversation with its answers (and their shares)',
    response: { status: 204, description: 'Deleted' },
    errors: ['not_found'],
  },
  'GET /api/shares': {
    method: 'GET',
    path: '/api/shares',
    scope: 'read',
    tag: 'Shares',
    summary: 'List your shared links',
    response: { status: 200, description: 'Your links', schema: z.object({ shares: z.array(shareSchema) }) },
    errors: [],
  },
  'POST /api/shares': {
    method: 'POST',
    path: '/api/shares',
    scope: 'write',
    tag: 'Shares',
    summary: 'Share an answer as a public read-only link',
    description: 'Sharing the same answer again returns its active link.',
    body: shareCreateBodySchema,
    example: { answerId: '0b7f6c3e-2f1d-4c8a-9e55-3d2a1b0c9f8e', expiresInDays: 7 },
    response: { status: 201, description: 'The link', schema: z.object({ share: shareSchema }) },
    errors: ['not_found', 'conflict', 'invalid_json', 'unprocessable', 'unsupported_media_type'],
  },
  'PATCH /api/shares/{id}': {
    method: 'PATCH',
    path: '/api/shares/{id}',
    scope: 'write',
    tag: 'Shares',
    summary: "Set or clear a link's expiry",
    body: sharePatchBodySchema,
    example: { expiresAt: '2026-12-31T23:59:59Z' },
    response: { status: 200, description: 'The link', schema: z.object({ share: shareSchema }) },
    errors: ['not_found', 'invalid_json', 'unprocessable', 'unsupported_media_type'],
  },
  'DELETE /api/shares/{id}': {
    method: 'DELETE',
    path: '/api/shares/{id}',
    scope: 'write',
    tag: 'Shares',
    summary: 'Revoke a link (it then answers 404)',
    response: { status: 200, description: 'The revoked link', schema: z.object({ share: shareSchema }) },
    errors: ['not_found'],
  },
  'GET /api/api-keys': {
    method: 'GET',
    path: '/api/api-keys',
    scope: 'session',
    tag: 'API keys',
    summary: 'List your API keys (signed-in session only)',
    response: {
      status: 200,
      description: 'Your keys, newest first',
      schema: z.object({ apiKeys: z.array(apiKeySchema) }),
    },
    errors: [],
  },
  'POST /api/api-keys': {
    method: 'POST',
    path: '/api/api-keys',
    scope: 'session',
    tag: 'API keys',
    summary: 'Create an API key (signed-in session only; the key is shown once)',
    body: createApiKeyBodySchema,
    example: { name: 'nightly CI', scopes: ['read'], expiresInDays: 90 },
    response: {
      status: 201,
      description: 'The key (only now) and its stored summary',
      schema: z.object({
        key: z.string().describe('dc_… – store it now; it cannot be shown again'),
        apiKey: apiKeySchema,
      }),
    },
    errors: ['invalid_json', 'unprocessable', 'conflict', 'unsupported_media_type'],
  },
  'DELETE /api/api-keys/{id}': {
    method: 'DELETE',
    path: '/api/api-keys/{id}',
    scope: 'session',
    tag: 'API keys',
    summary: 'Revoke an API key (it then answers like a missing one)',
    response: { status: 200, description: 'The revoked key', schema: z.object({ apiKey: apiKeySchema }) },
    errors: ['not_found'],
  },
  'POST /api/mcp': {
    method: 'POST',
    path: '/api/mcp',
    scope: 'read',
    tag: 'MCP',
    summary: 'Model Context Protocol (Streamable HTTP, stateless)',
    description:
      'JSON-RPC 2.0 MCP messages. Tools: search_docs, search_text, search_semantic, open_citation, ' +
      'get_document_metadata, ask. Authenticate with `Authorization: Bearer <key>` (read scope).',
    body: mcpMessageBodySchema,
    example: {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'search_docs', arguments: { query: 'deploy day' } },
    },
    response: {
      status: 200,
      description: 'JSON-RPC response (202 for notifications)',
      contentType: 'application/json',
    },
    errors: ['bad_request'],
  },
  'GET /api/mcp': {
    method: 'GET',
    path: '/api/mcp',
    scope: 'read',
    tag: 'MCP',
    summary: 'MCP server-to-client stream (not offered: the server is stateless; answers 405)',
    response: { status: 405, description: 'Method not allowed' },
    errors: [],
  },
  'DELETE /api/mcp': {
    method: 'DELETE',
    path: '/api/mcp',
    scope: 'read',
    tag: 'MCP',
    summary: 'MCP session end (not needed: the server is stateless; answers 405)',
    response: { status: 405, description: 'Method not allowed' },
    errors: [],
  },
  'GET /api/openapi.json': {
    method: 'GET',
    path: '/api/openapi.json',
    scope: 'public',
    tag: 'Meta',
    summary: 'This OpenAPI 3.1 document',
    response: { status: 200, description: 'The document', contentType: 'application/json' },
    errors: [],
  },
  'GET /api/health': {
    method: 'GET',
    path: '/api/health',
    scope: 'public',
    tag: 'Meta',
    summary: 'Reachability of the database, index and models',
    response: {
      status: 200,
      description: 'The report (503 when the database is down)',
      contentType: 'application/json',
    },
    errors: ['unavailable'],
  },
  'GET /api/auth/{path}': {
    method: 'GET',
    path: '/api/auth/{path}',
    scope: 'public',
    tag: 'Auth',
    summary: 'Better Auth (session, sign-out…): for the web app',
    response: { status: 200, description: 'Better Auth response', contentType: 'application/json' },
    errors: [],
    internal: true,
  },
  'POST /api/auth/{path}': {
    method: 'POST',
    path: '/api/auth/{path}',
    scope: 'public',
    tag: 'Auth',
    summary: 'Better Auth (sign-up, sign-in…): for the web app',
    response: { status: 200, description: 'Better Auth response', contentType: 'application/json' },
    errors: ['rate_limited'],
    internal: true,
  },
} as const satisfies Record<string, ApiRoute>;

export type ApiRouteKey = keyof typeof routes;
export const apiRoutes: { readonly [K in ApiRouteKey]: (typeof routes)[K] & ApiRoute } = routes;

/** The registry key of a route file's method: `app/api/documents/[id]/route.ts` + GET → `GET /api/documents/{id}`. */
export function routeKeyOf(method: string, routeFile: string): string {
  const dir = routeFile.replace(/^app/, '').replace(/\/route\.ts$/, '');
  const path = dir
    .split('/')
    .map((seg) => seg.replace(/^\[\.\.\.(\w+)\]$/, '{path}').replace(/^\[(\w+)\]$/, '{$1}'))
    .join('/');
  return `${method} ${path}`;
}
