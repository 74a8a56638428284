import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '@/lib/errors';
import { createQdrantChunkIndex, type QdrantChunkIndexOptions } from '@/lib/retrieval/qdrant-chunk-index';
import { chunkToPoint, indexedText } from '@/lib/retrieval/qdrant-payload';
import {
  chunkPointId,
  collectionNameFor,
  createCollectionRequest,
  PAYLOAD_INDEXES,
} from '@/lib/retrieval/qdrant-requests';
import { documentVectorFromTerms } from '@/lib/retrieval/sparse-bm25';
import type { ChunkIndex, IndexedChunk } from '@/lib/retrieval/types';
import * as v3 from '@/test/support/retrieval/analyzer-v3';
import { type FakeQdrant, startFakeQdrant } from '@/test/support/retrieval/qdrant-fake-server';

/**
 * The adapter's HTTP conversation, checked against an in-memory fake of Qdrant's REST API (qdrant-fake-server.ts).
 * The real-server run is qdrant-chunk-index.contract.int.test.ts (QDRANT_URL).
 */

const MODEL = 'nomic-embed-text';
const COLLECTION = collectionNameFor('test', MODEL);

let fake: FakeQdrant;
const open: ChunkIndex[] = [];

beforeEach(async () => {
  fake = await startFakeQdrant();
});
afterEach(async () => {
  for (const index of open.splice(0)) await index.close();
  await fake.close();
});

async function makeIndex(extra: Partial<QdrantChunkIndexOptions> = {}): Promise<ChunkIndex> {
  const index = await createQdrantChunkIndex({
    url: fake.url,
    collectionPrefix: 'test',
    dimensions: 3,
    embeddingModel: MODEL,
    ...extra,
  });
  open.push(index);
  return index;
}

let counter = 0;
function chunk(overrides: Partial<IndexedChunk> = {}): IndexedChunk {
  counter++;
  return {
    chunkId: `chunk-${counter}`,
    documentId: 'doc-1',
    ownerId: 'alice',
    index: 0,
    text: 'Nothing to see here.',
    contextPrefix: '',
    tokenCount: 5,
    page: 1,
    sheet: null,
    rowStart: null,
    rowEnd: null,
    headingPath: null,
    charStart: 0,
    charEnd: 20,
    bucketId: 'bucket-a',
    mime: 'text/plain',
    filename: 'notes.txt',
    title: null,
    documentDate: '2024-05-01',
    tags: [],
    fields: {},
    vector: null,
    embeddingModel: null,
    ...overrides,
  };
}

const calls = () => fake.requests.map((r) => `${r.method} ${new URL(r.path, 'http://x').pathname}`);

describe('collection setup', () => {
  it('creates the collection, then every payload index, before the first point', async () => {
    const index = await makeIndex();
    expect(fake.requests).toHaveLength(0); // lazy: nothing happens until first use
    await index.upsert([chunk({ text: 'The invoice is due.' })]);
    const base = `/collections/${COLLECTION}`;
    expect(calls()).toEqual([
      `GET ${base}/exists`,
      `PUT ${base}`,
      `GET ${base}`,
      ...PAYLOAD_INDEXES.map(() => `PUT ${base}/index`),
      `PUT ${base}/points`,
    ]);
    expect(fake.requests[1]?.body).toEqual(createCollectionRequest(3));
    expect(fake.requests.slice(3, 3 + PAYLOAD_INDEXES.length).map((r) => r.body)).toEqual(
      PAYLOAD_INDEXES.map((i) => ({ field_name: i.field_name, field_schema: i.field_schema })),
    );
    expect(fake.requests.at(-1)?.path).toContain('wait=true');
  });

  it('reuses an existing, complete collection without touching it', async () => {
    await (await makeIndex()).countChunks('alice');
    fake.requests.length = 0;
    const index = await makeIndex();
    await index.countChunks('alice');
    await index.close(); // waits for the background look for points of another analyser version
    expect(calls().slice(0, 2)).toEqual([`GET /collections/${COLLECTION}/exists`, `GET /collections/${COLLECTION}`]);
    expect(calls().slice(2).sort()).toEqual([
      `POST /collections/${COLLECTION}/points/count`,
      `POST /collections/${COLLECTION}/points/scroll`, // points of another analyser version: none
    ]);
  });

  it('rebuilds the sparse vectors of points written by an older analyser, and only those', async () => {
    const report = chunk({ chunkId: 'report', text: '营业收入（元） 4,755,785.11 公司负责人刘道骐', language: 'und' });
    const current = chunk({ chunkId: 'current', text: 'The invoice is due.' });
    const first = await makeIndex();
    await first.upsert([current]);
    // The report's point as analyser version 3 wrote it: no version in the payload, the Han run as one term.
    const { analyzer: _version, ...oldPayload } = chunkToPoint(report, { dimensions: 3 }).payload ?? {};
    const oldVector = documentVectorFromTerms(v3.analyze(indexedText(report)));
    const response = await fetch(`${fake.url}/collections/${COLLECTION}/points?wait=true`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        points: [{ id: chunkPointId('report'), vector: { bm25: oldVector }, payload: oldPayload }],
      }),
    });
    expect(response.ok).toBe(true);
    const keyword = (index: ChunkIndex, query: string) =>
      index.search({ ownerId: 'alice', query, mode: 'keyword', topK: 5 }).then((hits) => hits.map((h) => h.chunkId));
    expect(await keyword(first, '营业收入是多少?')).toEqual([]); // the stale vector cannot match

    fake.requests.length = 0;
    // The re-analysis runs in the background: with Qdrant slow to take the rewritten vectors, the restarted index
    // already answers, exactly for a query without the changed scripts, and says the rebuild is under way.
    const release = fake.holdNext({ method: 'PUT', path: `/collections/${COLLECTION}/points/vectors` });
    const restarted = await makeIndex();
    expect(await keyword(restarted, 'invoice')).toEqual(['current']);
    expect(await restarted.keywordIndexState?.('alice')).toEqual({ rebuilding: true, done: 0 });
    expect(await keyword(restarted, '营业收入是多少?')).toEqual([]); // not re-analysed yet: incomplete, and marked
    release();
    await vi.waitFor(async () => expect((await restarted.keywordIndexState?.('alice'))?.rebuilding).toBe(false));
    expect(await keyword(restarted, '营业收入是多少?')).toEqual(['report']);
    expect(await keyword(restarted, '公司负责人是谁?')).toEqual(['report']);
    expect(await keyword(restarted, 'invoice')).toEqual(['current']);
    const rewritten = fake.requests.filter((r) => r.path.includes('/points/vectors')).map((r) => r.body);
    expect(rewritten).toEqual([{ points: [expect.objectContaining({ id: chunkPointId('report') })] }]);
    const [stored] = await restarted.get('alice', ['report']);
    expect(stored?.text).toBe(report.text);

    // Marked current: the next start finds nothing to rebuild.
    fake.requests.length = 0;
    await (await makeIndex()).countChunks('alice');
    expect(calls().filter((c) => c.endsWith('/points/vectors'))).toEqual([]);
  });

  it('survives losing the creation race to another app instance', async () => {
    const index = await makeIndex();
    // The create takes effect (someone else made it) but this client gets Qdrant's 409.
    fake.failNext({ method: 'PUT', path: `/collections/${COLLECTION}` }, 409, 'Wrong input: already exists!', true);
    expect(await index.countChunks('alice')).toBe(0);
    expect(calls().filter((c) => c.endsWith('/index'))).toHaveLength(PAYLOAD_INDEXES.length);
  });

  it('refuses a collection whose dense size differs (another model under the same name)', async () => {
    await (await makeIndex({ dimensions: 3 })).countChunks('alice');
    const wrong = await makeIndex({ dimensions: 4 });
    await expect(wrong.countChunks('alice')).rejects.toThrow(/does not hold 4-dimension/);
  });

  it('reports Qdrant down as unavailable, then recovers on the next call', async () => {
    const down = await createQdrantChunkIndex({ url: 'http://127.0.0.1:9', dimensions: 3, embeddingModel: MODEL });
    const error = await down.countChunks('alice').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).code).toBe('unavailable:index');

    const index = await makeIndex();
    fake.failNext({ path: `/collections/${COLLECTION}/exists` }, 503, 'Service Unavailable: starting');
    await expect(index.countChunks('alice')).rejects.toThrow(/503.*starting/);
    expect(await index.countChunks('alice')).toBe(0);
  });

  it('re-creates a collection deleted behind its back and retries the call once', async () => {
    const index = await makeIndex();
    await index.upsert([chunk({ text: 'first' })]);
    await fetch(`${fake.url}/collections/${COLLECTION}`, { method: 'DELETE' });
    expect(await index.countChunks('alice')).toBe(0);
    await index.upsert([chunk({ text: 'second' })]);
    expect(await index.countChunks('alice')).toBe(1);
    expect(calls().filter((c) => c === `PUT /collections/${COLLECTION}`)).toHaveLength(2);
  });

  it("surfaces Qdrant's own error text (e.g. a strict-mode refusal)", async () => {
    const index = await makeIndex();
    await index.countChunks('alice');
    fake.failNext(
      { path: `/collections/${COLLECTION}/points/query` },
      400,
      'Bad request: Index required but not found for "foo"',
    );
    await expect(index.search({ ownerId: 'alice', query: 'invoice', mode: 'keyword', topK: 5 })).rejects.toThrow(
      /Index required but not found for "foo"/,
    );
  });
});

describe('writes and reads', () => {
  it('upserts in batches by count and overwrites by chunk id', async () => {
    const index = await makeIndex({ batch: { maxPoints: 128 } });
    const chunks = Array.from({ length: 300 }, (_, i) => chunk({ index: i, text: `Paragraph ${i} about invoices.` }));
    await index.upsert(chunks);
    expect(fake.requests.filter((r) => r.method === 'PUT' && r.path.includes('/points?')).length).toBe(3);
    expect(await index.countChunks('alice')).toBe(300);
    await index.upsert(chunks.slice(0, 10).map((c) => ({ ...c, text: 'Rewritten.' })));
    expect(await index.countChunks('alice')).toBe(300);
    const [first] = await index.get('alice', [chunks[0]?.chunkId ?? '']);
    expect(first?.text).toBe('Rewritten.');
  });

  it('get: asked order, once each, unknown ids and other owners answer as missing', async () => {
    const index = await makeIndex();
    const a1 = chunk({ text: 'alpha' });
    const a2 = chunk({ text: 'beta', vector: [1, 0, 0], embeddingModel: MODEL });
    const b1 = chunk({ ownerId: 'bob', text: 'bob secret' });
    await index.upsert([a1, a2, b1]);
    const got = await index.get('alice', [a2.chunkId, 'missing', b1.chunkId, a1.chunkId, a2.chunkId]);
    expect(got.map((c) => c.chunkId)).toEqual([a2.chunkId, a1.chunkId]);
    // The language detected at upsert is stored with the chunk ('und': too short to tell).
    expect(got[0]).toEqual({ ...a2, meta: {}, language: 'und' });
    expect(got[1]).toEqual({ ...a1, meta: {}, language: 'und' });
    expect(await index.get('bob', [a1.chunkId])).toEqual([]);
    expect(await index.get('alice', [])).toEqual([]);
    const retrieve = fake.requests.find((r) => r.method === 'POST' && r.path.endsWith('/points'));
    expect(retrieve?.body).toMatchObject({ with_payload: true, with_vector: ['dense'] });
  });

  it('deleteDocument removes only that owner’s document', async () => {
    const index = await makeIndex();
    await index.upsert([
      chunk({ documentId: 'd1' }),
      chunk({ documentId: 'd1' }),
      chunk({ documentId: 'd2' }),
      chunk({ documentId: 'd1', ownerId: 'bob' }),
    ]);
    await index.deleteDocument('alice', 'd1');
    expect(await index.countChunks('alice')).toBe(1);
    expect(await index.countChunks('bob')).toBe(1);
    const del = fake.requests.find((r) => r.path.includes('/points/delete'));
    expect(del?.body).toEqual({
      filter: {
        must: [
          { key: 'ownerId', match: { value: 'alice' } },
          { key: 'documentId', match: { any: ['d1'] } },
        ],
      },
    });
  });

  it('updateDocumentAttributes rewrites attributes so filters follow the move', async () => {
    const index = await makeIndex();
    const c = chunk({ documentId: 'd1', text: 'quarterly revenue report', bucketId: 'old' });
    await index.upsert([c, chunk({ documentId: 'd1', ownerId: 'bob', text: 'quarterly revenue', bucketId: 'old' })]);
    await index.updateDocumentAttributes('alice', 'd1', {
      bucketId: 'new',
      mime: 'text/plain',
      filename: 'renamed.txt',
      title: 'Q3',
      documentDate: '2024-09-30',
      tags: ['finance'],
      fields: { quarter: 'Q3' },
    });
    const search = (filters: object) =>
      index.search({ ownerId: 'alice', query: 'revenue', mode: 'keyword', topK: 5, filters });
    expect(await search({ bucketIds: ['old'] })).toEqual([]);
    const hits = await search({ bucketIds: ['new'], tags: ['finance'], fields: { quarter: 'Q3' } });
    expect(hits.map((h) => [h.chunkId, h.filename, h.title])).toEqual([[c.chunkId, 'renamed.txt', 'Q3']]);
    expect(await search({ dateFrom: '2024-09-30', dateTo: '2024-09-30' })).toHaveLength(1);
    expect(await search({ dateTo: '2024-09-29' })).toEqual([]);
    const [bobs] = await index.get('bob', [`chunk-${counter}`]);
    expect(bobs?.bucketId).toBe('old');
  });
});

describe('search', () => {
  it('keyword ranks by BM25, stays inside the owner, honours topK and includeText', async () => {
    const index = await makeIndex();
    const strong = chunk({ text: 'Invoice invoice invoice: totals for the invoice period.' });
    const weak = chunk({ text: 'One invoice mentioned among many other words about travel and weather reports.' });
    const none = chunk({ text: 'Completely unrelated gardening notes.' });
    const foreign = chunk({ ownerId: 'bob', text: 'Invoice invoice invoice invoice' });
    await index.upsert([strong, weak, none, foreign]);
    const hits = await index.search({ ownerId: 'alice', query: 'invoices', mode: 'keyword', topK: 10 });
    expect(hits.map((h) => h.chunkId)).toEqual([strong.chunkId, weak.chunkId]);
    expect(hits[0]?.scores.keyword).toBe(hits[0]?.score);
    expect(hits[0]?.text).toBeUndefined();
    expect(hits[0]?.snippet).toContain('Invoice');
    const top1 = await index.search({
      ownerId: 'alice',
      query: 'invoice',
      mode: 'keyword',
      topK: 1,
      includeText: true,
    });
    expect(top1).toHaveLength(1);
    expect(top1[0]?.text).toBe(strong.text);
    expect(await index.search({ ownerId: 'alice', query: 'the of and', mode: 'keyword', topK: 5 })).toEqual([]);
  });

  it('chunks indexed without a vector are keyword-only until setVectors back-fills them', async () => {
    const index = await makeIndex();
    const c = chunk({ text: 'Kubernetes upgrade runbook' });
    await index.upsert([c]);
    const semantic = {
      ownerId: 'alice',
      query: 'cluster upgrade',
      mode: 'semantic' as const,
      topK: 5,
      queryVector: [1, 0, 0],
    };
    expect(await index.search(semantic)).toEqual([]);
    await index.setVectors('alice', MODEL, [{ chunkId: c.chunkId, vector: [0.9, 0.1, 0] }]);
    const hits = await index.search(semantic);
    expect(hits.map((h) => h.chunkId)).toEqual([c.chunkId]);
    expect(hits[0]?.scores.semantic).toBeGreaterThan(0.9);
    const [stored] = await index.get('alice', [c.chunkId]);
    expect(stored?.vector).toEqual([0.9, 0.1, 0]);
    expect(stored?.embeddingModel).toBe(MODEL);
  });

  it('setVectors never writes onto another owner’s chunk, ignores deleted ones and checks the vector size', async () => {
    const index = await makeIndex();
    const bobs = chunk({ ownerId: 'bob', text: 'bob only' });
    await index.upsert([bobs]);
    await index.setVectors('alice', MODEL, [
      { chunkId: bobs.chunkId, vector: [1, 0, 0] },
      { chunkId: 'deleted-chunk', vector: [1, 0, 0] },
    ]);
    const [stillBare] = await index.get('bob', [bobs.chunkId]);
    expect(stillBare?.vector).toBeNull();
    expect(fake.requests.some((r) => r.path.includes('/points/vectors'))).toBe(false);
    await expect(index.setVectors('bob', MODEL, [{ chunkId: bobs.chunkId, vector: [1, 0] }])).rejects.toThrow(
      /3 finite/,
    );
  });

  it('hybrid: one batch of a sparse and a dense search, each with the owner filter, fused by RRF (k=60)', async () => {
    const index = await makeIndex();
    const both = chunk({ text: 'password rotation policy', vector: [1, 0, 0], embeddingModel: MODEL });
    const keywordOnly = chunk({ text: 'password reset form', vector: [0, 1, 0], embeddingModel: MODEL });
    const semanticOnly = chunk({ text: 'credential lifecycle', vector: [0.95, 0.05, 0], embeddingModel: MODEL });
    const foreign = chunk({ ownerId: 'bob', text: 'password rotation', vector: [1, 0, 0], embeddingModel: MODEL });
    await index.upsert([both, keywordOnly, semanticOnly, foreign]);
    const hits = await index.search({
      ownerId: 'alice',
      query: 'password rotation',
      mode: 'hybrid',
      topK: 10,
      queryVector: [1, 0, 0],
    });
    expect(hits[0]?.chunkId).toBe(both.chunkId);
    expect(hits[0]?.score).toBeCloseTo(2 / 61, 10);
    expect(hits[0]?.scores.keyword).toBeGreaterThan(0);
    expect(hits[0]?.scores.semantic).toBeCloseTo(1, 6);
    expect(new Set(hits.map((h) => h.chunkId))).toEqual(
      new Set([both.chunkId, keywordOnly.chunkId, semanticOnly.chunkId]),
    );
    expect(hits.every((h) => h.scores.hybrid === h.score)).toBe(true);
    const batches = fake.requests.filter((r) => r.path.includes('/points/query'));
    expect(batches.map((r) => new URL(r.path, 'http://x').pathname)).toEqual([
      `/collections/${COLLECTION}/points/query/batch`,
    ]);
    const owner = { must: [{ key: 'ownerId', match: { value: 'alice' } }] };
    expect(batches[0]?.body).toMatchObject({
      searches: [
        { using: 'bm25', filter: owner, limit: 50 },
        { using: 'dense', filter: owner, limit: 50, query: [1, 0, 0] },
      ],
    });
  });

  it('empty any-of filters answer nothing without asking Qdrant', async () => {
    const index = await makeIndex();
    await index.upsert([chunk({ text: 'budget' })]);
    const before = fake.requests.length;
    expect(
      await index.search({ ownerId: 'alice', query: 'budget', mode: 'keyword', topK: 5, filters: { bucketIds: [] } }),
    ).toEqual([]);
    expect(fake.requests.length).toBe(before);
  });

  it('perTenantIdf sends the owner as IDF corpus', async () => {
    const index = await makeIndex({ perTenantIdf: true });
    await index.upsert([chunk({ text: 'budget forecast' })]);
    const hits = await index.search({ ownerId: 'alice', query: 'budget', mode: 'keyword', topK: 3 });
    expect(hits).toHaveLength(1);
    const query = fake.requests.filter((r) => r.path.includes('/points/query')).at(-1)?.body;
    expect(query).toMatchObject({
      params: { idf: { corpus: { must: [{ key: 'ownerId', match: { value: 'alice' } }] } } },
    });
  });

  it("by default one tenant's documents never shift another tenant's keyword scores", async () => {
    const scoreFor = async (index: ChunkIndex) =>
      (await index.search({ ownerId: 'alice', query: 'budget', mode: 'keyword', topK: 3 }))[0]?.scores.keyword;
    const isolated = await makeIndex();
    await isolated.upsert([chunk({ text: 'budget forecast' }), chunk({ text: 'travel policy' })]);
    const before = await scoreFor(isolated);
    await isolated.upsert(
      Array.from({ length: 6 }, (_, i) => chunk({ ownerId: 'bob', documentId: `bob-${i}`, text: 'budget budget' })),
    );
    expect(before).toBeGreaterThan(0);
    expect(await scoreFor(isolated)).toBeCloseTo(before ?? 0, 10);

    // with collection-wide IDF (QDRANT_TENANT_IDF=false) bob's corpus lowers alice's score for the same term
    const shared = await makeIndex({ perTenantIdf: false, collectionPrefix: 'shared' });
    await shared.upsert([chunk({ text: 'budget forecast' }), chunk({ text: 'travel policy' })]);
    const alone = await scoreFor(shared);
    await shared.upsert(
      Array.from({ length: 6 }, (_, i) => chunk({ ownerId: 'bob', documentId: `bob-${i}`, text: 'budget budget' })),
    );
    expect(await scoreFor(shared)).toBeLessThan(alone ?? 0);
  });

  it('uses deterministic point ids', async () => {
    const index = await makeIndex();
    const c = chunk();
    await index.upsert([c]);
    const upsert = fake.requests.find((r) => r.method === 'PUT' && r.path.includes('/points?'));
    expect(JSON.stringify(upsert?.body)).toContain(chunkPointId(c.chunkId));
  });
});

describe('health', () => {
  it('ok with version and collection state; not ok, quickly, when nothing answers', async () => {
    const index = await makeIndex();
    expect(await index.health()).toEqual({
      ok: true,
      engine: 'qdrant',
      detail: `Qdrant 1.19.0-fake at ${fake.url}, collection ${COLLECTION} not created yet`,
    });
    const down = await createQdrantChunkIndex({
      url: 'http://user:secret@127.0.0.1:9',
      dimensions: 3,
      embeddingModel: MODEL,
      healthTimeoutMs: 500,
    });
    const started = Date.now();
    const health = await down.health();
    expect(Date.now() - started).toBeLessThan(2000);
    expect(health.ok).toBe(false);
    expect(health.engine).toBe('qdrant');
    expect(health.detail).not.toContain('secret');
  });

  it('refuses to work after close()', async () => {
    const index = await makeIndex();
    await index.close();
    await expect(index.countChunks('alice')).rejects.toThrow(/closed/);
  });
});
