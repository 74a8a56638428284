import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import * as authRoute from '@/app/api/auth/[...all]/route';
import * as uploadRoute from '@/app/api/documents/upload/route';
import { getConfig } from '@/lib/config';
import { ensureDbReady } from '@/lib/db/lifecycle';
import { readStorageUsage } from '@/lib/db/storage-usage';

/**
 * Issue 14, per-user storage quota, through the real upload route handler: refused before the body is read when
 * the documents are used up or Content-Length does not fit, stopped at the space left while streaming (nothing
 * stays on disk), 413 `quota_exceeded:upload` saying what is used and allowed; other users are not affected.
 */

// Small quotas for this file only (the configuration is read on first use, after this line).
process.env.QUOTA_MAX_BYTES = String(300 * 1024);
process.env.QUOTA_MAX_DOCUMENTS = '3';

const ORIGIN = 'http://localhost:3000';
const KB = 1024;

function streamOf(totalBytes: number, chunkBytes = 16 * KB) {
  const seen = { sent: 0, cancelled: false };
  let line = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.sent >= totalBytes) return controller.close();
      let text = '';
      while (text.length < chunkBytes) text += `line ${line++} of a plain text file about quotas\n`;
      const chunk = new TextEncoder().encode(text.slice(0, Math.min(chunkBytes, totalBytes - seen.sent)));
      seen.sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

function request(cookie: string, pathname: string, body: BodyInit, headers: Record<string, string> = {}): Request {
  return new Request(`${ORIGIN}${pathname}`, {
    method: 'POST',
    headers: { origin: ORIGIN, host: 'localhost:3000', cookie, ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

async function signUp(name: string, ip: string): Promise<{ cookie: string; id: string }> {
  const email = `${name}-${Date.now()}@example.test`;
  const response = await authRoute.POST(
    request('', '/api/auth/sign-up/email', JSON.stringify({ email, password: 'a-long-password-1', name }), {
      'content-type': 'application/json',
      'x-forwarded-for': ip,
    }),
  );
  expect(response.status).toBe(200);
  // sign-up opens no session (it answers alike for a taken email): sign in next
  const signIn = await authRoute.POST(
    request('', '/api/auth/sign-in/email', JSON.stringify({ email, password: 'a-long-password-1' }), {
      'content-type': 'application/json',
      'x-forwarded-for': ip,
    }),
  );
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, id: ((await signIn.json()) as { user: { id: string } }).user.id };
}

async function upload(
  cookie: string,
  fileName: string,
  body: BodyInit,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { error?: { code: string; message: string; details?: Record<string, number> } } }> {
  const response = await uploadRoute.POST(
    request(cookie, '/api/documents/upload', body, {
      'content-type': 'text/plain',
      'x-file-name': fileName,
      ...headers,
    }),
    { params: Promise.resolve({}) },
  );
  return { status: response.status, body: (await response.json()) as never };
}

function textOf(bytes: number, seed: string): string {
  let text = '';
  for (let i = 0; text.length < bytes; i++) text += `${seed} line ${i}\n`;
  return text.slice(0, bytes);
}

function storedFiles(): number {
  const dir = getConfig().uploadsDir;
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true }).filter((f) => fs.statSync(path.join(dir, String(f))).isFile()).length;
}

let alice: { cookie: string; id: string };
let bob: { cookie: string; id: string };

beforeAll(async () => {
  await ensureDbReady();
  alice = await signUp('quota-alice', '10.203.0.1');
  bob = await signUp('quota-bob', '10.203.0.2');
  expect(getConfig().quota).toEqual({ maxBytes: 300 * KB, maxDocuments: 3 });
});

describe('per-user storage quota at upload', () => {
  it('accepts uploads that fit', async () => {
    expect((await upload(alice.cookie, 'a.txt', textOf(100 * KB, 'a'))).status).toBe(201);
    expect((await upload(alice.cookie, 'b.txt', textOf(150 * KB, 'b'))).status).toBe(201);
    expect(await readStorageUsage({ ownerId: alice.id })).toEqual({ bytes: 250 * KB, documents: 2 });
  });

  it('refuses a declared Content-Length over the space left before reading the body', async () => {
    const { stream, seen } = streamOf(80 * KB);
    const refused = await upload(alice.cookie, 'big.txt', stream, { 'content-length': String(80 * KB) });
    expect(refused.status).toBe(413);
    expect(refused.body.error?.code).toBe('quota_exceeded:upload');
    expect(refused.body.error?.message).toBe(
      'This file does not fit in your storage quota (250 KB of 300 KB · 2 of 3 documents; 50 KB left, the file is 80 KB). Delete documents to make room.',
    );
    expect(refused.body.error?.details).toEqual({
      usedBytes: 250 * KB,
      maxBytes: 300 * KB,
      usedDocuments: 2,
      maxDocuments: 3,
    });
    expect(seen.sent).toBeLessThanOrEqual(16 * KB);
  });

  it('stops a streamed upload (no Content-Length) at the space left and keeps nothing of it', async () => {
    const before = storedFiles();
    const { stream, seen } = streamOf(5 * 1024 * KB);
    const refused = await upload(alice.cookie, 'endless.txt', stream);
    expect(refused.status).toBe(413);
    expect(refused.body.error?.code).toBe('quota_exceeded:upload');
    expect(refused.body.error?.message).toMatch(/250 KB of 300 KB · 2 of 3 documents; 50 KB left\)/);
    expect(seen.sent).toBeLessThanOrEqual(50 * KB + 2 * 16 * KB);
    expect(storedFiles()).toBe(before);
    expect(await readStorageUsage({ ownerId: alice.id })).toEqual({ bytes: 250 * KB, documents: 2 });
  });

  it('refuses any upload once the document count is used up', async () => {
    expect((await upload(alice.cookie, 'c.txt', textOf(10 * KB, 'c'))).status).toBe(201);
    const refused = await upload(alice.cookie, 'd.txt', textOf(1 * KB, 'd'));
    expect(refused.status).toBe(413);
    expect(refused.body.error?.code).toBe('quota_exceeded:upload');
    expect(refused.body.error?.message).toBe(
      'Your document quota is full (260 KB of 300 KB · 3 of 3 documents). Delete documents to upload more.',
    );
  });

  it('counts each user on their own', async () => {
    expect((await upload(bob.cookie, 'bob.txt', textOf(290 * KB, 'bob'))).status).toBe(201);
    expect(await readStorageUsage({ ownerId: bob.id })).toEqual({ bytes: 290 * KB, documents: 1 });
  });
});
