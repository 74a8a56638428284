import { beforeAll, describe, expect, it } from 'vitest';
import * as authRoute from '@/app/api/auth/[...all]/route';
import * as chatRoute from '@/app/api/chat/route';
import * as documentRoute from '@/app/api/documents/[id]/route';
import { ensureDbReady } from '@/lib/db/lifecycle';
import { createTestDocument } from '@/test/factories';

/**
 * Issue 14, request sizes, through the real route handlers: an oversize body is refused with 413 before it is
 * buffered (declared or streamed), on the signed-in JSON routes and on the signed-out Better Auth route.
 */

const ORIGIN = 'http://localhost:3000';
let cookie = '';
let userId = '';

function streamOf(totalBytes: number, chunkBytes = 64 * 1024) {
  const seen = { sent: 0, cancelled: false };
  const chunk = new TextEncoder().encode('a'.repeat(chunkBytes));
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.sent >= totalBytes) return controller.close();
      seen.sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

function post(path: string, body: BodyInit, headers: Record<string, string> = {}, method = 'POST'): Request {
  return new Request(`${ORIGIN}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin: ORIGIN, host: 'localhost:3000', cookie, ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

beforeAll(async () => {
  await ensureDbReady();
  const email = `limits-${Date.now()}@example.test`;
  const response = await authRoute.POST(
    post('/api/auth/sign-up/email', JSON.stringify({ email, password: 'a-long-password-1', name: 'Limits' }), {
      'x-forwarded-for': '10.202.0.1',
    }),
  );
  // the body reached Better Auth intact: the account exists (sign-up opens no session; signing in does)
  expect(response.status).toBe(200);
  const signIn = await authRoute.POST(
    post('/api/auth/sign-in/email', JSON.stringify({ email, password: 'a-long-password-1' }), {
      'x-forwarded-for': '10.202.0.1',
    }),
  );
  expect(signIn.status).toBe(200);
  cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  userId = ((await signIn.json()) as { user: { id: string } }).user.id;
});

describe('request size limits', () => {
  it('signs up through the capped Better Auth route (the body is handed on intact)', () => {
    expect(cookie).toMatch(/session_token=/);
    expect(userId).toBeTruthy();
  });

  it('refuses a 16 MB metadata PATCH fast, streamed without Content-Length', async () => {
    const doc = await createTestDocument(userId);
    const { stream, seen } = streamOf(16 * 1024 * 1024);
    const started = performance.now();
    const response = await documentRoute.PATCH(post(`/api/documents/${doc.id}`, stream, {}, 'PATCH'), {
      params: Promise.resolve({ id: doc.id }),
    });
    const ms = performance.now() - started;
    expect(response.status).toBe(413);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('payload_too_large:request');
    expect(body.error.message).toMatch(/64 KiB/);
    expect(seen.sent).toBeLessThanOrEqual(3 * 64 * 1024);
    expect(seen.cancelled).toBe(true);
    expect(ms).toBeLessThan(2000);
  });

  it('refuses a declared 16 MB PATCH by its Content-Length', async () => {
    const doc = await createTestDocument(userId);
    const { stream, seen } = streamOf(16 * 1024 * 1024);
    const response = await documentRoute.PATCH(
      post(`/api/documents/${doc.id}`, stream, { 'content-length': String(16 * 1024 * 1024) }, 'PATCH'),
      { params: Promise.resolve({ id: doc.id }) },
    );
    expect(response.status).toBe(413);
    expect(seen.sent).toBeLessThanOrEqual(64 * 1024);
  });

  it('answers malformed JSON with 400, a wrong type with 415 and a long title with 422 naming the field', async () => {
    const doc = await createTestDocument(userId);
    const params = { params: Promise.resolve({ id: doc.id }) };
    const bad = await documentRoute.PATCH(post(`/api/documents/${doc.id}`, '{"metadata":', {}, 'PATCH'), params);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('invalid_json:request');
    const form = await documentRoute.PATCH(
      post(`/api/documents/${doc.id}`, 'a=1', { 'content-type': 'application/x-www-form-urlencoded' }, 'PATCH'),
      params,
    );
    expect(form.status).toBe(415);
    const long = await documentRoute.PATCH(
      post(`/api/documents/${doc.id}`, JSON.stringify({ metadata: { title: 'x'.repeat(301) } }), {}, 'PATCH'),
      params,
    );
    expect(long.status).toBe(422);
    const body = (await long.json()) as { error: { fields: { path: string }[]; details: { fields: object } } };
    expect(body.error.fields.map((f) => f.path)).toEqual(['metadata.title']);
    expect(Object.keys(body.error.details.fields)).toEqual(['metadata.title']);
  });

  it('refuses too many metadata fields with 422', async () => {
    const doc = await createTestDocument(userId);
    const fields = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, 'v']));
    const response = await documentRoute.PATCH(
      post(`/api/documents/${doc.id}`, JSON.stringify({ metadata: { fields } }), {}, 'PATCH'),
      { params: Promise.resolve({ id: doc.id }) },
    );
    expect(response.status).toBe(422);
  });

  it('refuses an oversize chat body with 413 before the agent runs', async () => {
    const { stream } = streamOf(2 * 1024 * 1024);
    const response = await chatRoute.POST(post('/api/chat', stream), { params: Promise.resolve({}) });
    expect(response.status).toBe(413);
  });

  it('refuses an oversize sign-up body before Better Auth reads it, declared or streamed', async () => {
    const declared = await authRoute.POST(
      post('/api/auth/sign-up/email', 'x'.repeat(20 * 1024), { 'x-forwarded-for': '10.202.0.2' }),
    );
    expect(declared.status).toBe(413);
    const { stream, seen } = streamOf(8 * 1024 * 1024);
    const streamed = await authRoute.POST(post('/api/auth/sign-up/email', stream, { 'x-forwarded-for': '10.202.0.3' }));
    expect(streamed.status).toBe(413);
    expect(((await streamed.json()) as { error: { code: string } }).error.code).toBe('payload_too_large:request');
    expect(seen.sent).toBeLessThanOrEqual(2 * 64 * 1024);
  });

  it('lets a GET through the capped auth route untouched', async () => {
    const response = await authRoute.GET(
      new Request(`${ORIGIN}/api/auth/get-session`, { headers: { cookie, origin: ORIGIN } }),
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { user: { id: string } }).user.id).toBe(userId);
  });
});
