import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '@/lib/agent/run-agent';
import type { AgentDeps } from '@/lib/agent/types';
import { createApiKey } from '@/lib/auth/api-keys';
import { withUser } from '@/lib/auth/with-user';
import { runAnswer } from '@/lib/chat/answer-run';
import { answerRunInputOf } from '@/lib/chat/run-for-user';
import { revokeApiKey } from '@/lib/db/api-keys';
import { ensureDbReady } from '@/lib/db/lifecycle';
import { apiRoutes } from '@/lib/http/api-routes';
import { readJson } from '@/lib/http/read-json';
import { handleMcpRequest, MCP_TOOL_NAMES, type McpDeps } from '@/lib/mcp/server';
import { createTestUser } from '@/test/factories';
import { makeChunk, makeDocument, NO_MODELS } from '@/test/support/agent/fixtures';
import { createMemoryCatalog } from '@/test/support/agent/memory-catalog';
import { createMemoryChunkIndex } from '@/test/support/agent/memory-chunk-index';

/**
 * Issue 19, the MCP server through the SDK's own client: keys resolve to their owner through withUser, the tools
 * search/open/describe only that owner's documents, `ask` runs the validated agent, and user B's key never sees
 * A's documents (A's ids answer exactly like ids that do not exist). The composition below is the route's
 * (app/api/mcp/route.ts) with the agent's dependencies in memory instead of the configured index and models.
 */

const BASE = 'http://localhost:3000';
let agentDeps: AgentDeps;
const users: Record<'a' | 'b', { id: string; key: string; keyId: string }> = {
  a: { id: '', key: '', keyId: '' },
  b: { id: '', key: '', keyId: '' },
};
const ids = { aDoc: '', aChunk: '', bDoc: '', bChunk: '' };
const clients: Client[] = [];

const mcpDeps = (ownerId: string): McpDeps => ({
  agentDeps: async () => agentDeps,
  ask: async (body, signal) =>
    (await runAnswer(answerRunInputOf({ kind: 'agent', value: body }, { ownerId, signal }), { agentDeps, runAgent }))
      .chatResult,
});

const post = withUser(apiRoutes['POST /api/mcp'], async (request, { user }) =>
  handleMcpRequest(
    request,
    { ownerId: user.id, parsedBody: await readJson(request, apiRoutes['POST /api/mcp'].body) },
    mcpDeps(user.id),
  ),
);
const notAllowed = () => Promise.resolve(new Response(null, { status: 405, headers: { allow: 'POST' } }));

/** The in-process server: the SDK client's fetch goes straight to the handler. */
async function serve(url: string | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(url, init);
  if (request.method !== 'POST') return notAllowed();
  return post(request, { params: Promise.resolve({}) });
}

async function connect(key: string): Promise<Client> {
  const client = new Client({ name: 'docuchat-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/api/mcp`), {
    fetch: serve,
    requestInit: { headers: { authorization: `Bearer ${key}` } },
  });
  await client.connect(transport);
  clients.push(client);
  return client;
}

interface ToolReply {
  isError?: boolean;
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
}
const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as unknown as ToolReply;
const textOf = (r: ToolReply) => r.content.map((c) => c.text ?? '').join('\n');

beforeAll(async () => {
  await ensureDbReady();
  for (const label of ['a', 'b'] as const) {
    const user = await createTestUser(`mcp-${label}`);
    const { key, apiKey } = await createApiKey({
      ownerId: user.id,
      body: { name: `mcp ${label}`, scopes: ['read'], expiresInDays: null },
    });
    users[label] = { id: user.id, key, keyId: apiKey.id };
  }
  const aDoc = makeDocument({ filename: 'vault-alpha.md', ownerId: users.a.id, documentId: randomUUID() });
  const bDoc = makeDocument({ filename: 'garden-beta.md', ownerId: users.b.id, documentId: randomUUID() });
  const aChunk = makeChunk(
    aDoc,
    0,
    'Vault procedures. The vault combination zebracode is 4815-1623 and is rotated every ninety days.',
    { chunkId: randomUUID() },
  );
  const bChunk = makeChunk(bDoc, 0, 'Garden notes. The vault of the greenhouse is watered on Tuesdays.', {
    chunkId: randomUUID(),
  });
  const index = createMemoryChunkIndex();
  await index.upsert([aChunk, bChunk]);
  agentDeps = { index, catalog: createMemoryCatalog([aDoc, bDoc]), embedder: null, models: NO_MODELS };
  Object.assign(ids, { aDoc: aDoc.documentId, aChunk: aChunk.chunkId, bDoc: bDoc.documentId, bChunk: bChunk.chunkId });
});

afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
});

describe('the MCP server', () => {
  it("lists the agent's tools", async () => {
    const client = await connect(users.a.key);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...MCP_TOOL_NAMES].sort());
  });

  it("searches, opens and describes the key owner's documents", async () => {
    const client = await connect(users.a.key);
    const found = await call(client, 'search_text', { query: 'vault combination zebracode' });
    expect(found.isError).toBeFalsy();
    const results = (found.structuredContent?.result ?? []) as { chunkId: string; documentId: string }[];
    expect(results.map((r) => r.chunkId)).toEqual([ids.aChunk]);
    const opened = await call(client, 'open_citation', { chunkId: ids.aChunk });
    expect(textOf(opened)).toContain('4815-1623');
    const meta = await call(client, 'get_document_metadata', { documentId: ids.aDoc });
    expect(textOf(meta)).toContain('vault-alpha.md');
    for (const tool of ['search_docs'] as const) {
      const r = await call(client, tool, { query: 'vault combination' });
      expect(JSON.stringify(r.structuredContent)).toContain(ids.aChunk);
      expect(JSON.stringify(r.structuredContent)).not.toContain(ids.bChunk);
    }
  });

  it('asks the validated agent and returns the answer with citations', async () => {
    const client = await connect(users.a.key);
    const r = await call(client, 'ask', { question: 'What is the vault combination zebracode?' });
    expect(r.isError).toBeFalsy();
    const citations = (r.structuredContent?.citations ?? []) as { chunkId: string }[];
    expect(citations.map((c) => c.chunkId)).toContain(ids.aChunk);
    expect(textOf(r)).toContain('4815-1623');
    expect(textOf(r)).toMatch(/\[1\]/);
  });

  it('asks within the filters it is given, like POST /api/agent/run', async () => {
    const client = await connect(users.a.key);
    const question = 'What is the vault combination zebracode?';
    const within = await call(client, 'ask', { question, filters: { documentIds: [ids.aDoc] } });
    expect(((within.structuredContent?.citations ?? []) as { chunkId: string }[]).map((c) => c.chunkId)).toContain(
      ids.aChunk,
    );
    const elsewhere = await call(client, 'ask', { question, filters: { documentIds: [randomUUID()] } });
    expect(elsewhere.isError).toBeFalsy();
    expect(elsewhere.structuredContent?.citations).toEqual([]);
    expect(textOf(elsewhere)).not.toContain('4815-1623');
    const badField = await call(client, 'ask', {
      question,
      filters: { meta: [{ field: 'no_such_field', op: '>', value: 3 }] },
    });
    expect(textOf(badField)).toMatch(/filter is not valid/i);
    expect(badField.structuredContent?.citations ?? []).toEqual([]);
    const malformed = await call(client, 'ask', { question, filters: { documentIds: ['not-a-uuid'] } });
    expect(malformed.isError).toBe(true);
    expect(textOf(malformed)).not.toContain('4815-1623');
  });

  it("never shows A's documents to B's key; A's ids answer exactly like missing ones", async () => {
    const client = await connect(users.b.key);
    for (const tool of ['search_docs', 'search_text'] as const) {
      const r = await call(client, tool, { query: 'vault combination zebracode 4815' });
      expect(JSON.stringify(r)).not.toContain(ids.aChunk);
      expect(JSON.stringify(r)).not.toContain('4815');
    }
    const openA = await call(client, 'open_citation', { chunkId: ids.aChunk });
    const openMissing = await call(client, 'open_citation', { chunkId: randomUUID() });
    expect(openA).toEqual(openMissing);
    expect(openA.isError).toBe(true);
    const metaA = await call(client, 'get_document_metadata', { documentId: ids.aDoc });
    const metaMissing = await call(client, 'get_document_metadata', { documentId: randomUUID() });
    expect(metaA).toEqual(metaMissing);
    const ask = await call(client, 'ask', { question: 'What is the vault combination zebracode? Quote 4815.' });
    expect(JSON.stringify(ask.structuredContent?.citations ?? [])).not.toContain(ids.aChunk);
    expect(JSON.stringify(ask)).not.toContain('4815-1623');
    // and B's own document is there for B
    const own = await call(client, 'open_citation', { chunkId: ids.bChunk });
    expect(textOf(own)).toContain('greenhouse');
  });

  it('refuses a missing, unknown or revoked key with the same 401', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    const send = (authorization?: string) =>
      serve(`${BASE}/api/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body,
      });
    const none = await send();
    const unknown = await send(`Bearer dc_${'x'.repeat(43)}`);
    const garbage = await send('Bearer not-a-key');
    const { key, apiKey } = await createApiKey({
      ownerId: users.a.id,
      body: { name: 'to revoke', scopes: ['read'], expiresInDays: null },
    });
    expect((await send(`Bearer ${key}`)).status).toBe(200);
    await revokeApiKey({ ownerId: users.a.id, id: apiKey.id });
    const revoked = await send(`Bearer ${key}`);
    const bodies = await Promise.all([none, unknown, garbage, revoked].map(async (r) => [r.status, await r.text()]));
    for (const b of bodies) expect(b).toEqual(bodies[0]);
    expect(bodies[0]?.[0]).toBe(401);
  });

  it('answers a bare tools/call without a session (stateless, as the README curl sends it)', async () => {
    const response = await serve(`${BASE}/api/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${users.a.key}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'search_text', arguments: { query: 'zebracode' } },
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { id: number; result: ToolReply };
    expect(body.id).toBe(7);
    expect(textOf(body.result)).toContain(ids.aChunk);
  });

  it('refuses a write-only key (the MCP tools need read)', async () => {
    const { key } = await createApiKey({
      ownerId: users.a.id,
      body: { name: 'write only', scopes: ['write'], expiresInDays: null },
    });
    await expect(connect(key)).rejects.toThrow(/403|scope/);
  });
});
