import { beforeAll, describe, expect, it } from 'vitest';
import * as authRoute from '@/app/api/auth/[...all]/route';
import * as schemaRoute from '@/app/api/buckets/[id]/schema/route';
import * as typedRoute from '@/app/api/documents/[id]/typed-metadata/route';
import { getDb } from '@/lib/db/client';
import { ensureDbReady } from '@/lib/db/lifecycle';
import { createTestDocument } from '@/test/factories';

/**
 * The typed metadata routes, through the real handlers: a bucket's schema is validated (422 with field paths),
 * document values are validated against it, and another user's bucket or document answers 404 like a missing one.
 */

const ORIGIN = 'http://localhost:3000';

function request(path: string, cookie: string, method = 'GET', body?: unknown): Request {
  return new Request(`${ORIGIN}${path}`, {
    method,
    headers: { 'content-type': 'application/json', origin: ORIGIN, host: 'localhost:3000', cookie },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function signUp(label: string): Promise<{ cookie: string; id: string }> {
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const headers = { 'x-forwarded-for': `10.203.0.${Math.floor(Math.random() * 200) + 1}` };
  const body = JSON.stringify({ email, password: 'a-long-password-1', name: label });
  const post = (path: string, json: string) =>
    new Request(`${ORIGIN}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, host: 'localhost:3000', ...headers },
      body: json,
    });
  expect((await authRoute.POST(post('/api/auth/sign-up/email', body))).status).toBe(200);
  const signIn = await authRoute.POST(
    post('/api/auth/sign-in/email', JSON.stringify({ email, password: 'a-long-password-1' })),
  );
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, id: ((await signIn.json()) as { user: { id: string } }).user.id };
}

let alice: { cookie: string; id: string };
let bob: { cookie: string; id: string };
let bucketId = '';
let documentId = '';

beforeAll(async () => {
  await ensureDbReady();
  alice = await signUp('typed-alice');
  bob = await signUp('typed-bob');
  bucketId = (await getDb().bucket.create({ data: { ownerId: alice.id, name: 'invoices' } })).id;
  documentId = (await createTestDocument(alice.id, { status: 'INDEXED', bucketId })).id;
});

const at = (id: string) => ({ params: Promise.resolve({ id }) });
const schema = {
  fields: [
    { name: 'total_amount', type: 'number', required: true },
    { name: 'issued', type: 'date', required: false },
  ],
};

describe('typed metadata routes', () => {
  it('saves a schema, refuses a bad one with field paths, and answers 404 for another user', async () => {
    const put = await schemaRoute.PUT(
      request(`/api/buckets/${bucketId}/schema`, alice.cookie, 'PUT', schema),
      at(bucketId),
    );
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ schema, extracted: 0 });

    const bad = await schemaRoute.PUT(
      request(`/api/buckets/${bucketId}/schema`, alice.cookie, 'PUT', {
        fields: [{ name: 'Total Amount', type: 'money' }],
      }),
      at(bucketId),
    );
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain('fields.0.name');

    const other = await schemaRoute.GET(request(`/api/buckets/${bucketId}/schema`, bob.cookie), at(bucketId));
    expect(other.status).toBe(404);
    const otherPut = await schemaRoute.PUT(
      request(`/api/buckets/${bucketId}/schema`, bob.cookie, 'PUT', schema),
      at(bucketId),
    );
    expect(otherPut.status).toBe(404);
  });

  it("validates a document's typed values against its bucket's schema", async () => {
    const path = `/api/documents/${documentId}/typed-metadata`;
    const bad = await typedRoute.PUT(
      request(path, alice.cookie, 'PUT', { values: { total_amount: 'lots' } }),
      at(documentId),
    );
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain('total_amount must be a number');

    const ok = await typedRoute.PUT(
      request(path, alice.cookie, 'PUT', { values: { total_amount: 1500, issued: '2023-03-02' } }),
      at(documentId),
    );
    expect(ok.status).toBe(200);
    const got = await typedRoute.GET(request(path, alice.cookie), at(documentId));
    expect(await got.json()).toMatchObject({
      bucketId,
      meta: { values: { total_amount: 1500, issued: '2023-03-02' }, evidence: { total_amount: { source: 'manual' } } },
    });
    expect((await typedRoute.GET(request(path, bob.cookie), at(documentId))).status).toBe(404);
  });
});
