import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_BM25_PARAMS } from '@/lib/retrieval/embedded/bm25-index';
import { compileFilters } from '@/lib/retrieval/embedded/filter-predicate';
import type { ResolvedTerm, ScoringGeneration } from '@/lib/retrieval/embedded/keyword-scoring';
import type { SegmentDoc, SegmentReader } from '@/lib/retrieval/embedded/keyword-segment';
import { type KeywordScoringPool, KeywordStore, segmentDoc } from '@/lib/retrieval/embedded/keyword-store';
import {
  type FromWorker,
  generationMessage,
  serveKeywordSearches,
  type ToWorker,
} from '@/lib/retrieval/embedded/keyword-worker-main';
import type { StoredChunk } from '@/lib/retrieval/embedded/lance-rows';
import type { ScoredSlot } from '@/lib/retrieval/embedded/top-k';
import type { SearchFilters } from '@/lib/retrieval/types';
import { storedChunk } from '@/test/support/retrieval/stored-chunk';

// The search worker's message protocol, served in this thread over a MessageChannel (the pool's threads are
// exercised in keyword-pool.int.test.ts): the worker scores exactly like the owner's thread, from views of the
// shared memory it is sent once per generation, and forgets a generation when told to.

const root = mkdtempSync(path.join(tmpdir(), 'keyword-worker-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;

function record(id: number, text: string, bucketId: string): StoredChunk {
  const contextPrefix = id % 4 === 0 ? `w${id % 9} heading` : '';
  return storedChunk({ chunkId: `${id}-c`, documentId: `doc-${id % 17}`, text, contextPrefix, bucketId });
}

/** The worker's side on one end of a channel; `ask` posts a message and waits for the reply to a search. */
function channelWorker(): { port: MessagePort; ask: (message: ToWorker) => Promise<FromWorker>; close: () => void } {
  const { port1, port2 } = new MessageChannel();
  serveKeywordSearches(port1);
  const waiting = new Map<number, (reply: FromWorker) => void>();
  port2.on('message', (reply: FromWorker) => {
    if (reply.type !== 'ready') waiting.get(reply.id)?.(reply);
  });
  return {
    port: port2,
    ask: (message) =>
      new Promise((resolve) => {
        if (message.type === 'search') waiting.set(message.id, resolve);
        port2.postMessage(message);
      }),
    close: () => {
      port1.close();
      port2.close();
    },
  };
}

/** A generation as the pool sends it, its segments keyed by position. */
const generationFor = (generation: ScoringGeneration): ToWorker => generationMessage(generation, (_reader, i) => i + 1);

/** A pool that records what a store hands it and declines (so the store scores in its own thread). */
function recordingPool(): KeywordScoringPool & { calls: { generation: ScoringGeneration; terms: ResolvedTerm[] }[] } {
  const calls: { generation: ScoringGeneration; terms: ResolvedTerm[] }[] = [];
  return {
    calls,
    takes: () => true,
    search: async (generation, terms) => {
      calls.push({ generation, terms: [...terms] });
      return null;
    },
    release: () => undefined,
    extraBytes: (_reader: SegmentReader) => 0,
  };
}

async function buildStore(seed: number, size: number): Promise<KeywordStore> {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  const word = () => `w${Math.floor(300 ** random()) - 1}`;
  const store = await KeywordStore.create(path.join(root, `store-${folders++}`));
  for (let from = 0; from < size; from += 700) {
    const docs: SegmentDoc[] = [];
    for (let i = from; i < Math.min(size, from + 700); i++) {
      const text = Array.from({ length: 3 + Math.floor(random() * 30) }, word).join(' ');
      docs.push(segmentDoc(record(i, text, `b${i % 3}`)));
    }
    await store.apply(docs, []);
  }
  await store.apply(
    [],
    Array.from({ length: 30 }, () => `${Math.floor(random() * size)}-c`),
  );
  return store;
}

const filterArbitrary: fc.Arbitrary<SearchFilters | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.record({ bucketIds: fc.subarray(['b0', 'b1', 'b2', 'b9']) }),
  fc.record({ documentIds: fc.subarray(['doc-1', 'doc-2', 'doc-5', 'doc-16']) }),
);

describe('keyword search worker', () => {
  it('scores every query exactly as the owner thread does (slots and scores), filters included', async () => {
    const store = await buildStore(7, 2_500);
    const pool = recordingPool();
    store.setScoringPool(pool);
    const worker = channelWorker();
    let sentGeneration = -1;
    let id = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 0, max: 300 }), { minLength: 1, maxLength: 10 }),
          fc.constantFrom(1, 10, 100),
          filterArbitrary,
          async (ranks, limit, filters) => {
            const query = new Map<string, number>();
            for (const rank of ranks) query.set(`w${rank}`, (query.get(`w${rank}`) ?? 0) + 1);
            const before = pool.calls.length;
            const inThread = await store.searchWith(query, limit, DEFAULT_BM25_PARAMS, filters, (hits) => hits);
            const predicate = compileFilters(filters);
            const reference = store.search(
              query,
              limit,
              DEFAULT_BM25_PARAMS,
              predicate ? (slot) => predicate(store.attributes(slot)) : undefined,
            );
            expect(inThread).toEqual(reference);
            if (pool.calls.length === before) {
              expect(inThread).toEqual([]); // no indexed term: nothing to score anywhere
              return;
            }
            const { generation, terms } = pool.calls[pool.calls.length - 1] as (typeof pool.calls)[number];
            if (generation.id !== sentGeneration) {
              worker.port.postMessage(generationFor(generation));
              sentGeneration = generation.id;
            }
            const reply = await worker.ask({
              type: 'search',
              id: ++id,
              generation: generation.id,
              terms,
              limit,
              filters,
            });
            if (reply.type !== 'result') throw new Error(`worker failed: ${JSON.stringify(reply)}`);
            const hits: ScoredSlot[] = [...reply.slots].map((slot, i) => ({ slot, score: reply.scores[i] as number }));
            expect(hits).toEqual(reference);
          },
        ),
        { numRuns: 150 },
      );
    } finally {
      worker.close();
      store.close();
    }
  });

  it('answers a query for a generation it was never sent, or has released, with a failure (not a crash)', async () => {
    const store = await buildStore(11, 800);
    const pool = recordingPool();
    store.setScoringPool(pool);
    await store.searchWith(new Map([['w1', 1]]), 10, DEFAULT_BM25_PARAMS, undefined, () => undefined);
    const { generation, terms } = pool.calls[0] as (typeof pool.calls)[number];
    const worker = channelWorker();
    try {
      const search: ToWorker = {
        type: 'search',
        id: 1,
        generation: generation.id,
        terms,
        limit: 10,
        filters: undefined,
      };
      expect((await worker.ask(search)).type).toBe('failed');
      worker.port.postMessage(generationFor(generation));
      expect((await worker.ask({ ...search, id: 2 })).type).toBe('result');
      worker.port.postMessage({ type: 'release', generation: generation.id } satisfies ToWorker);
      const after = await worker.ask({ ...search, id: 3 });
      expect(after).toMatchObject({ type: 'failed', reason: expect.stringMatching(/unknown generation/) });
    } finally {
      worker.close();
      store.close();
    }
  });
});
