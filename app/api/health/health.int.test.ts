import { beforeAll, describe, expect, it } from 'vitest';
import { createTestDocument } from '@/test/factories';

/**
 * GET /api/health through the real route, Better Auth sessions included: signed out it says one word; signed in it
 * gives the details, with counts of the caller's own documents only.
 */

const APP = 'http://localhost:3000';
let GET: (request: Request) => Promise<Response>;

async function signUp(email: string): Promise<{ cookie: string; id: string }> {
  const { getAuth } = await import('@/lib/auth/auth');
  const post = (path: string, body: unknown) =>
    getAuth().handler(
      new Request(`${APP}/api/auth${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: APP },
        body: JSON.stringify(body),
      }),
    );
  // sign-up opens no session (it answers alike for a taken email): sign in next
  expect((await post('/sign-up/email', { email, password: 'a-long-password-1', name: 'Health' })).status).toBe(200);
  const response = await post('/sign-in/email', { email, password: 'a-long-password-1' });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { user: { id: string } };
  const cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, id: body.user.id };
}

beforeAll(async () => {
  process.env.OLLAMA_BASE_URL = 'http://127.0.0.1:9';
  process.env.APP_URL = APP;
  const { ensureDbReady } = await import('@/lib/db/client');
  await ensureDbReady();
  ({ GET } = await import('@/app/api/health/route'));
});

describe('GET /api/health', () => {
  it('signed out: only { status }, no paths, URLs, models or counts', async () => {
    const variants: Record<string, string>[] = [{}, { cookie: 'better-auth.session_token=forged.value' }];
    for (const headers of variants) {
      const response = await GET(new Request(`${APP}/api/health`, { headers }));
      expect(response.status).toBe(200);
      const text = await response.text();
      const body = JSON.parse(text) as Record<string, unknown>;
      expect(Object.keys(body)).toEqual(['status']);
      expect(['ok', 'degraded']).toContain(body.status);
      expect(text).not.toMatch(/\/|127\.0\.0\.1|qwen|nomic/);
    }
  });

  it('signed in: details, with counts of the caller only', async () => {
    const stamp = Date.now();
    const alice = await signUp(`health-alice-${stamp}@example.test`);
    const bob = await signUp(`health-bob-${stamp}@example.test`);
    await createTestDocument(alice.id, { status: 'INDEXED' });
    await createTestDocument(alice.id, { status: 'PENDING' });
    for (let i = 0; i < 3; i++) await createTestDocument(bob.id, { status: 'FAILED' });

    const read = async (cookie: string) => {
      const response = await GET(new Request(`${APP}/api/health`, { headers: { cookie } }));
      expect(response.status).toBe(200);
      return (await response.json()) as {
        status: string;
        llm: { baseURL: string; decisionModel: string };
        chunkIndex: { location: string };
        eventLoopDelay: { p99Ms: number; maxMs: number };
        yours: { documents: Record<string, number>; chunks: number; queueDepth: number };
      };
    };
    const a = await read(alice.cookie);
    expect(a.llm.baseURL).toBe('http://127.0.0.1:9');
    expect(a.chunkIndex.location).toMatch(/index/);
    expect(a.eventLoopDelay.maxMs).toBeGreaterThanOrEqual(0);
    expect(a.yours.documents).toEqual({ PENDING: 1, PROCESSING: 0, INDEXED: 1, FAILED: 0, total: 2 });
    expect(a.yours.queueDepth).toBe(1);
    const b = await read(bob.cookie);
    expect(b.yours.documents).toEqual({ PENDING: 0, PROCESSING: 0, INDEXED: 0, FAILED: 3, total: 3 });
    expect(JSON.stringify(b)).not.toContain(alice.id);
    expect(JSON.stringify(b)).not.toMatch(/owner tables/);
  });
});
