import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KeywordPool } from '@/lib/retrieval/embedded/keyword-pool';
import { createEmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import type { IndexedChunk, SearchRequest } from '@/lib/retrieval/types';
import { describeChunkIndexContract, makeContractChunk } from '@/test/support/retrieval/contract';

// The embedded index with every keyword query scored in worker threads (a warm pool, no size threshold): the
// whole ChunkIndex contract (filters, deletes, overwrites, attribute edits, hybrid), and the same hits as an
// index that scores in its own thread, through writes and evictions.

let pool: KeywordPool;
beforeAll(async () => {
  pool = new KeywordPool({ threads: 2, minPostings: 0 });
  await pool.whenReady();
});
afterAll(async () => {
  await pool.close();
});

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'docuchat-keyword-pool-'));
}

describeChunkIndexContract('embedded, keyword scoring in worker threads', async () => {
  const dir = await tempDir();
  const index = await createEmbeddedChunkIndex({ dir, keywordPool: pool });
  return {
    index,
    cleanup: async () => {
      await index.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

const WORDS = ['falcon', 'river', 'granite', 'ledger', 'quartz', 'harbor', 'meadow', 'cipher', 'lantern', 'orbit'];

function corpus(ownerId: string, count: number, seed: number): IndexedChunk[] {
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
  return Array.from({ length: count }, (_, i) =>
    makeContractChunk({
      ownerId,
      documentId: `doc-${i % 40}`,
      chunkId: `${ownerId}-${i}`,
      text: Array.from({ length: 4 + Math.floor(random() * 20) }, () => WORDS[Math.floor(random() ** 2 * 10)]).join(
        ' ',
      ),
      bucketId: `bucket-${i % 3}`,
      vector: [random(), random(), random()],
      embeddingModel: 'm',
    }),
  );
}

describe('embedded index: keyword scoring in worker threads', () => {
  it('returns the same hits as scoring in the calling thread, through writes and evictions', async () => {
    const pooledDir = await tempDir();
    const plainDir = await tempDir();
    // A budget of 1 MB: each owner's load evicts the other, so their generations come and go in the workers.
    const pooled = await createEmbeddedChunkIndex({ dir: pooledDir, keywordPool: pool, memoryBudgetMb: 1 });
    const plain = await createEmbeddedChunkIndex({ dir: plainDir, keywordThreads: 0 });
    try {
      for (const index of [pooled, plain]) {
        await index.upsert(corpus('alice', 600, 1));
        await index.upsert(corpus('bob', 400, 2));
      }
      const requests: SearchRequest[] = [];
      for (const ownerId of ['alice', 'bob'])
        for (const [i, query] of [
          'falcon river',
          'granite ledger quartz',
          'orbit',
          'cipher lantern meadow',
        ].entries()) {
          requests.push({ ownerId, query, mode: 'keyword', topK: 10 });
          requests.push({ ownerId, query, mode: 'keyword', topK: 25, filters: { bucketIds: [`bucket-${i % 3}`] } });
          requests.push({ ownerId, query, mode: 'hybrid', topK: 10, queryVector: [0.3, 0.5, 0.2] });
        }
      const compare = async () => {
        for (const request of requests) {
          const [got, want] = await Promise.all([pooled.search(request), plain.search(request)]);
          expect(got).toEqual(want);
          expect(want.length).toBeGreaterThan(0);
        }
      };
      const answered = pool.stats.answered;
      await compare();
      for (const index of [pooled, plain]) {
        await index.deleteDocument('alice', 'doc-3');
        await index.upsert(corpus('alice', 50, 9));
      }
      await compare();
      expect(pool.stats.answered - answered).toBeGreaterThanOrEqual(requests.length * 2);
    } finally {
      await pooled.close();
      await plain.close();
      await rm(pooledDir, { recursive: true, force: true });
      await rm(plainDir, { recursive: true, force: true });
    }
    // Closing the index released its owners' generations in the workers.
    expect(pool.generationsHeld).toBe(0);
  });
});
