import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BucketMetaSchema } from '@/lib/domain/typed-meta';
import { createQdrantChunkIndex } from '@/lib/retrieval/qdrant-chunk-index';
import type { ChunkIndex } from '@/lib/retrieval/types';
import { makeChunk, makeDocument, OTHER_OWNER, OWNER } from '@/test/support/agent/fixtures';
import { createMemoryCatalog } from '@/test/support/agent/memory-catalog';
import { createMemoryChunkIndex } from '@/test/support/agent/memory-chunk-index';
import { startFakeQdrant } from '@/test/support/retrieval/qdrant-fake-server';
import { analyzeConstraints } from '../constraints';
import { resolveLimits } from '../limits';
import { defaultPlan } from '../plan';
import { createAgentState } from '../state';
import { createTools } from './registry';

/**
 * Typed filters in the search tools, over both chunk index adapters (the Qdrant adapter against the in-process
 * fake of its REST API, and the in-memory index): a typed filter narrows the search to the documents whose values
 * pass it, for this owner only, and is never relaxed when nothing matches.
 */

const schema: BucketMetaSchema = {
  fields: [
    { name: 'total_amount', type: 'number', required: true },
    { name: 'issued', type: 'date', required: true },
  ],
};
const bucket = { id: 'b-inv', name: 'invoices', metaSchema: schema, ownerId: OWNER };
const invoice = (filename: string, total: number, issued: string, ownerId = OWNER) =>
  makeDocument({
    filename,
    ownerId,
    bucketId: 'b-inv',
    bucketName: 'invoices',
    typed: { values: { total_amount: total, issued }, evidence: {} },
  });
const docs = [
  invoice('big-2023.md', 1500, '2023-03-02'),
  invoice('small-2023.md', 800, '2023-05-10'),
  invoice('big-2022.md', 2400, '2022-11-20'),
  invoice('other-owner-big-2023.md', 9000, '2023-06-01', OTHER_OWNER),
];
const chunks = docs.map((d) => makeChunk(d, 0, `Invoice ${d.filename}: ACME supplies, widgets and invoice totals.`));

let fake: Awaited<ReturnType<typeof startFakeQdrant>>;
const engines: Record<string, ChunkIndex> = {};

beforeAll(async () => {
  fake = await startFakeQdrant();
  engines.qdrant = await createQdrantChunkIndex({
    url: fake.url,
    collectionPrefix: 'typed',
    dimensions: 8,
    embeddingModel: 'test-model',
  });
  engines.memory = createMemoryChunkIndex();
  for (const index of Object.values(engines)) await index.upsert(chunks);
});

afterAll(async () => {
  await engines.qdrant?.close();
  await fake.close();
});

function toolsFor(index: ChunkIndex) {
  const question = 'invoice totals';
  const constraints = analyzeConstraints(question);
  const buckets = [bucket];
  const state = createAgentState({
    ownerId: OWNER,
    question,
    constraints,
    plan: defaultPlan(question, constraints, buckets, 'concise'),
    limits: resolveLimits(),
  });
  return createTools({
    ownerId: OWNER,
    index,
    catalog: createMemoryCatalog(docs, [bucket]),
    embedder: null,
    state,
    buckets,
    baseFilters: {},
    now: () => performance.now(),
    embedTimeoutMs: 1000,
  });
}

describe.each(['qdrant', 'memory'])('typed filters in search tools (%s index)', (engine) => {
  it('narrows hits to the owner documents whose typed values pass', async () => {
    const search = toolsFor(engines[engine] as ChunkIndex).get('search_text');
    const out = await search?.run(
      {
        tool: 'search_text',
        query: 'invoice widgets',
        filters: {
          meta: [
            { field: 'total_amount', op: '>', value: 1000 },
            { field: 'issued', op: 'between', value: ['2023-01-01', '2023-12-31'] },
          ],
        },
      },
      'c1',
    );
    expect(out?.ok).toBe(true);
    expect(out?.forModel).toContain('big-2023.md');
    expect(out?.forModel).not.toMatch(/small-2023|big-2022|other-owner/);
    expect(out?.summary).toContain('where total_amount > 1000 and issued between 2023-01-01 and 2023-12-31');
  });

  it('answers NO_RESULTS naming the typed filter instead of relaxing it', async () => {
    const search = toolsFor(engines[engine] as ChunkIndex).get('search_text');
    const out = await search?.run(
      {
        tool: 'search_text',
        query: 'invoice widgets',
        filters: { meta: [{ field: 'total_amount', op: '>=', value: 5000 }] },
      },
      'c2',
    );
    expect(out).toMatchObject({ ok: false, error: { code: 'NO_RESULTS' } });
    expect(out?.summary).toContain('with total_amount >= 5000');
  });
});
