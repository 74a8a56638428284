import { beforeAll, describe, expect, it } from 'vitest';
import * as schemaRoute from '@/app/api/buckets/[id]/schema/route';
import * as typedRoute from '@/app/api/documents/[id]/typed-metadata/route';
import { getDb } from '@/lib/db/client';
import { ensureDbReady } from '@/lib/db/lifecycle';
import { getChunkIndex } from '@/lib/services';
import { createTestDocument, createTestUser } from '@/test/factories';
import { makeContractChunk } from '@/test/support/retrieval/contract';

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
  const { getAuth } = await import('@/lib/auth/auth');
  const email = `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.test`;
  const post = (path: string, body: unknown) =>
    getAuth().handler(
      new Request(`${ORIGIN}/api/auth${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: ORIGIN },
        body: JSON.stringify(body),
      }),
    );
  // sign-up opens no session (it answers alike for a taken email): sign in next
  expect((await post('/sign-up/email', { email, password: 'a-long-password-1', name: label })).status).toBe(200);
  const signIn = await post('/sign-in/email', { email, password: 'a-long-password-1' });
  expect(signIn.status).toBe(200);
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, id: ((await signIn.json()) as { user: { id: string } }).user.id };
}

let alice: { cookie: string; id: string };
let bucketId = '';
let documentId = '';
// Another user's bucket and document, which Alice's requests must not reach.
let bobBucketId = '';
let bobDocumentId = '';

beforeAll(async () => {
  await ensureDbReady();
  alice = await signUp('typed-alice');
  const bob = await createTestUser('typed-bob');
  bobBucketId = (await getDb().bucket.create({ data: { ownerId: bob.id, name: 'invoices' } })).id;
  bobDocumentId = (await createTestDocument(bob.id, { status: 'INDEXED', bucketId: bobBucketId })).id;
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
    const put = await schemaRoute.PATCH(
      request(`/api/buckets/${bucketId}/schema`, alice.cookie, 'PATCH', schema),
      at(bucketId),
    );
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ schema, extracted: 0 });

    const bad = await schemaRoute.PATCH(
      request(`/api/buckets/${bucketId}/schema`, alice.cookie, 'PATCH', {
        fields: [{ name: 'Total Amount', type: 'money' }],
      }),
      at(bucketId),
    );
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain('fields.0.name');

    const other = await schemaRoute.GET(request(`/api/buckets/${bobBucketId}/schema`, alice.cookie), at(bobBucketId));
    expect(other.status).toBe(404);
    const otherPut = await schemaRoute.PATCH(
      request(`/api/buckets/${bobBucketId}/schema`, alice.cookie, 'PATCH', schema),
      at(bobBucketId),
    );
    expect(otherPut.status).toBe(404);
    const missing = await schemaRoute.GET(
      request('/api/buckets/00000000-0000-4000-8000-000000000000/schema', alice.cookie),
      at('00000000-0000-4000-8000-000000000000'),
    );
    expect(await missing.json()).toEqual(await other.json());
  });

  it("validates a document's typed values against its bucket's schema", async () => {
    const path = `/api/documents/${documentId}/typed-metadata`;
    const bad = await typedRoute.PATCH(
      request(path, alice.cookie, 'PATCH', { values: { total_amount: 'lots' } }),
      at(documentId),
    );
    expect(bad.status).toBe(422);
    expect(JSON.stringify(await bad.json())).toContain('total_amount must be a number');

    // The document's chunk is in the index (without typed values yet): a hand edit reaches it at once.
    const index = await getChunkIndex();
    const chunk = makeContractChunk({ ownerId: alice.id, documentId, bucketId, text: 'invoice from acme' });
    await index.upsert([chunk]);
    const over1000 = async () =>
      index.search({
        ownerId: alice.id,
        query: 'invoice acme',
        mode: 'keyword',
        topK: 5,
        filters: { meta: [{ field: 'total_amount', type: 'number', op: '>', values: [1000] }] },
      });
    expect(await over1000()).toEqual([]);

    const ok = await typedRoute.PATCH(
      request(path, alice.cookie, 'PATCH', { values: { total_amount: 1500, issued: '2023-03-02' } }),
      at(documentId),
    );
    expect(ok.status).toBe(200);
    expect((await over1000()).map((hit) => hit.chunkId)).toEqual([chunk.chunkId]);
    const got = await typedRoute.GET(request(path, alice.cookie), at(documentId));
    expect(await got.json()).toMatchObject({
      bucketId,
      meta: { values: { total_amount: 1500, issued: '2023-03-02' }, evidence: { total_amount: { source: 'manual' } } },
    });
    const bobPath = `/api/documents/${bobDocumentId}/typed-metadata`;
    expect((await typedRoute.GET(request(bobPath, alice.cookie), at(bobDocumentId))).status).toBe(404);
    const bobPut = await typedRoute.PATCH(
      request(bobPath, alice.cookie, 'PATCH', { values: { total_amount: 1 } }),
      at(bobDocumentId),
    );
    expect(bobPut.status).toBe(404);
  });
});
