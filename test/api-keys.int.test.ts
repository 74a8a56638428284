import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as keysRoute from '@/app/api/api-keys/route';
import * as bucketsRoute from '@/app/api/buckets/route';
import * as documentsRoute from '@/app/api/documents/route';
import { createApiKey, hashApiKey } from '@/lib/auth/api-keys';
import { listApiKeys, revokeApiKey } from '@/lib/db/api-keys';
import { getDb } from '@/lib/db/client';
import { ensureDbReady } from '@/lib/db/lifecycle';
import { createTestDocument, createTestUser } from '@/test/factories';

/**
 * Issue 19, API keys through the real route handlers: a key resolves to its owner exactly like a session,
 * scopes are enforced per route, keys never manage keys, and an unknown, malformed, revoked or expired key
 * answers exactly like no credentials. Only the hash is stored.
 */

const ORIGIN = 'http://localhost:3000';
const ctx = { params: Promise.resolve({}) };
let a = { id: '', doc: '' };
let b = { id: '', doc: '' };
let readKey = '';
let writeKey = '';
let bothKeyB = '';

function req(
  path: string,
  init: { method?: string; key?: string; body?: unknown; headers?: Record<string, string> } = {},
) {
  return new Request(`${ORIGIN}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      host: 'localhost:3000',
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
}

beforeAll(async () => {
  await ensureDbReady();
  const ua = await createTestUser('key-a');
  const ub = await createTestUser('key-b');
  a = { id: ua.id, doc: (await createTestDocument(ua.id, { filename: 'a-secret.txt' })).id };
  b = { id: ub.id, doc: (await createTestDocument(ub.id, { filename: 'b-own.txt' })).id };
  readKey = (await createApiKey({ ownerId: a.id, body: { name: 'ci read', scopes: ['read'], expiresInDays: 30 } })).key;
  writeKey = (await createApiKey({ ownerId: a.id, body: { name: 'ci write', scopes: ['write'] } })).key;
  bothKeyB = (await createApiKey({ ownerId: b.id, body: { name: 'b', scopes: ['read', 'write'] } })).key;
});

afterAll(async () => {
  await getDb().apiKey.deleteMany({ where: { ownerId: { in: [a.id, b.id] } } });
});

describe('API keys', () => {
  it('are stored as a SHA-256 hash only, with a display prefix', async () => {
    const rows = await getDb().apiKey.findMany({ where: { ownerId: a.id } });
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const row = rows.find((r) => r.hash === hashApiKey(readKey));
    expect(row).toBeDefined();
    expect(JSON.stringify(rows)).not.toContain(readKey.slice(10));
    expect(readKey.startsWith(row?.prefix ?? 'x')).toBe(true);
    expect(readKey).toMatch(/^dc_[A-Za-z0-9_-]{43}$/);
  });

  it("resolve to their owner: a key lists exactly its owner's documents", async () => {
    const asA = await documentsRoute.GET(req('/api/documents', { key: readKey }), ctx);
    expect(asA.status).toBe(200);
    const text = await asA.text();
    expect(text).toContain(a.doc);
    expect(text).not.toContain(b.doc);
    const asB = await (await documentsRoute.GET(req('/api/documents', { key: bothKeyB }), ctx)).text();
    expect(asB).toContain(b.doc);
    expect(asB).not.toContain(a.doc);
  });

  it('record when they were last used', async () => {
    const key = (await listApiKeys({ ownerId: a.id })).find((k) => k.name === 'ci read');
    expect(key?.lastUsedAt).not.toBeNull();
    expect(key?.scopes).toEqual(['read']);
  });

  it('enforce scopes: read cannot write, write cannot read', async () => {
    const create = await bucketsRoute.POST(
      req('/api/buckets', { method: 'POST', key: readKey, body: { name: 'x' } }),
      ctx,
    );
    expect(create.status).toBe(403);
    expect(await create.json()).toMatchObject({ error: { code: 'forbidden:auth' } });
    const list = await bucketsRoute.GET(req('/api/buckets', { key: writeKey }), ctx);
    expect(list.status).toBe(403);
    const ok = await bucketsRoute.POST(
      req('/api/buckets', { method: 'POST', key: writeKey, body: { name: 'from-ci' } }),
      ctx,
    );
    expect(ok.status).toBe(201);
  });

  it('need no Origin: a Bearer request carries no ambient credentials', async () => {
    const r = await bucketsRoute.POST(
      req('/api/buckets', {
        method: 'POST',
        key: writeKey,
        body: { name: 'from-elsewhere' },
        headers: { origin: 'https://ci.example', 'sec-fetch-site': 'cross-site' },
      }),
      ctx,
    );
    expect(r.status).toBe(201);
  });

  it('cannot list or create keys (session only)', async () => {
    const both = (await createApiKey({ ownerId: a.id, body: { name: 'both', scopes: ['read', 'write'] } })).key;
    expect((await keysRoute.GET(req('/api/api-keys', { key: both }), ctx)).status).toBe(403);
    const create = await keysRoute.POST(
      req('/api/api-keys', { method: 'POST', key: both, body: { name: 'escalate', scopes: ['read'] } }),
      ctx,
    );
    expect(create.status).toBe(403);
  });

  it('answer exactly like no credentials when unknown, malformed, revoked or expired', async () => {
    const revoked = await createApiKey({ ownerId: a.id, body: { name: 'revoked', scopes: ['read'] } });
    await revokeApiKey({ ownerId: a.id, id: revoked.apiKey.id });
    const expired = await createApiKey({
      ownerId: a.id,
      body: { name: 'expired', scopes: ['read'], expiresInDays: 1 },
    });
    await getDb().apiKey.update({ where: { id: expired.apiKey.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const answers = [];
    const variants: Record<string, string>[] = [
      {},
      { authorization: `Bearer dc_${'A'.repeat(43)}` },
      { authorization: 'Bearer nonsense' },
      { authorization: 'Basic Zm9vOmJhcg==' },
      { authorization: `Bearer ${revoked.key}` },
      { authorization: `Bearer ${expired.key}` },
    ];
    for (const headers of variants) {
      const r = await documentsRoute.GET(req('/api/documents', { headers }), ctx);
      answers.push([r.status, await r.text()]);
    }
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]?.[0]).toBe(401);
  });

  it("revoking another user's key answers like a missing key", async () => {
    const bKey = (await listApiKeys({ ownerId: b.id }))[0];
    await expect(revokeApiKey({ ownerId: a.id, id: bKey?.id ?? '' })).rejects.toMatchObject({ code: 'not_found:auth' });
    await expect(revokeApiKey({ ownerId: a.id, id: crypto.randomUUID() })).rejects.toMatchObject({
      code: 'not_found:auth',
    });
    expect((await listApiKeys({ ownerId: b.id }))[0]?.active).toBe(true);
  });

  it('stop at 25 active keys per user, also when created at once; a revoked or expired key frees its place', async () => {
    const owner = await createTestUser('key-cap');
    const created = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) =>
        createApiKey({ ownerId: owner.id, body: { name: `k${i}`, scopes: ['read'], expiresInDays: null } }),
      ),
    );
    const made = created.filter((r) => r.status === 'fulfilled');
    const refused = created.filter((r) => r.status === 'rejected');
    expect(made.length).toBeLessThanOrEqual(25);
    for (const r of refused) expect(String(r.reason)).toMatch(/25 active keys; revoke one first/);
    // fill up to the cap one by one, then one more is refused
    while ((await listApiKeys({ ownerId: owner.id })).length < 25)
      await createApiKey({ ownerId: owner.id, body: { name: 'fill', scopes: ['read'], expiresInDays: null } });
    expect(await listApiKeys({ ownerId: owner.id })).toHaveLength(25);
    await expect(
      createApiKey({ ownerId: owner.id, body: { name: 'over', scopes: ['read'], expiresInDays: null } }),
    ).rejects.toThrow(/25 active keys/);
    expect(await listApiKeys({ ownerId: owner.id })).toHaveLength(25);
    // through the route: 409 with the reason
    const one = (await listApiKeys({ ownerId: owner.id }))[0];
    await revokeApiKey({ ownerId: owner.id, id: one?.id ?? '' });
    const again = await createApiKey({
      ownerId: owner.id,
      body: { name: 'after revoke', scopes: ['read'], expiresInDays: null },
    });
    expect(again.key).toMatch(/^dc_/);
    await getDb().apiKey.updateMany({
      where: { ownerId: owner.id, name: 'after revoke' },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const afterExpiry = await createApiKey({
      ownerId: owner.id,
      body: { name: 'after expiry', scopes: ['read'], expiresInDays: null },
    });
    expect(afterExpiry.key).toMatch(/^dc_/);
    await getDb().apiKey.deleteMany({ where: { ownerId: owner.id } });
  });
});
