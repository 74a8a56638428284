import { randomBytes } from 'node:crypto';
import { type APIRequestContext, type APIResponse, request } from '@playwright/test';
import { z } from 'zod';

/**
 * HTTP helpers for the reliability specs (Playwright `request` contexts against a running server): users
 * signed up through the API, raw-body uploads, waiting for a document's final state, agent runs.
 */

export interface ApiUser {
  ctx: APIRequestContext;
  id: string;
  email: string;
  name: string;
  password: string;
  /** The raw session token (the part of the cookie before its signature). */
  sessionToken: string;
  ip: string;
}

/** A private client address per context, so per-IP auth limits of one test never touch another. */
export function fakeIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${((b[2] ?? 1) % 250) + 1}`;
}

const signUpBody = z.object({ user: z.object({ id: z.string(), email: z.string(), name: z.string() }) });

/** Signs a fresh user up (POST /api/auth/sign-up/email, then sign-in); the returned context carries the session. */
export async function newApiUser(baseURL: string, label: string): Promise<ApiUser> {
  const ip = fakeIp();
  const ctx = await request.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': ip } });
  const tag = randomBytes(5).toString('hex');
  const email = `${label}-${tag}@example.test`;
  const name = `${label} ${tag}`;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const created = await ctx.post('/api/auth/sign-up/email', {
    data: { email, password, name },
    headers: { origin: baseURL },
  });
  if (created.status() !== 200) throw new Error(`sign-up failed: ${created.status()} ${await created.text()}`);
  // sign-up opens no session (it answers alike for a taken email): sign in next
  const response = await ctx.post('/api/auth/sign-in/email', {
    data: { email, password },
    headers: { origin: baseURL },
  });
  if (response.status() !== 200) throw new Error(`sign-in failed: ${response.status()} ${await response.text()}`);
  const body = signUpBody.parse(await response.json());
  const state = await ctx.storageState();
  const cookie = state.cookies.find((c) => c.name.endsWith('better-auth.session_token'));
  if (!cookie) throw new Error('sign-up set no session cookie');
  const sessionToken = decodeURIComponent(cookie.value).split('.')[0] ?? '';
  return { ctx, id: body.user.id, email, name, password, sessionToken, ip };
}

export const documentSchema = z
  .object({
    id: z.string(),
    filename: z.string(),
    status: z.enum(['PENDING', 'PROCESSING', 'INDEXED', 'FAILED']),
    error: z.string().nullable(),
    chunkCount: z.number().nullable(),
    pageCount: z.number().nullable(),
  })
  .loose();
export type ApiDocument = z.infer<typeof documentSchema>;

const uploadResult = z.object({ document: documentSchema, duplicate: z.boolean() });

/** POST /api/documents/upload with a raw body; returns the response and, on success, the document. */
export async function upload(
  ctx: APIRequestContext,
  fileName: string,
  content: Buffer | string,
  headers: Record<string, string> = {},
): Promise<{ response: APIResponse; document: ApiDocument | null; duplicate: boolean }> {
  const response = await ctx.post('/api/documents/upload', {
    data: typeof content === 'string' ? Buffer.from(content, 'utf8') : content,
    headers: { 'x-file-name': encodeURIComponent(fileName), 'content-type': 'application/octet-stream', ...headers },
    timeout: 120_000,
  });
  if (response.status() !== 200 && response.status() !== 201) return { response, document: null, duplicate: false };
  const parsed = uploadResult.parse(await response.json());
  return { response, document: parsed.document, duplicate: parsed.duplicate };
}

/** Polls GET /api/documents/:id until it is INDEXED or FAILED (or the time is up: then throws). */
export async function waitForFinal(ctx: APIRequestContext, id: string, timeoutMs = 90_000): Promise<ApiDocument> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    // A reused keep-alive connection the server has just closed answers ECONNRESET: that is the client's race,
    // not the server failing, so the poll simply asks again.
    const response = await ctx.get(`/api/documents/${id}`).catch((error: unknown) => {
      if (error instanceof Error && /ECONNRESET|socket hang up/.test(error.message)) return null;
      throw error;
    });
    if (response?.ok()) {
      const { document } = z.object({ document: documentSchema }).parse(await response.json());
      if (document.status === 'INDEXED' || document.status === 'FAILED') return document;
    }
    if (Date.now() > deadline) throw new Error(`document ${id} did not reach a final state in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

export const agentResultSchema = z
  .object({
    answerId: z.string(),
    answer: z.string(),
    conversationId: z.string().nullable(),
    citations: z.array(z.object({ chunkId: z.string(), documentId: z.string(), filename: z.string() }).loose()),
    status: z.string(),
    safetyFlags: z.array(z.string()),
  })
  .loose();
export type AgentRunResult = z.infer<typeof agentResultSchema>;

/** POST /api/agent/run and parse the finished result. */
export async function runAgent(ctx: APIRequestContext, body: Record<string, unknown>): Promise<AgentRunResult> {
  const response = await ctx.post('/api/agent/run', { data: body, timeout: 120_000 });
  if (!response.ok()) throw new Error(`agent run failed: ${response.status()} ${await response.text()}`);
  return agentResultSchema.parse(await response.json());
}

/** Nearest-rank percentile of a list of numbers (0 when empty). */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? 0;
}
