import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_BM25_PARAMS } from '@/lib/retrieval/embedded/bm25-index';
import { compileFilters } from '@/lib/retrieval/embedded/filter-predicate';
import { KeywordPool } from '@/lib/retrieval/embedded/keyword-pool';
import type { SegmentDoc } from '@/lib/retrieval/embedded/keyword-segment';
import { KeywordStore, segmentDoc } from '@/lib/retrieval/embedded/keyword-store';
import type { StoredChunk } from '@/lib/retrieval/embedded/lance-rows';
import type { ScoredSlot } from '@/lib/retrieval/embedded/top-k';
import type { SearchFilters } from '@/lib/retrieval/types';
import { storedChunk } from '@/test/support/retrieval/stored-chunk';

// The keyword search pool with real worker threads over a real store: same answers as scoring in this thread,
// generations swapped and merged away under queries in flight, release on close (eviction), workers killed
// mid-query.

const root = mkdtempSync(path.join(tmpdir(), 'keyword-pool-'));
let folders = 0;
let pool: KeywordPool;

beforeAll(async () => {
  pool = new KeywordPool({ threads: 2, minPostings: 0 });
  await pool.whenReady();
});
afterAll(async () => {
  await pool.close();
  rmSync(root, { recursive: true, force: true });
});

function record(id: number, text: string): StoredChunk {
  const contextPrefix = id % 5 === 0 ? `w${id % 7} title` : '';
  return storedChunk({ chunkId: `${id}-c`, documentId: `doc-${id % 23}`, text, contextPrefix, bucketId: `b${id % 4}` });
}

function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

/** A store of `size` chunks of Zipf-distributed words in segments of `segmentSize`, with some deletes. */
async function buildStore(seed: number, size: number, segmentSize = 2_000): Promise<KeywordStore> {
  const random = randomFrom(seed);
  const word = () => `w${Math.floor(500 ** random()) - 1}`;
  const store = await KeywordStore.create(path.join(root, `store-${folders++}`));
  for (let from = 0; from < size; from += segmentSize) {
    const docs: SegmentDoc[] = [];
    for (let i = from; i < Math.min(size, from + segmentSize); i++)
      docs.push(segmentDoc(record(i, Array.from({ length: 5 + Math.floor(random() * 40) }, word).join(' '))));
    await store.apply(docs, []);
  }
  await store.apply(
    [],
    Array.from({ length: 50 }, () => `${Math.floor(random() * size)}-c`),
  );
  return store;
}

function queryOf(ranks: number[]): Map<string, number> {
  const query = new Map<string, number>();
  for (const rank of ranks) query.set(`w${rank}`, (query.get(`w${rank}`) ?? 0) + 1);
  return query;
}

function randomQueries(seed: number, count: number): Map<string, number>[] {
  const random = randomFrom(seed);
  return Array.from({ length: count }, () =>
    queryOf(Array.from({ length: 2 + Math.floor(random() * 9) }, () => Math.floor(60 ** random()))),
  );
}

function inThread(store: KeywordStore, query: Map<string, number>, limit: number, filters?: SearchFilters) {
  const predicate = compileFilters(filters);
  return store.search(
    query,
    limit,
    DEFAULT_BM25_PARAMS,
    predicate ? (slot) => predicate(store.attributes(slot)) : undefined,
  );
}

const pooled = (store: KeywordStore, query: Map<string, number>, limit: number, filters?: SearchFilters) =>
  store.searchWith(query, limit, DEFAULT_BM25_PARAMS, filters, (hits: ScoredSlot[]) => hits);

describe('keyword search pool (worker threads sharing the segments)', () => {
  it('answers every query exactly as scoring in this thread does (slots and scores, filters, k)', async () => {
    const store = await buildStore(3, 9_000);
    store.setScoringPool(pool);
    const answeredBefore = pool.stats.answered;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.integer({ min: 0, max: 500 }), { minLength: 1, maxLength: 12 }),
          fc.constantFrom(1, 10, 50, 1_000),
          fc.oneof(
            fc.constant(undefined),
            fc.record({ bucketIds: fc.subarray(['b0', 'b1', 'b2', 'b3', 'none']) }),
            fc.record({
              documentIds: fc.subarray(['doc-0', 'doc-3', 'doc-22']),
              mimeTypes: fc.constant<string[]>(['text/plain']),
            }),
          ),
          async (ranks, limit, filters: SearchFilters | undefined) => {
            const query = queryOf(ranks);
            expect(await pooled(store, query, limit, filters)).toEqual(inThread(store, query, limit, filters));
          },
        ),
        { numRuns: 120 },
      );
      // They were scored by the workers, not handed back.
      expect(pool.stats.answered - answeredBefore).toBeGreaterThan(100);
    } finally {
      store.close();
    }
  });

  it('reads each query from the generation it started on while writes and merges replace it', async () => {
    const store = await buildStore(5, 12_000);
    store.setScoringPool(pool);
    try {
      let straddled = 0;
      // Whether a query is still in flight when the write commits depends on the machine: each attempt that saw
      // none doubles its queries (the write takes the same time), so the straddle this test needs does happen.
      for (let attempt = 0; attempt < 8 && straddled === 0; attempt++) {
        const queries = randomQueries(100 + attempt, 300 * 2 ** Math.min(attempt, 4));
        const hydrate = (
          hits: ScoredSlot[],
          state: { chunkIdOf(slot: number): string | undefined; record(slot: number): StoredChunk },
        ) =>
          hits.map((hit) => ({ score: hit.score, id: state.chunkIdOf(hit.slot), text: state.record(hit.slot).text }));
        const expected = queries.map((query) =>
          inThread(store, query, 10).map((hit) => ({
            score: hit.score,
            id: store.chunkIdOf(hit.slot),
            text: store.record(hit.slot).text,
          })),
        );
        let committed = false;
        const searches = queries.map((query) =>
          store.searchWith(query, 10, DEFAULT_BM25_PARAMS, undefined, (hits, state) => {
            if (committed) straddled++;
            return hydrate(hits, state);
          }),
        );
        // Delete 40% of the first segment's live chunks: the merge policy rewrites it (a new segment; the old
        // one's files are removed from disk and its reader is closed once no query holds it).
        const first = store.allChunkIds().filter((id) => Number(id.split('-')[0]) < 2_000);
        const write = (async () => {
          await store.apply([], first.slice(0, Math.ceil(first.length * 0.4)));
          while (await store.maybeMerge()) {
            // tiered merging
          }
          committed = true;
        })();
        const results = await Promise.all(searches);
        await write;
        expect(results).toEqual(expected);
        // Queries started after the write see the new state, and the workers score it the same.
        for (const query of randomQueries(200 + attempt, 20))
          expect(await pooled(store, query, 10)).toEqual(inThread(store, query, 10));
      }
      expect(straddled).toBeGreaterThan(0);
      // Only the current generation is left in the workers (one per worker at most).
      expect(pool.generationsHeld).toBeLessThanOrEqual(pool.threads);
    } finally {
      store.close();
    }
    expect(pool.generationsHeld).toBe(0);
  });

  it('releases a closed (evicted) store generations from the workers and counts shared memory once', async () => {
    const store = await buildStore(9, 6_000);
    const alone = store.memoryBytes;
    store.setScoringPool(pool);
    const held = pool.generationsHeld;
    for (const query of randomQueries(9, 30)) await pooled(store, query, 10);
    expect(pool.generationsHeld).toBeGreaterThan(held);
    // The workers hold views of the same memory: nothing more is counted...
    expect(store.memoryBytes).toBe(alone);
    // ...until a filter makes them parse the attribute sets.
    await pooled(store, queryOf([1, 2, 3]), 10, { bucketIds: ['b1'] });
    expect(store.memoryBytes).toBeGreaterThan(alone);
    store.close();
    expect(pool.generationsHeld).toBe(held);
  });

  it('loses no query when a worker dies mid-query: resent once, else scored in this thread', async () => {
    const own = new KeywordPool({ threads: 2, minPostings: 0 });
    await own.whenReady();
    const store = await buildStore(13, 9_000);
    store.setScoringPool(own);
    try {
      const queries = randomQueries(13, 200);
      const expected = queries.map((query) => inThread(store, query, 10));
      // One worker killed while queries are in flight: its queries go to the other.
      const searches = queries.map((query) => pooled(store, query, 10));
      const victim = own.workers[0];
      if (!victim) throw new Error('no worker');
      await victim.terminate();
      expect(await Promise.all(searches)).toEqual(expected);
      expect(own.stats.resent + own.stats.handedBack).toBeGreaterThan(0);
      // It was replaced, and the replacement scores.
      await own.whenReady();
      expect(own.stats.workersStarted).toBe(3);
      const answered = own.stats.answered;
      for (const query of queries.slice(0, 20)) await pooled(store, query, 10);
      expect(own.stats.answered - answered).toBe(20);
      // Both killed at once: every query still answered (the second failure hands it back to this thread).
      const again = queries.map((query) => pooled(store, query, 10));
      await Promise.all(own.workers.map((worker) => worker.terminate()));
      expect(await Promise.all(again)).toEqual(expected);
    } finally {
      store.close();
      await own.close();
    }
  });
});
