import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, type APIResponse, expect, request, test } from '@playwright/test';
import { type ApiUser, newApiUser, runAgent, upload, waitForFinal } from '../test/reliability/api-client';

/**
 * Issue 8, isolation: two users with documents, buckets, conversations, answers and shares. Every route handler
 * and page (enumerated from app/ at run time, so a new one cannot be missed) is called with user B's session
 * and user A's ids, with B's session and ids that do not exist, and with no session. Another user's id must
 * answer exactly like a missing one, and no response may contain anything of A's. The same matrix checks the
 * security headers of every response and that every state-changing request from another site is refused.
 */

const BASE = `http://localhost:${process.env.E2E_PORT ?? 3210}`;
const ROOT = process.cwd();
const EVIL = 'https://evil.example';

// ── enumeration ─────────────────────────────────────────────────────────────────────────────────────────────

function walk(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(full, out);
    else out.push(full);
  }
  return out;
}

const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** Every (route file, exported HTTP method) and every page file of the app. */
function enumerateApp(): { routes: Map<string, string[]>; pages: string[]; serverActionFiles: string[] } {
  const files = walk(path.join(ROOT, 'app'));
  const routes = new Map<string, string[]>();
  for (const file of files.filter((f) => /\/route\.(ts|tsx|js|mjs)$/.test(f))) {
    const source = fs.readFileSync(file, 'utf8');
    const methods = new Set<string>();
    const re = /export\s+(?:const|let|async\s+function|function)\s+([A-Z]+)\b/g;
    for (const m of source.matchAll(re))
      if ((HTTP_METHODS as readonly string[]).includes(m[1] ?? '')) methods.add(m[1] ?? '');
    for (const m of source.matchAll(/export\s*\{([^}]*)\}/g))
      for (const name of (m[1] ?? '').split(',').map(
        (s) =>
          s
            .trim()
            .split(/\s+as\s+/)
            .pop() ?? '',
      ))
        if ((HTTP_METHODS as readonly string[]).includes(name)) methods.add(name);
    routes.set(rel(file), [...methods].sort());
  }
  const pages = files
    .filter((f) => /\/page\.(tsx|ts|jsx|js)$/.test(f))
    .map(rel)
    .sort();
  const serverActionFiles = ['app', 'lib', 'components']
    .flatMap((d) => walk(path.join(ROOT, d)))
    .filter((f) => /\.(ts|tsx|js|mjs)$/.test(f) && !/\.test\.ts$/.test(f))
    .filter((f) => /^\s*['"]use server['"]/m.test(fs.readFileSync(f, 'utf8')))
    .map(rel);
  return { routes, pages, serverActionFiles };
}

// ── the two users' data ─────────────────────────────────────────────────────────────────────────────────────

interface Ids {
  document: string;
  bucket: string;
  chunk: string;
  conversation: string;
  answer: string;
  share: string;
  /** A revoked link of A's (an active link is public by design and probed separately). */
  revokedSlug: string;
  /** The id of an API key of the user's. */
  apiKey: string;
  /** A research run of the user's, waiting for approval. */
  research: string;
}

interface World {
  a: ApiUser;
  b: ApiUser;
  anon: APIRequestContext;
  aIds: Ids;
  bIds: Ids;
  activeSlugA: string;
  /** Everything of A's that must never appear in a response to B or to nobody. */
  secretsA: string[];
  canary: string;
  aDocText: string;
  bOwnDocument: string;
  /** B's API key (read + write) in a context without cookies; a revoked and an unknown key of the same shape. */
  bKeyed: APIRequestContext;
  revokedKeyed: APIRequestContext;
  unknownKeyed: APIRequestContext;
}

const missingIds = (): Ids => ({
  document: randomUUID(),
  bucket: randomUUID(),
  chunk: randomUUID(),
  conversation: randomUUID(),
  answer: randomUUID(),
  share: randomUUID(),
  revokedSlug: randomBytes(18).toString('base64url'),
  apiKey: randomUUID(),
  research: randomUUID(),
});

async function json<T>(response: APIResponse, schema: { parse(v: unknown): T }): Promise<T> {
  expect(response.ok(), `${response.url()} → ${response.status()} ${await response.text()}`).toBe(true);
  return schema.parse(await response.json());
}

const idOf = {
  parse: (v: unknown) =>
    v as {
      bucket?: { id: string };
      share?: { id: string; slug: string };
      key?: string;
      apiKey?: { id: string };
    },
};

/** Creates an API key through the session (the only way to create one). */
async function createKey(ctx: APIRequestContext, name: string) {
  const created = await json(
    await ctx.post('/api/api-keys', {
      data: { name, scopes: ['read', 'write'], expiresInDays: 1 },
      headers: { origin: BASE },
    }),
    idOf,
  );
  return { key: created.key ?? '', id: created.apiKey?.id ?? '' };
}

/** A cookie-less context that authenticates with a bearer key. */
const keyedContext = (key: string) =>
  request.newContext({ baseURL: BASE, extraHTTPHeaders: { authorization: `Bearer ${key}` } });

async function buildUser(
  label: string,
  canary: string,
): Promise<{
  user: ApiUser;
  ids: Ids;
  activeSlug: string;
  docText: string;
  filename: string;
  bucketName: string;
  title: string;
  key: string;
}> {
  const user = await newApiUser(BASE, label);
  const bucketName = `bucket-${canary}`;
  const created = await json(await user.ctx.post('/api/buckets', { data: { name: bucketName } }), idOf);
  const bucket = created.bucket?.id ?? '';
  const docText = `# Vault procedures ${canary}\n\nThe vault combination for ${canary} is 4815-${canary}. Rotate the vault combination every ninety days and record it in the ${canary} ledger.\n`;
  const filename = `vault-${canary}.md`;
  const up = await upload(user.ctx, filename, docText, { 'content-type': 'text/markdown', 'x-bucket-id': bucket });
  expect(up.response.status()).toBe(201);
  const document = up.document?.id ?? '';
  const final = await waitForFinal(user.ctx, document);
  expect(final.status).toBe('INDEXED');
  const question = `What is the vault combination for ${canary}?`;
  const result = await runAgent(user.ctx, { question, conversationId: `iso-${canary}`, returnTrace: true });
  expect(result.citations.length).toBeGreaterThan(0);
  const chunk = result.citations[0]?.chunkId ?? '';
  const conversation = result.conversationId ?? '';
  const share = await json(await user.ctx.post('/api/shares', { data: { answerId: result.answerId } }), idOf);
  // a second answer whose link is revoked
  const second = await runAgent(user.ctx, { question: `How often is the ${canary} vault combination rotated?` });
  const revokedShare = await json(await user.ctx.post('/api/shares', { data: { answerId: second.answerId } }), idOf);
  await json(await user.ctx.delete(`/api/shares/${revokedShare.share?.id}`), idOf);
  const convs = await json(await user.ctx.get('/api/conversations'), {
    parse: (v) => v as { conversations: { id: string; title: string }[] },
  });
  const title = convs.conversations.find((c) => c.id === conversation)?.title ?? '';
  const apiKey = await createKey(user.ctx, `key-${canary}`);
  const research = await json(
    await user.ctx.post('/api/research', {
      data: { question: `What do the ${canary} vault procedures say?`, skipClarification: true },
    }),
    { parse: (v) => v as { run: { id: string } } },
  );
  return {
    user,
    ids: {
      document,
      bucket,
      chunk,
      conversation,
      answer: result.answerId,
      share: share.share?.id ?? '',
      revokedSlug: revokedShare.share?.slug ?? '',
      apiKey: apiKey.id,
      research: research.run.id,
    },
    key: apiKey.key,
    activeSlug: share.share?.slug ?? '',
    docText,
    filename,
    bucketName,
    title,
  };
}

// ── probes ──────────────────────────────────────────────────────────────────────────────────────────────────

interface ProbeResult {
  status: number;
  headers: Record<string, string>;
  text: string;
}
interface SendOptions {
  data?: unknown;
  headers?: Record<string, string>;
  maxRedirects?: number;
}
/** The part of a Playwright request context the probes use (also implemented by a recorder). */
interface Sender<R> {
  get(url: string, options?: SendOptions): Promise<R>;
  post(url: string, options?: SendOptions): Promise<R>;
  patch(url: string, options?: SendOptions): Promise<R>;
  put(url: string, options?: SendOptions): Promise<R>;
  delete(url: string, options?: SendOptions): Promise<R>;
}
interface Probe {
  /** Route or page file this probe covers. */
  file: string;
  method: string;
  name: string;
  /** Sends the request with the given ids (A's or missing) through the given caller. */
  send<R>(ctx: Sender<R>, ids: Ids, world: World): Promise<R>;
  /** What must be equal between "A's ids" and "missing ids" (default: status + normalised body). */
  compare?: 'exact' | 'status' | 'agent' | 'none';
  /** Whether the route is public (no session needed), so "no session" need not be 401/redirect. */
  public?: boolean;
  /** Whether the request changes state (so a cross-site copy of it must be refused). */
  mutating?: boolean;
  /** Whether the route is a page (HTML, nonce CSP). */
  page?: boolean;
  /** Strings of A's that this probe itself sends (so their echo is not a leak). */
  echoes?: (w: World) => string[];
  /** Gives B a copy of something of A's (so it runs last, in the session matrix only). */
  pollutesB?: boolean;
  /**
   * Sends a conversation id that a new conversation keeps: conversation ids are scoped by owner, so B's request
   * with A's id starts B's own conversation under that id. The matrix deletes it right after the probe (as B), so
   * that A's id stays foreign to B for the probes after it.
   */
  adoptsConversationId?: boolean;
}

const streamOf = (q: string) => ({ question: q, returnTrace: false });

/** An MCP tools/call as a stateless JSON-RPC request. */
const mcp = (name: string, args: Record<string, unknown>) => ({
  data: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
  headers: { accept: 'application/json, text/event-stream' },
});

function probes(): Probe[] {
  const j = (data: unknown) => ({ data });
  // B's questions name nothing of A's: if isolation broke, the vault text of A's document would be the best hit.
  const agentQ = (_w: World) => 'What is the vault combination and how often is it rotated? Quote the ledger.';
  return [
    // documents
    {
      file: 'app/api/documents/route.ts',
      method: 'GET',
      name: 'list documents filtered by bucket',
      send: (c, ids) => c.get(`/api/documents?bucket=${ids.bucket}`),
    },
    {
      file: 'app/api/documents/route.ts',
      method: 'GET',
      name: 'list documents by name',
      compare: 'none',
      send: (c, _ids, w) => c.get(`/api/documents?name=${encodeURIComponent(w.canary)}`),
    },
    {
      file: 'app/api/documents/[id]/route.ts',
      method: 'GET',
      name: 'get document',
      send: (c, ids) => c.get(`/api/documents/${ids.document}`),
    },
    {
      file: 'app/api/documents/[id]/route.ts',
      method: 'PATCH',
      name: 'edit document metadata',
      mutating: true,
      send: (c, ids) =>
        c.patch(
          `/api/documents/${ids.document}`,
          j({ metadata: { title: 'pwned', documentDate: null, tags: [], fields: {} } }),
        ),
    },
    {
      file: 'app/api/documents/[id]/route.ts',
      method: 'PATCH',
      name: "move own document into A's bucket",
      mutating: true,
      send: (c, ids, w) => c.patch(`/api/documents/${w.bOwnDocument}`, j({ bucketId: ids.bucket })),
    },
    {
      file: 'app/api/documents/[id]/route.ts',
      method: 'DELETE',
      name: 'delete document',
      mutating: true,
      send: (c, ids) => c.delete(`/api/documents/${ids.document}`),
    },
    {
      file: 'app/api/documents/[id]/file/route.ts',
      method: 'GET',
      name: 'download original file',
      send: (c, ids) => c.get(`/api/documents/${ids.document}/file`),
    },
    {
      file: 'app/api/documents/[id]/cancel/route.ts',
      method: 'POST',
      name: 'cancel ingestion',
      mutating: true,
      send: (c, ids) => c.post(`/api/documents/${ids.document}/cancel`),
    },
    {
      file: 'app/api/documents/[id]/reindex/route.ts',
      method: 'POST',
      name: 'reindex',
      mutating: true,
      send: (c, ids) => c.post(`/api/documents/${ids.document}/reindex`),
    },
    {
      file: 'app/api/documents/upload/route.ts',
      method: 'POST',
      name: "upload into A's bucket",
      mutating: true,
      send: (c, ids) =>
        c.post('/api/documents/upload', {
          data: Buffer.from(`probe ${randomUUID()}`),
          headers: { 'x-file-name': 'probe.txt', 'x-bucket-id': ids.bucket, 'content-type': 'text/plain' },
        }),
    },
    // search
    {
      file: 'app/api/search/route.ts',
      method: 'GET',
      name: "search for A's words",
      compare: 'none',
      echoes: (w) => [w.canary],
      send: (c, _ids, w) => c.get(`/api/search?q=${encodeURIComponent(`vault combination ${w.canary} ledger`)}`),
    },
    {
      file: 'app/api/search/route.ts',
      method: 'GET',
      name: "search within A's bucket name",
      compare: 'none',
      echoes: (w) => [w.canary, `bucket-${w.canary}`],
      send: (c, _ids, w) => c.get(`/api/search?q=vault+combination&mode=keyword&bucket=bucket-${w.canary}`),
    },
    // chunks
    {
      file: 'app/api/chunks/[id]/route.ts',
      method: 'GET',
      name: 'open cited chunk',
      send: (c, ids) => c.get(`/api/chunks/${ids.chunk}`),
    },
    // buckets
    {
      file: 'app/api/buckets/route.ts',
      method: 'GET',
      name: 'list buckets',
      compare: 'none',
      send: (c) => c.get('/api/buckets'),
    },
    {
      file: 'app/api/buckets/[id]/route.ts',
      method: 'PATCH',
      name: 'rename bucket',
      mutating: true,
      send: (c, ids) => c.patch(`/api/buckets/${ids.bucket}`, j({ name: 'pwned' })),
    },
    {
      file: 'app/api/buckets/[id]/route.ts',
      method: 'DELETE',
      name: 'delete bucket',
      mutating: true,
      send: (c, ids) => c.delete(`/api/buckets/${ids.bucket}`),
    },
    // typed metadata
    {
      file: 'app/api/buckets/[id]/schema/route.ts',
      method: 'GET',
      name: "read A's bucket schema",
      send: (c, ids) => c.get(`/api/buckets/${ids.bucket}/schema`),
    },
    {
      file: 'app/api/buckets/[id]/schema/route.ts',
      method: 'PATCH',
      name: "replace A's bucket schema",
      mutating: true,
      send: (c, ids) =>
        c.patch(
          `/api/buckets/${ids.bucket}/schema`,
          j({ fields: [{ name: 'pwned', type: 'number', required: false }] }),
        ),
    },
    {
      file: 'app/api/documents/[id]/typed-metadata/route.ts',
      method: 'GET',
      name: "read A's document typed values",
      send: (c, ids) => c.get(`/api/documents/${ids.document}/typed-metadata`),
    },
    {
      file: 'app/api/documents/[id]/sections/route.ts',
      method: 'GET',
      name: "read A's document sections",
      send: (c, ids) => c.get(`/api/documents/${ids.document}/sections`),
    },
    {
      file: 'app/api/documents/[id]/visual-pages/route.ts',
      method: 'GET',
      name: "read A's document visual pages",
      send: (c, ids) => c.get(`/api/documents/${ids.document}/visual-pages`),
    },
    {
      file: 'app/api/documents/[id]/typed-metadata/route.ts',
      method: 'PATCH',
      name: "set A's document typed values",
      mutating: true,
      send: (c, ids) => c.patch(`/api/documents/${ids.document}/typed-metadata`, j({ values: { pwned: 1 } })),
    },
    // conversations
    {
      file: 'app/api/conversations/route.ts',
      method: 'GET',
      name: 'list conversations',
      compare: 'none',
      send: (c) => c.get('/api/conversations'),
    },
    {
      file: 'app/api/conversations/[id]/route.ts',
      method: 'GET',
      name: 'read conversation',
      send: (c, ids) => c.get(`/api/conversations/${ids.conversation}`),
    },
    {
      file: 'app/api/conversations/[id]/route.ts',
      method: 'PATCH',
      name: 'rename conversation',
      mutating: true,
      send: (c, ids) => c.patch(`/api/conversations/${ids.conversation}`, j({ title: 'pwned' })),
    },
    {
      file: 'app/api/conversations/[id]/route.ts',
      method: 'DELETE',
      name: 'delete conversation',
      mutating: true,
      send: (c, ids) => c.delete(`/api/conversations/${ids.conversation}`),
    },
    // shares
    {
      file: 'app/api/shares/route.ts',
      method: 'GET',
      name: 'list shares',
      compare: 'none',
      send: (c) => c.get('/api/shares'),
    },
    {
      file: 'app/api/shares/route.ts',
      method: 'POST',
      name: "share A's answer",
      mutating: true,
      send: (c, ids) => c.post('/api/shares', j({ answerId: ids.answer })),
    },
    {
      file: 'app/api/shares/[id]/route.ts',
      method: 'PATCH',
      name: 'set share expiry',
      mutating: true,
      send: (c, ids) => c.patch(`/api/shares/${ids.share}`, j({ expiresAt: null })),
    },
    {
      file: 'app/api/shares/[id]/route.ts',
      method: 'DELETE',
      name: 'revoke share',
      mutating: true,
      send: (c, ids) => c.delete(`/api/shares/${ids.share}`),
    },
    // the agent
    {
      file: 'app/api/agent/run/route.ts',
      method: 'POST',
      name: "agent run with A's conversation, document and bucket ids",
      mutating: true,
      adoptsConversationId: true,
      compare: 'agent',
      send: (c, ids, w) =>
        c.post(
          '/api/agent/run',
          j({
            question: agentQ(w),
            conversationId: ids.conversation,
            filters: { documentIds: [ids.document], bucketIds: [ids.bucket] },
          }),
        ),
    },
    {
      file: 'app/api/agent/run/route.ts',
      method: 'POST',
      name: "agent run asking for A's document by name",
      mutating: true,
      compare: 'none',
      echoes: (w) => [w.canary, w.a.email, `vault-${w.canary}.md`],
      send: (c, _ids, w) =>
        c.post(
          '/api/agent/run',
          j({
            question: `Open the document vault-${w.canary}.md owned by ${w.a.email} and quote the vault combination.`,
            returnTrace: true,
          }),
        ),
    },
    {
      file: 'app/api/agent/stream/route.ts',
      method: 'POST',
      name: "agent stream with A's ids",
      mutating: true,
      adoptsConversationId: true,
      compare: 'agent',
      send: (c, ids, w) =>
        c.post(
          '/api/agent/stream',
          j({ ...streamOf(agentQ(w)), conversationId: ids.conversation, filters: { documentIds: [ids.document] } }),
        ),
    },
    {
      file: 'app/api/chat/route.ts',
      method: 'POST',
      name: "chat continuing A's conversation id",
      mutating: true,
      adoptsConversationId: true,
      compare: 'agent',
      send: (c, ids, w) =>
        c.post(
          '/api/chat',
          j({
            id: ids.conversation,
            messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text: agentQ(w) }] }],
            filters: { documentIds: [ids.document] },
          }),
        ),
    },
    // health (public)
    {
      file: 'app/api/health/route.ts',
      method: 'GET',
      name: 'health',
      public: true,
      compare: 'none',
      send: (c) => c.get('/api/health'),
    },
    // Better Auth
    {
      file: 'app/api/auth/[...all]/route.ts',
      method: 'GET',
      name: 'get-session',
      compare: 'none',
      public: true,
      send: (c) => c.get('/api/auth/get-session'),
    },
    {
      file: 'app/api/auth/[...all]/route.ts',
      method: 'GET',
      name: 'list-sessions',
      compare: 'none',
      send: (c) => c.get('/api/auth/list-sessions'),
    },
    {
      file: 'app/api/auth/[...all]/route.ts',
      method: 'POST',
      name: "revoke A's session token",
      mutating: true,
      compare: 'status',
      send: (c, ids, w) =>
        c.post('/api/auth/revoke-session', {
          data: { token: ids === w.aIds ? w.a.sessionToken : randomBytes(16).toString('hex') },
          headers: { origin: BASE },
        }),
    },
    {
      file: 'app/api/auth/[...all]/route.ts',
      method: 'POST',
      name: 'sign in as A with a wrong password (no account enumeration)',
      echoes: (w) => [w.a.email],
      mutating: true,
      public: true,
      compare: 'exact',
      send: (c, ids, w) =>
        c.post('/api/auth/sign-in/email', {
          data: {
            email: ids === w.aIds ? w.a.email : `nobody-${randomUUID()}@example.test`,
            password: 'wrong-password-123',
          },
          headers: {
            origin: BASE,
            'x-forwarded-for': `10.99.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
          },
        }),
    },
    // pages
    {
      file: 'app/page.tsx',
      method: 'GET',
      name: 'home page',
      page: true,
      compare: 'status',
      send: (c) => c.get('/', { maxRedirects: 0 }),
    },
    {
      file: 'app/(app)/documents/page.tsx',
      method: 'GET',
      name: 'documents page',
      page: true,
      compare: 'none',
      send: (c) => c.get('/documents', { maxRedirects: 0 }),
    },
    {
      file: 'app/(app)/chat/page.tsx',
      method: 'GET',
      name: 'chat page',
      page: true,
      compare: 'none',
      send: (c) => c.get('/chat', { maxRedirects: 0 }),
    },
    {
      file: 'app/(app)/chat/page.tsx',
      method: 'GET',
      name: "chat page with A's conversation",
      page: true,
      compare: 'status',
      send: (c, ids) => c.get(`/chat?c=${ids.conversation}&conversation=${ids.conversation}`, { maxRedirects: 0 }),
    },
    {
      file: 'app/(app)/chat/[conversationId]/page.tsx',
      method: 'GET',
      name: "A's conversation page",
      page: true,
      compare: 'status',
      send: (c, ids) => c.get(`/chat/${ids.conversation}`, { maxRedirects: 0 }),
    },
    {
      file: 'app/(app)/documents/[id]/view/page.tsx',
      method: 'GET',
      name: "A's document viewer",
      page: true,
      compare: 'status',
      send: (c, ids) => c.get(`/documents/${ids.document}/view?chunk=${ids.chunk}`, { maxRedirects: 0 }),
    },
    {
      file: 'app/(app)/documents/[id]/view/page.tsx',
      method: 'GET',
      name: "own document viewer with A's chunk id",
      page: true,
      compare: 'status',
      send: (c, ids, w) =>
        c.get(`/documents/${w.bOwnDocument}/view?chunk=${ids.chunk}&qs=0&qe=20`, { maxRedirects: 0 }),
    },
    {
      file: 'app/(app)/shares/page.tsx',
      method: 'GET',
      name: 'shares page',
      page: true,
      compare: 'none',
      send: (c) => c.get('/shares', { maxRedirects: 0 }),
    },
    {
      file: 'app/(auth)/sign-in/page.tsx',
      method: 'GET',
      name: 'sign-in page',
      page: true,
      public: true,
      compare: 'status',
      send: (c) => c.get('/sign-in', { maxRedirects: 0 }),
    },
    {
      file: 'app/(auth)/sign-up/page.tsx',
      method: 'GET',
      name: 'sign-up page',
      page: true,
      public: true,
      compare: 'status',
      send: (c) => c.get('/sign-up', { maxRedirects: 0 }),
    },
    {
      file: 'app/share/[slug]/page.tsx',
      method: 'GET',
      name: "A's revoked share link",
      page: true,
      public: true,
      compare: 'status',
      send: (c, ids) => c.get(`/share/${ids.revokedSlug}`, { maxRedirects: 0 }),
    },
    // API keys (a signed-in session manages them; a key never can)
    {
      file: 'app/api/api-keys/route.ts',
      method: 'GET',
      name: 'list API keys',
      compare: 'none',
      send: (c) => c.get('/api/api-keys'),
    },
    {
      file: 'app/api/api-keys/route.ts',
      method: 'POST',
      name: 'create an API key',
      mutating: true,
      compare: 'status',
      send: (c) => c.post('/api/api-keys', j({ name: `probe ${randomUUID()}`, scopes: ['read'] })),
    },
    {
      file: 'app/api/api-keys/[id]/route.ts',
      method: 'DELETE',
      name: "revoke A's API key",
      mutating: true,
      send: (c, ids) => c.delete(`/api/api-keys/${ids.apiKey}`),
    },
    // research mode
    {
      file: 'app/api/research/route.ts',
      method: 'POST',
      name: "start a research run in A's conversation",
      mutating: true,
      compare: 'status',
      send: (c, ids) =>
        c.post(
          '/api/research',
          j({ question: 'How often is the combination rotated?', conversationId: ids.conversation }),
        ),
    },
    {
      file: 'app/api/research/[id]/route.ts',
      method: 'GET',
      name: 'get research run',
      send: (c, ids) => c.get(`/api/research/${ids.research}`),
    },
    {
      file: 'app/api/research/[id]/answers/route.ts',
      method: 'POST',
      name: "answer A's research questions",
      mutating: true,
      send: (c, ids) => c.post(`/api/research/${ids.research}/answers`, j({ skip: true })),
    },
    {
      file: 'app/api/research/[id]/plan/route.ts',
      method: 'PUT',
      name: "edit A's research plan",
      mutating: true,
      send: (c, ids) => c.put(`/api/research/${ids.research}/plan`, j({ tasks: [{ title: 'pwned' }] })),
    },
    {
      file: 'app/api/research/[id]/approve/route.ts',
      method: 'POST',
      name: "approve A's research plan",
      mutating: true,
      send: (c, ids) => c.post(`/api/research/${ids.research}/approve`),
    },
    {
      file: 'app/api/research/[id]/cancel/route.ts',
      method: 'POST',
      name: "cancel A's research run",
      mutating: true,
      send: (c, ids) => c.post(`/api/research/${ids.research}/cancel`),
    },
    // MCP: the agent's tools for other agents
    {
      file: 'app/api/mcp/route.ts',
      method: 'POST',
      name: "MCP open_citation with A's chunk id",
      mutating: true,
      send: (c, ids) => c.post('/api/mcp', mcp('open_citation', { chunkId: ids.chunk })),
    },
    {
      file: 'app/api/mcp/route.ts',
      method: 'POST',
      name: "MCP get_document_metadata with A's document id",
      mutating: true,
      send: (c, ids) => c.post('/api/mcp', mcp('get_document_metadata', { documentId: ids.document })),
    },
    {
      file: 'app/api/mcp/route.ts',
      method: 'POST',
      name: "MCP search_text for A's words",
      mutating: true,
      compare: 'none',
      echoes: (w) => [w.canary],
      send: (c, _ids, w) => c.post('/api/mcp', mcp('search_text', { query: `vault combination ${w.canary}` })),
    },
    {
      file: 'app/api/mcp/route.ts',
      method: 'POST',
      name: "MCP ask for A's vault combination",
      mutating: true,
      compare: 'none',
      send: (c, _ids, w) => c.post('/api/mcp', mcp('ask', { question: agentQ(w) })),
    },
    {
      file: 'app/api/mcp/route.ts',
      method: 'GET',
      name: 'MCP server stream (stateless: 405)',
      send: (c) => c.get('/api/mcp'),
    },
    {
      file: 'app/api/mcp/route.ts',
      method: 'DELETE',
      name: 'MCP session end (stateless: 405)',
      mutating: true,
      send: (c) => c.delete('/api/mcp'),
    },
    // the contract (public)
    {
      file: 'app/api/openapi.json/route.ts',
      method: 'GET',
      name: 'OpenAPI document',
      public: true,
      compare: 'none',
      send: (c) => c.get('/api/openapi.json'),
    },
    {
      file: 'app/api-docs/page.tsx',
      method: 'GET',
      name: 'API reference page',
      page: true,
      public: true,
      compare: 'status',
      send: (c) => c.get('/api-docs', { maxRedirects: 0 }),
    },
    {
      file: 'app/(app)/settings/api-keys/page.tsx',
      method: 'GET',
      name: 'API keys page',
      page: true,
      compare: 'status',
      send: (c) => c.get('/settings/api-keys', { maxRedirects: 0 }),
    },
    // last: these give B a bucket named like A's and a copy of A's text, which B's own pages then show
    {
      file: 'app/api/documents/upload/route.ts',
      method: 'POST',
      name: "upload A's exact content (cross-user dedupe must not reveal it)",
      mutating: true,
      pollutesB: true,
      compare: 'none',
      echoes: (w) => [w.canary],
      send: (c, _ids, w) =>
        c.post('/api/documents/upload', {
          data: Buffer.from(w.aDocText),
          headers: { 'x-file-name': 'same-content.md', 'content-type': 'text/markdown' },
        }),
    },
    {
      file: 'app/api/buckets/route.ts',
      method: 'POST',
      name: "create a bucket with A's bucket name (no cross-user conflict)",
      mutating: true,
      pollutesB: true,
      compare: 'status',
      echoes: (w) => [w.canary, `bucket-${w.canary}`],
      send: (c, ids, w) =>
        c.post('/api/buckets', j({ name: ids === w.aIds ? `bucket-${w.canary}` : `bucket-${randomUUID()}` })),
    },
  ];
}

/**
 * Deletes the caller's own conversation under `id` (a run that proposed it started one; conversation ids are
 * scoped by owner, so this never touches A's). Returns a problem, or null: 204 (deleted) and 404 (the run kept
 * none, e.g. it was refused) are both fine.
 */
async function forgetAdoptedConversation(sender: Sender<APIResponse>, id: string): Promise<string | null> {
  const r = await sender.delete(`/api/conversations/${id}`);
  return r.status() === 204 || r.status() === 404 ? null : `deleting B's own conversation under A's id → ${r.status()}`;
}

/** Id-like values and volatile fields replaced so that "A's id" and "missing id" answers can be compared. */
function normalise(text: string, ids: Ids): string {
  let out = text;
  for (const value of Object.values(ids)) if (value) out = out.split(value).join('<ID>');
  return out
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<UUID>')
    .replace(/"(createdAt|updatedAt|checkedAt|expiresAt|indexedAt)":"[^"]*"/g, '"$1":"<T>"')
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<T>');
}

/** The parts of an agent answer (JSON, SSE or UI stream) that must not depend on whose id was sent. */
function agentProjection(text: string): string {
  const answers = [...text.matchAll(/"answer":"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1]);
  const citations = [...text.matchAll(/"citations":\[(.*?)\]/g)].map((m) => (m[1] ?? '').length > 0);
  const hits = [...text.matchAll(/"hits":(\d+)/g)].map((m) => m[1]);
  const codes = [...text.matchAll(/"code":"([^"]+)"/g)].map((m) => m[1]);
  return JSON.stringify({ answers, citations, hits, codes });
}

async function capture(response: APIResponse): Promise<ProbeResult> {
  return { status: response.status(), headers: response.headers(), text: await response.text().catch(() => '') };
}

// ── the test ────────────────────────────────────────────────────────────────────────────────────────────────

test.setTimeout(600_000);

let world: World;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  const canaryA = `zyx${randomBytes(4).toString('hex')}`;
  const canaryB = `qwv${randomBytes(4).toString('hex')}`;
  const a = await buildUser('iso-a', canaryA);
  const b = await buildUser('iso-b', canaryB);
  const bDoc = await upload(
    b.user.ctx,
    'b-own-notes.txt',
    `B's own notes ${canaryB}: the garden is watered on Tuesdays.`,
    { 'content-type': 'text/plain' },
  );
  await waitForFinal(b.user.ctx, bDoc.document?.id ?? '');
  const anon = await request.newContext({ baseURL: BASE });
  const revoked = await createKey(b.user.ctx, 'revoked');
  await json(await b.user.ctx.delete(`/api/api-keys/${revoked.id}`), idOf);
  world = {
    a: a.user,
    b: b.user,
    anon,
    aIds: a.ids,
    bIds: b.ids,
    activeSlugA: a.activeSlug,
    canary: canaryA,
    aDocText: a.docText,
    bOwnDocument: bDoc.document?.id ?? '',
    bKeyed: await keyedContext(b.key),
    revokedKeyed: await keyedContext(revoked.key),
    unknownKeyed: await keyedContext(`dc_${randomBytes(32).toString('base64url')}`),
    secretsA: [
      a.key,
      canaryA,
      a.user.email,
      a.user.name,
      a.user.id,
      a.user.sessionToken,
      a.filename,
      a.bucketName,
      a.title,
      '4815-',
      a.activeSlug,
      ...Object.values(a.ids),
    ].filter((s) => s.length >= 6),
  };
});

test.afterAll(async () => {
  await world?.a.ctx.dispose();
  await world?.b.ctx.dispose();
  await world?.anon.dispose();
  await world?.bKeyed.dispose();
  await world?.revokedKeyed.dispose();
  await world?.unknownKeyed.dispose();
});

test('every route handler, page and server action is covered by the id-substitution matrix', () => {
  const { routes, pages, serverActionFiles } = enumerateApp();
  const table = probes();
  const covered = new Set(table.map((p) => `${p.file} ${p.method}`));
  const missing: string[] = [];
  for (const [file, methods] of routes) {
    expect(methods.length, `${file} exports no HTTP method`).toBeGreaterThan(0);
    for (const method of methods) if (!covered.has(`${file} ${method}`)) missing.push(`${file} ${method}`);
  }
  for (const file of pages) if (!covered.has(`${file} GET`)) missing.push(`${file} GET`);
  expect(missing, 'routes or pages without an isolation probe: add them to probes()').toEqual([]);
  const known = new Set([...routes.keys(), ...pages]);
  const stale = table.filter((p) => !known.has(p.file)).map((p) => p.file);
  expect(stale, 'probes for files that no longer exist').toEqual([]);
  // Server actions: none exist today. A 'use server' file must get probes here (B calling it with A's ids).
  const coveredActionFiles: string[] = [];
  expect(
    serverActionFiles.filter((f) => !coveredActionFiles.includes(f)),
    "'use server' files not covered by the matrix",
  ).toEqual([]);
  console.log(
    `[isolation] enumerated ${routes.size} route files (${[...routes.values()].flat().length} handlers), ${pages.length} pages, ${serverActionFiles.length} server-action files`,
  );
});

test("B's API key with A's ids answers like missing ids; unknown and revoked keys answer like none; nothing leaks", async () => {
  const w = world;
  const leaks: string[] = [];
  const mismatches: string[] = [];
  let probeCount = 0;
  const missing = missingIds();
  // Better Auth's routes take no API keys (sessions only) and pages are for browsers: every other route is probed.
  // It runs before the session matrix, whose last probes give B copies of A's bucket name and text.
  const keyProbes = probes().filter((p) => !p.page && !p.pollutesB && !p.file.startsWith('app/api/auth/'));
  for (const probe of keyProbes) {
    const label = `${probe.method} ${probe.file} [${probe.name}] with a key`;
    const withA = await capture(await probe.send(w.bKeyed, w.aIds, w));
    const withMissing = await capture(await probe.send(w.bKeyed, missing, w));
    const anonymous = await capture(await probe.send(w.anon, w.aIds, w));
    const revokedKey = await capture(await probe.send(w.revokedKeyed, w.aIds, w));
    const unknownKey = await capture(await probe.send(w.unknownKeyed, w.aIds, w));
    probeCount += 4;
    if (probe.adoptsConversationId) {
      const forgotten = await forgetAdoptedConversation(w.bKeyed, w.aIds.conversation);
      if (forgotten) mismatches.push(`${label}: ${forgotten}`);
    }
    const echoed = [...Object.values(w.aIds), ...(probe.echoes?.(w) ?? [])];
    for (const [who, r] of [
      ['B', withA],
      ['a revoked key', revokedKey],
      ['an unknown key', unknownKey],
    ] as const) {
      const haystack = `${r.text}\n${JSON.stringify(r.headers)}`;
      for (const secret of w.secretsA)
        if (!echoed.includes(secret) && haystack.includes(secret))
          leaks.push(`${label} as ${who}: response contains A's "${secret.slice(0, 40)}" (status ${r.status})`);
    }
    const compare = probe.compare ?? 'exact';
    if (compare !== 'none' && withA.status !== withMissing.status)
      mismatches.push(`${label}: A's id → ${withA.status}, missing id → ${withMissing.status}`);
    if (compare === 'exact' && normalise(withA.text, w.aIds) !== normalise(withMissing.text, missing))
      mismatches.push(
        `${label}: bodies differ:\n  A's id:  ${withA.text.slice(0, 300)}\n  missing: ${withMissing.text.slice(0, 300)}`,
      );
    if (compare === 'agent' && agentProjection(withA.text) !== agentProjection(withMissing.text))
      mismatches.push(`${label}: agent answers differ`);
    if (!probe.public) {
      if (anonymous.status !== 401) mismatches.push(`${label}: no credentials → ${anonymous.status}`);
      for (const [who, r] of [
        ['revoked key', revokedKey],
        ['unknown key', unknownKey],
      ] as const)
        if (r.status !== anonymous.status || r.text !== anonymous.text)
          mismatches.push(`${label}: a ${who} → ${r.status} ${r.text.slice(0, 120)}, not the no-credentials answer`);
    }
  }
  // The key is B's: B's own data is there (so the 404s above are isolation, not a dead key)
  const own = await w.bKeyed.get(`/api/documents/${w.bOwnDocument}`);
  expect(own.status()).toBe(200);
  // and A's data is intact
  expect((await w.a.ctx.get(`/api/documents/${w.aIds.document}`)).status()).toBe(200);
  const aKeys = (await (await w.a.ctx.get('/api/api-keys')).json()) as { apiKeys: { id: string; active: boolean }[] };
  expect(aKeys.apiKeys.find((k) => k.id === w.aIds.apiKey)?.active, "B revoked A's key").toBe(true);
  probeCount += 2;
  console.log(`[isolation] key probes: ${probeCount}, leaks: ${leaks.length}, mismatches: ${mismatches.length}`);
  for (const line of [...leaks, ...mismatches]) console.log(`  ${line}`);
  fs.mkdirSync(path.join(ROOT, 'e2e/.results'), { recursive: true });
  fs.writeFileSync(
    path.join(ROOT, 'e2e/.results/isolation-keys.json'),
    `${JSON.stringify({ keyProbes: probeCount, keyLeaks: leaks.length, mismatches: mismatches.length, at: new Date().toISOString() })}\n`,
  );
  expect(leaks, "responses to a key that reveal A's data").toEqual([]);
  expect(mismatches, "with a key, A's ids must answer exactly like missing ids").toEqual([]);
});

test("B's session with A's ids answers like missing ids; no session is refused; nothing of A's leaks", async () => {
  const w = world;
  const leaks: string[] = [];
  const mismatches: string[] = [];
  const headerProblems: string[] = [];
  let probeCount = 0;

  const checkLeak = (label: string, r: ProbeResult, allowed: string[] = []) => {
    const haystack = `${r.text}\n${JSON.stringify(r.headers)}`;
    for (const secret of w.secretsA) {
      if (allowed.includes(secret)) continue;
      if (haystack.includes(secret))
        leaks.push(`${label}: response contains A's "${secret.slice(0, 40)}" (status ${r.status})`);
    }
  };
  const checkHeaders = (label: string, r: ProbeResult, page: boolean) => {
    const h = r.headers;
    const csp = h['content-security-policy'] ?? '';
    if (h['x-content-type-options'] !== 'nosniff') headerProblems.push(`${label}: no nosniff`);
    if (!/frame-ancestors 'none'/.test(csp) && h['x-frame-options'] !== 'DENY')
      headerProblems.push(`${label}: framing not refused`);
    if (!h['referrer-policy']) headerProblems.push(`${label}: no referrer-policy`);
    if (page && r.status === 200 && !/script-src[^;]*'nonce-[A-Za-z0-9+/=]+'/.test(csp))
      headerProblems.push(`${label}: no nonce CSP (${csp})`);
    if (!page && !csp) headerProblems.push(`${label}: no CSP`);
  };

  for (const probe of probes()) {
    const label = `${probe.method} ${probe.file} [${probe.name}]`;
    // Fresh missing ids for every probe: a state-changing probe may make a "missing" id B's own (a new chat keeps
    // the conversation id its page proposed), which would change what the id means for the probes after it.
    const missing = missingIds();
    // B with A's ids, then B with missing ids
    const withA = await capture(await probe.send(w.b.ctx, w.aIds, w));
    const withMissing = await capture(await probe.send(w.b.ctx, missing, w));
    const anonymous = await capture(await probe.send(w.anon, w.aIds, w));
    probeCount += 3;
    if (probe.adoptsConversationId) {
      const forgotten = await forgetAdoptedConversation(w.b.ctx, w.aIds.conversation);
      if (forgotten) mismatches.push(`${label}: ${forgotten}`);
    }
    const echoed = [...Object.values(w.aIds), ...(probe.echoes?.(w) ?? [])];
    checkLeak(`${label} as B`, withA, echoed);
    checkLeak(`${label} as nobody`, anonymous, echoed);
    checkHeaders(`${label} as B`, withA, Boolean(probe.page));
    checkHeaders(`${label} as nobody`, anonymous, Boolean(probe.page));
    const compare = probe.compare ?? 'exact';
    if (compare !== 'none' && withA.status !== withMissing.status)
      mismatches.push(`${label}: A's id → ${withA.status}, missing id → ${withMissing.status}`);
    if (compare === 'exact' && normalise(withA.text, w.aIds) !== normalise(withMissing.text, missing))
      mismatches.push(
        `${label}: bodies differ:\n  A's id:  ${withA.text.slice(0, 300)}\n  missing: ${withMissing.text.slice(0, 300)}`,
      );
    if (compare === 'agent' && agentProjection(withA.text) !== agentProjection(withMissing.text))
      mismatches.push(
        `${label}: agent answers differ:\n  A's id:  ${agentProjection(withA.text)}\n  missing: ${agentProjection(withMissing.text)}`,
      );
    if (!probe.public) {
      const refused = probe.page
        ? anonymous.status >= 300 && anonymous.status < 400 && /sign-in/.test(anonymous.headers.location ?? '')
        : anonymous.status === 401;
      if (!refused) mismatches.push(`${label}: no session was not refused (${anonymous.status})`);
    }
  }

  // The chat/agent probes must not have continued A's conversation, and A's data must be intact.
  const conv = await w.a.ctx.get(`/api/conversations/${w.aIds.conversation}`);
  expect(conv.status()).toBe(200);
  const convBody = (await conv.json()) as { conversation: { title: string }; messages: unknown[] };
  expect(convBody.conversation.title).not.toBe('pwned');
  expect(convBody.messages).toHaveLength(2);
  const doc = (await (await w.a.ctx.get(`/api/documents/${w.aIds.document}`)).json()) as {
    document: { status: string; bucketId: string | null; metadata: { title: string | null } };
  };
  expect(doc.document).toMatchObject({ status: 'INDEXED', bucketId: w.aIds.bucket });
  expect(doc.document.metadata.title).not.toBe('pwned');
  const buckets = (await (await w.a.ctx.get('/api/buckets')).json()) as { buckets: { id: string; name: string }[] };
  expect(buckets.buckets.find((x) => x.id === w.aIds.bucket)?.name).toBe(`bucket-${w.canary}`);
  const shares = (await (await w.a.ctx.get('/api/shares')).json()) as { shares: { id: string; active: boolean }[] };
  expect(shares.shares.find((s) => s.id === w.aIds.share)?.active).toBe(true);
  expect((await w.a.ctx.get(`/api/chunks/${w.aIds.chunk}`)).status()).toBe(200);
  const session = (await (await w.a.ctx.get('/api/auth/get-session')).json()) as { user?: { email: string } } | null;
  expect(session?.user?.email, "B revoked A's session").toBe(w.a.email);
  probeCount += 7;

  // A's active share is public by design: B sees exactly what a signed-out visitor sees.
  const shareAsB = await w.b.ctx.get(`/share/${w.activeSlugA}`);
  const shareAnon = await w.anon.get(`/share/${w.activeSlugA}`);
  expect(shareAsB.status()).toBe(200);
  expect(shareAnon.status()).toBe(200);
  const visible = (t: string) =>
    t
      .replace(/nonce="[^"]*"/g, '')
      .replace(/<script[\s\S]*?<\/script>/g, '')
      .replace(/\s+/g, ' ');
  expect(visible(await shareAsB.text())).not.toContain(w.b.email);
  expect((await shareAnon.text()).includes(w.a.email)).toBe(false);
  probeCount += 2;

  console.log(
    `[isolation] probes: ${probeCount}, leaks: ${leaks.length}, mismatches: ${mismatches.length}, header problems: ${headerProblems.length}`,
  );
  test.info().annotations.push({
    type: 'isolation',
    description: `${probeCount} probes, ${leaks.length} leaks, ${mismatches.length} mismatches`,
  });
  expect(leaks, "responses that reveal A's data").toEqual([]);
  expect(mismatches, "A's ids must answer exactly like missing ids; no session must be refused").toEqual([]);
  expect(headerProblems, 'security headers').toEqual([]);
});

test('positive control: A reaches every one of its own ids (so the 404s above mean isolation, not bad ids)', async () => {
  const w = world;
  const a = w.a.ctx;
  for (const url of [
    `/api/documents/${w.aIds.document}`,
    `/api/documents/${w.aIds.document}/file`,
    `/api/chunks/${w.aIds.chunk}`,
    `/api/conversations/${w.aIds.conversation}`,
  ]) {
    expect((await a.get(url)).status(), url).toBe(200);
  }
  expect((await a.get(`/share/${w.activeSlugA}`)).status()).toBe(200);
  // and the leak detector would see A's data if it were returned
  expect(await (await a.get(`/api/chunks/${w.aIds.chunk}`)).text()).toContain(w.canary);
  expect((await a.get(`/share/${w.aIds.revokedSlug}`)).status()).toBe(404);
});

interface Recorded {
  url: string;
  method: string;
  headers: Record<string, string>;
  data?: Buffer;
}

/** A Sender that returns the request instead of sending it (to replay a probe with other headers). */
const recorder: Sender<Recorded> = {
  get: (url, o) => Promise.resolve(recorded('GET', url, o)),
  post: (url, o) => Promise.resolve(recorded('POST', url, o)),
  patch: (url, o) => Promise.resolve(recorded('PATCH', url, o)),
  put: (url, o) => Promise.resolve(recorded('PUT', url, o)),
  delete: (url, o) => Promise.resolve(recorded('DELETE', url, o)),
};

function recorded(method: string, url: string, o?: SendOptions): Recorded {
  const isBuffer = Buffer.isBuffer(o?.data);
  const data =
    o?.data === undefined ? undefined : Buffer.isBuffer(o.data) ? o.data : Buffer.from(JSON.stringify(o.data));
  const headers = {
    ...(o?.data !== undefined && !isBuffer ? { 'content-type': 'application/json' } : {}),
    ...(o?.headers ?? {}),
  };
  return { url, method, headers, ...(data ? { data } : {}) };
}

test('every state-changing request from another site is refused, whatever the session', async () => {
  const w = world;
  const refusedNot: string[] = [];
  let count = 0;
  const crossSite = { origin: EVIL, 'sec-fetch-site': 'cross-site' };
  for (const probe of probes().filter((p) => p.mutating)) {
    // B's own ids: the request would succeed if it came from our pages; replay it as if from another site
    const sent = await probe.send(recorder, w.bIds, w);
    const response = await w.b.ctx.fetch(sent.url, {
      method: sent.method,
      headers: { ...sent.headers, ...crossSite },
      ...(sent.data ? { data: sent.data } : {}),
    });
    count++;
    if (response.status() !== 403)
      refusedNot.push(`${probe.method} ${probe.file} [${probe.name}] → ${response.status()}`);
  }
  // the sign-up and sign-in forms themselves
  for (const [url, data] of [
    [
      '/api/auth/sign-up/email',
      { email: `evil-${randomUUID()}@example.test`, password: 'a-long-password-1', name: 'x' },
    ],
    ['/api/auth/sign-in/email', { email: w.b.email, password: w.b.password }],
  ] as const) {
    const response = await w.anon.post(url, { data, headers: { ...crossSite, 'x-forwarded-for': `10.77.${count}.9` } });
    count++;
    if (response.status() !== 403) refusedNot.push(`POST ${url} → ${response.status()}`);
  }
  // signing B out from another site (B's cookies ride along)
  {
    const response = await w.b.ctx.post('/api/auth/sign-out', { data: {}, headers: crossSite });
    count++;
    if (response.status() !== 403) refusedNot.push(`POST /api/auth/sign-out with B's cookies → ${response.status()}`);
  }
  console.log(`[isolation] cross-site probes: ${count}, accepted: ${refusedNot.length}`);
  expect(refusedNot).toEqual([]);
  // B is still signed in (the cross-site sign-out did nothing)
  const session = (await (await w.b.ctx.get('/api/auth/get-session')).json()) as { user?: { email: string } } | null;
  expect(session?.user?.email).toBe(w.b.email);
});

test('security headers: nonce CSP on pages, HSTS when the request came over HTTPS', async () => {
  const w = world;
  const page = await w.anon.get('/sign-in', { headers: { 'x-forwarded-proto': 'https' } });
  const csp = page.headers()['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src[^;]*'nonce-/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  // the nonce differs per response and is the one on the page's scripts
  const again = await w.anon.get('/sign-in');
  expect(again.headers()['content-security-policy']).not.toBe(csp);
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
  const html = await page.text();
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1] ?? '');
  expect(scripts.length).toBeGreaterThan(0);
  expect(scripts.filter((attrs) => !attrs.includes(`nonce="${nonce}"`))).toEqual([]);
  expect(page.headers()['strict-transport-security']).toMatch(/max-age=\d{7,}/);
  expect(again.headers()['strict-transport-security']).toBeUndefined();
  // share pages: no referrer, not indexed
  const share = await w.anon.get(`/share/${w.activeSlugA}`);
  expect(share.headers()['referrer-policy']).toBe('no-referrer');
  expect(share.headers()['x-robots-tag']).toContain('noindex');
});

test('API responses carry HSTS under HTTPS too', async () => {
  // proxy.ts does not match /api/: next.config.ts adds HSTS there when the request came over HTTPS.
  const api = await world.anon.get('/api/health', { headers: { 'x-forwarded-proto': 'https' } });
  expect(api.headers()['strict-transport-security']).toMatch(/max-age=\d{7,}/);
});

test('static assets and unmatched files carry nosniff too', async () => {
  // proxy.ts does not match /_next/static, /_next/image or /favicon.ico: next.config.ts gives every path nosniff.
  const html = await (await world.anon.get('/sign-in')).text();
  const asset = /\/_next\/static\/[^"]+\.js/.exec(html)?.[0] ?? '';
  expect(asset).not.toBe('');
  for (const url of [asset, '/favicon.ico']) {
    const response = await world.anon.get(url);
    expect(response.headers()['x-content-type-options'], url).toBe('nosniff');
  }
});

test('session cookies are httpOnly and SameSite', async () => {
  const ctx = await request.newContext({
    baseURL: BASE,
    extraHTTPHeaders: { 'x-forwarded-for': `10.66.${Math.floor(Math.random() * 250)}.3` },
  });
  const email = `cookie-${randomUUID()}@example.test`;
  const created = await ctx.post('/api/auth/sign-up/email', {
    data: { email, password: 'a-long-password-1', name: 'Cookie' },
    headers: { origin: BASE },
  });
  expect(created.status()).toBe(200);
  // sign-up opens no session (it answers alike for a taken email): the cookie comes from signing in
  const response = await ctx.post('/api/auth/sign-in/email', {
    data: { email, password: 'a-long-password-1' },
    headers: { origin: BASE },
  });
  expect(response.status()).toBe(200);
  const setCookies = response
    .headersArray()
    .filter((h) => h.name.toLowerCase() === 'set-cookie')
    .map((h) => h.value);
  const session = setCookies.find((c) => /better-auth\.session_token=/.test(c)) ?? '';
  expect(session).toMatch(/HttpOnly/i);
  expect(session).toMatch(/SameSite=Lax/i);
  await ctx.dispose();
});
