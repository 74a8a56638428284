import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import type { MetaFilter } from '@/lib/domain/typed-meta';
import { metaColumnName } from '@/lib/retrieval/embedded/meta-columns';
import { createEmbeddedChunkIndex, ownerTableName } from '@/lib/retrieval/embedded-chunk-index';
import { describeChunkIndexContract, makeContractChunk } from '@/test/support/retrieval/contract';

async function tempDir(): Promise<string> {
  return mkdtemp(path.join(tmpdir(), 'docuchat-embedded-index-'));
}

describeChunkIndexContract('embedded', async () => {
  const dir = await tempDir();
  const index = await createEmbeddedChunkIndex({ dir });
  return {
    index,
    cleanup: async () => {
      await index.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});

describe('embedded chunk index: durability and concurrency', () => {
  it('keeps everything across close and reopen (keyword index rebuilt, vectors, attributes, deletions)', async () => {
    const dir = await tempDir();
    try {
      const first = await createEmbeddedChunkIndex({ dir });
      const kept = makeContractChunk({
        ownerId: 'alice',
        documentId: 'kept',
        text: 'durable falcon text',
        contextPrefix: 'Birds of prey',
        tags: ['birds'],
        fields: { 'key with "quotes"': "it's" },
        page: 3,
        vector: [1, 0, 0],
        embeddingModel: 'm1',
      });
      const late = makeContractChunk({ ownerId: 'alice', documentId: 'late', text: 'falcon without vector yet' });
      const gone = makeContractChunk({ ownerId: 'alice', documentId: 'gone', text: 'falcon to be deleted' });
      await first.upsert([kept, late, gone]);
      await first.setVectors('alice', 'm2', [{ chunkId: late.chunkId, vector: [0, 1, 0] }]);
      await first.deleteDocument('alice', 'gone');
      await first.updateDocumentAttributes('alice', 'kept', {
        bucketId: 'b1',
        mime: 'text/plain',
        filename: 'renamed.txt',
        title: 'Renamed',
        documentDate: '2020-02-02',
        tags: ['birds', 'moved'],
        fields: { 'key with "quotes"': "it's" },
      });
      await first.close();

      const second = await createEmbeddedChunkIndex({ dir });
      expect(await second.countChunks('alice')).toBe(2);
      const keyword = await second.search({ ownerId: 'alice', query: 'falcon', mode: 'keyword', topK: 10 });
      expect(keyword.map((hit) => hit.chunkId).sort()).toEqual([kept.chunkId, late.chunkId].sort());
      const byPrefix = await second.search({ ownerId: 'alice', query: 'prey', mode: 'keyword', topK: 10 });
      expect(byPrefix.map((hit) => hit.chunkId)).toEqual([kept.chunkId]);
      const semantic = await second.search({
        ownerId: 'alice',
        query: '',
        mode: 'semantic',
        queryVector: [0, 1, 0],
        topK: 10,
      });
      expect(semantic.map((hit) => hit.chunkId)).toEqual([late.chunkId, kept.chunkId]);
      const filtered = await second.search({
        ownerId: 'alice',
        query: 'falcon',
        mode: 'hybrid',
        queryVector: [1, 0, 0],
        topK: 10,
        filters: { tags: ['moved'], fields: { 'key with "quotes"': "it's" }, dateFrom: '2020-02-02' },
      });
      expect(filtered.map((hit) => hit.chunkId)).toEqual([kept.chunkId]);
      const [stored] = await second.get('alice', [kept.chunkId]);
      expect(stored).toMatchObject({
        filename: 'renamed.txt',
        page: 3,
        tags: ['birds', 'moved'],
        embeddingModel: 'm1',
      });
      expect(stored?.vector).toEqual([1, 0, 0]);
      expect(await second.get('alice', [gone.chunkId])).toEqual([]);
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a vector of a new dimension replaces the old vectors (model change): old chunks become keyword-only', async () => {
    const dir = await tempDir();
    const index = await createEmbeddedChunkIndex({ dir });
    try {
      const old = makeContractChunk({ ownerId: 'bob', text: 'old model', vector: [1, 0], embeddingModel: 'small' });
      const fresh = makeContractChunk({
        ownerId: 'bob',
        text: 'new model',
        vector: [0, 0, 1],
        embeddingModel: 'large',
      });
      await index.upsert([old]);
      await index.upsert([fresh]);
      const hits = await index.search({
        ownerId: 'bob',
        query: '',
        mode: 'semantic',
        queryVector: [0, 0, 1],
        topK: 10,
      });
      expect(hits.map((hit) => hit.chunkId)).toEqual([fresh.chunkId]);
      expect(
        await index.search({ ownerId: 'bob', query: '', mode: 'semantic', queryVector: [1, 0], topK: 10 }),
      ).toEqual([]);
      const [stored] = await index.get('bob', [old.chunkId]);
      expect(stored).toMatchObject({ vector: null, embeddingModel: null });
      await expect(
        index.upsert([
          makeContractChunk({ ownerId: 'bob', vector: [1] }),
          makeContractChunk({ ownerId: 'bob', vector: [1, 2] }),
        ]),
      ).rejects.toThrow(/dimensions/);
    } finally {
      await index.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('upserts issued together are all committed, in order with the deletes queued between them', async () => {
    const dir = await tempDir();
    const index = await createEmbeddedChunkIndex({ dir });
    try {
      // Twenty documents at once (they are written in groups while one write runs), a delete queued among them,
      // and an upsert of the deleted document after the delete: it must survive (no reordering across the delete).
      const docs = Array.from({ length: 20 }, (_, i) =>
        makeContractChunk({ ownerId: 'carol', documentId: `carol-${i}`, text: `grouped write number${i}` }),
      );
      const late = makeContractChunk({ ownerId: 'carol', documentId: 'carol-3', text: 'rewritten after delete' });
      const vectors = [
        makeContractChunk({ ownerId: 'carol', vector: [1, 0], embeddingModel: 'small' }),
        makeContractChunk({ ownerId: 'carol', vector: [0, 0, 1], embeddingModel: 'large' }),
      ];
      await Promise.all([
        ...docs.slice(0, 10).map((chunk) => index.upsert([chunk])),
        index.deleteDocument('carol', 'carol-3'),
        index.upsert([late]),
        ...docs.slice(10).map((chunk) => index.upsert([chunk])),
        // vectors of two dimensions never share a batch: each succeeds, as one after the other would
        ...vectors.map((chunk) => index.upsert([chunk])),
      ]);
      expect(await index.countChunks('carol')).toBe(20 + 1 - 1 + 2);
      const stored = await index.get('carol', [docs[3]?.chunkId ?? '', late.chunkId, docs[19]?.chunkId ?? '']);
      expect(stored.map((chunk) => chunk.text)).toEqual(['rewritten after delete', docs[19]?.text]);
      const [small, large] = await index.get(
        'carol',
        vectors.map((chunk) => chunk.chunkId),
      );
      expect([small?.vector, large?.vector]).toEqual([null, [0, 0, 1]]);
    } finally {
      await index.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('searches running during writes never see torn state or deleted chunks', async () => {
    const dir = await tempDir();
    const index = await createEmbeddedChunkIndex({ dir });
    try {
      const owner = 'carol';
      const stable = Array.from({ length: 20 }, (_, i) =>
        makeContractChunk({
          ownerId: owner,
          documentId: `stable-${i % 4}`,
          index: i,
          text: `stable otter ${i}`,
          vector: [1, i, 0],
          embeddingModel: 'm',
        }),
      );
      await index.upsert(stable);
      const stableIds = new Set(stable.map((chunk) => chunk.chunkId));
      const deletedIds = new Set<string>();
      const writer = (async () => {
        for (let round = 0; round < 15; round++) {
          const batch = Array.from({ length: 10 }, (_, i) =>
            makeContractChunk({
              ownerId: owner,
              documentId: `churn-${round}`,
              index: i,
              text: `churn otter ${round}`,
              vector: [0, 1, round],
              embeddingModel: 'm',
            }),
          );
          await index.upsert(batch);
          await index.deleteDocument(owner, `churn-${round}`);
          for (const chunk of batch) deletedIds.add(chunk.chunkId);
        }
      })();
      const readers = Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 30; i++) {
          for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
            const before = new Set(deletedIds);
            const hits = await index.search({
              ownerId: owner,
              query: 'otter',
              mode,
              queryVector: [1, 0.5, 0],
              topK: 100,
            });
            for (const hit of hits) {
              expect(before.has(hit.chunkId), `deleted chunk returned in ${mode}`).toBe(false);
              expect(hit.documentId.startsWith('stable-') || hit.documentId.startsWith('churn-')).toBe(true);
            }
            const stableFound = hits.filter((hit) => stableIds.has(hit.chunkId)).length;
            expect(stableFound, mode).toBe(20);
          }
        }
      });
      await Promise.all([writer, ...readers]);
      expect(await index.countChunks(owner)).toBe(20);
    } finally {
      await index.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a large owner gets an ANN index; search, filters, get and delete stay right', async () => {
    const dir = await tempDir();
    const index = await createEmbeddedChunkIndex({ dir });
    try {
      const dims = 16;
      // Deterministic pseudo-random vectors (an integer hash of (i, d)), far apart from one another.
      const vectorOf = (i: number) =>
        Array.from({ length: dims }, (_, d) => {
          let h = Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(d + 1, 0x85ebca6b);
          h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
          return ((h ^ (h >>> 13)) >>> 0) / 2 ** 32 - 0.5;
        });
      const count = 12_000;
      for (let start = 0; start < count; start += 3_000) {
        await index.upsert(
          Array.from({ length: 3_000 }, (_, k) => {
            const i = start + k;
            return makeContractChunk({
              ownerId: 'dave',
              chunkId: `dave-${i}`,
              documentId: `doc-${Math.floor(i / 10)}`,
              text: `chunk ${i} about ${i % 2 === 0 ? 'even' : 'odd'} numbers`,
              bucketId: i % 3 === 0 ? 'third' : 'rest',
              meta: { amount: i, ...(i % 2 === 0 ? { even: true } : {}) },
              vector: vectorOf(i),
              embeddingModel: 'm',
            });
          }),
        );
      }
      await index.optimize();
      // The typed-value columns got scalar indexes with the ANN index (what a typed pre-filter reads).
      const db = await connect(dir);
      const table = await db.openTable(ownerTableName('dave'));
      const indexed = (await table.listIndices()).flatMap((entry) => entry.columns);
      expect(indexed).toEqual(
        expect.arrayContaining([metaColumnName('amount', 'num'), metaColumnName('even', 'bool')]),
      );
      table.close();
      db.close();
      const probe = 4_242;
      const [top] = await index.search({
        ownerId: 'dave',
        query: '',
        mode: 'semantic',
        queryVector: vectorOf(probe),
        topK: 5,
      });
      expect(top?.chunkId).toBe(`dave-${probe}`);
      const filtered = await index.search({
        ownerId: 'dave',
        query: 'odd',
        mode: 'hybrid',
        queryVector: vectorOf(probe),
        topK: 30,
        filters: { bucketIds: ['third'] },
      });
      expect(filtered).toHaveLength(30);
      for (const hit of filtered) expect(Number(hit.chunkId.slice(5)) % 3).toBe(0);
      // A selective typed filter (0.5% of the rows) runs inside the vector search, not on its top hits: the search
      // still fills its top 30 with matching chunks (the ANN index probes only some partitions; when it comes back
      // short, the filtered rows are searched exactly), in semantic and hybrid mode alike.
      for (const mode of ['semantic', 'hybrid'] as const) {
        const typed = await index.search({
          ownerId: 'dave',
          query: 'even',
          mode,
          queryVector: vectorOf(probe),
          topK: 30,
          filters: {
            meta: [
              { field: 'amount', type: 'number', op: 'between', values: [5_000, 5_119] },
              { field: 'even', type: 'boolean', op: '=', values: [true] },
            ],
          },
        });
        expect(typed, mode).toHaveLength(30);
        for (const hit of typed) {
          const i = Number(hit.chunkId.slice(5));
          expect(i >= 5_000 && i <= 5_119 && i % 2 === 0, `${mode} ${hit.chunkId}`).toBe(true);
        }
      }
      expect((await index.get('dave', ['dave-7', 'dave-11999'])).map((chunk) => chunk.vector?.length)).toEqual([
        dims,
        dims,
      ]);
      await index.deleteDocument('dave', `doc-${Math.floor(probe / 10)}`);
      const after = await index.search({
        ownerId: 'dave',
        query: '',
        mode: 'semantic',
        queryVector: vectorOf(probe),
        topK: 5,
      });
      expect(after.map((hit) => hit.chunkId)).not.toContain(`dave-${probe}`);
      expect(await index.countChunks('dave')).toBe(count - 10);
    } finally {
      await index.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 300_000);

  it('unloads least recently used owners past the memory budget and reloads them on use, answers unchanged', async () => {
    const dir = await tempDir();
    try {
      const writer = await createEmbeddedChunkIndex({ dir });
      const owners = ['lru-a', 'lru-b', 'lru-c'];
      for (const ownerId of owners) {
        await writer.upsert(
          Array.from({ length: 300 }, (_, i) =>
            makeContractChunk({ ownerId, documentId: `d${i % 10}`, text: `${ownerId} shared kestrel number ${i}` }),
          ),
        );
      }
      const before = await Promise.all(
        owners.map((ownerId) => writer.search({ ownerId, query: 'kestrel', mode: 'keyword', topK: 5 })),
      );
      const one = await writer.loadedBytes();
      await writer.close();

      // Room for about one owner: loading another unloads the least recently used idle one.
      const budgetMb = (one / owners.length / 2 ** 20) * 1.5;
      const index = await createEmbeddedChunkIndex({ dir, memoryBudgetMb: budgetMb });
      for (let round = 0; round < 2; round++) {
        for (const [i, ownerId] of owners.entries()) {
          const hits = await index.search({ ownerId, query: 'kestrel', mode: 'keyword', topK: 5 });
          expect(hits).toEqual(before[i]);
          await new Promise((resolve) => setTimeout(resolve, 20));
          expect(await index.loadedBytes()).toBeLessThanOrEqual(budgetMb * 2 ** 20);
        }
      }
      expect(await index.countChunks('lru-a')).toBe(300);
      await index.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a table written before typed values were indexed keeps working and gets typed columns when first needed', async () => {
    const dir = await tempDir();
    try {
      const first = await createEmbeddedChunkIndex({ dir });
      const old = makeContractChunk({
        ownerId: 'erin',
        documentId: 'old',
        text: 'legacy heron invoice',
        vector: [1, 0],
      });
      await first.upsert([{ ...old, embeddingModel: 'm' }]);
      await first.close();
      // Back to the schema of before: no typed-values JSON column, no typed columns; the keyword index rebuilt.
      const db = await connect(dir);
      const table = await db.openTable(ownerTableName('erin'));
      await table.dropColumns(['metaJson']);
      table.close();
      db.close();
      await rm(path.join(dir, `${ownerTableName('erin')}.kw`), { recursive: true, force: true });

      const second = await createEmbeddedChunkIndex({ dir });
      const amountOver = (n: number): MetaFilter[] => [{ field: 'amount', type: 'number', op: '>', values: [n] }];
      const find = async (mode: 'keyword' | 'semantic', meta?: MetaFilter[]) =>
        (
          await second.search({
            ownerId: 'erin',
            query: 'heron invoice',
            mode,
            queryVector: [1, 0],
            topK: 10,
            ...(meta ? { filters: { meta } } : {}),
          })
        ).map((hit) => hit.documentId);
      expect(await find('keyword')).toEqual(['old']);
      // No value anywhere yet: a typed filter matches nothing (no SQL error on the missing column).
      expect(await find('keyword', amountOver(1))).toEqual([]);
      expect(await find('semantic', amountOver(1))).toEqual([]);
      // The old document gets a value; a new one arrives with values: both are found by the pushed-down filter.
      await second.updateDocumentAttributes('erin', 'old', {
        bucketId: 'b',
        mime: old.mime,
        filename: old.filename,
        title: null,
        documentDate: null,
        tags: [],
        fields: {},
        meta: { amount: 50 },
      });
      await second.upsert([
        makeContractChunk({
          ownerId: 'erin',
          documentId: 'new',
          text: 'fresh heron invoice',
          vector: [0.9, 0.1],
          embeddingModel: 'm',
          meta: { amount: 500, issued: '2023-01-02' },
        }),
      ]);
      for (const mode of ['keyword', 'semantic'] as const) {
        expect((await find(mode, amountOver(10))).sort(), mode).toEqual(['new', 'old']);
        expect(await find(mode, amountOver(100)), mode).toEqual(['new']);
      }
      await second.close();
      // After a restart (keyword index rebuilt from the table) the values are still there.
      await rm(path.join(dir, `${ownerTableName('erin')}.kw`), { recursive: true, force: true });
      const third = await createEmbeddedChunkIndex({ dir });
      const hits = await third.search({
        ownerId: 'erin',
        query: 'heron',
        mode: 'keyword',
        topK: 10,
        filters: { meta: [{ field: 'issued', type: 'date', op: '>=', values: ['2023-01-01'] }] },
      });
      expect(hits.map((hit) => hit.documentId)).toEqual(['new']);
      await third.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rejects malformed search requests', async () => {
    const dir = await tempDir();
    const index = await createEmbeddedChunkIndex({ dir });
    try {
      await expect(index.search({ ownerId: 'x', query: 'q', mode: 'keyword', topK: 0 })).rejects.toThrow();
      await expect(
        index.search({ ownerId: 'x', query: 'q', mode: 'keyword', topK: 5, candidates: 500 }),
      ).rejects.toThrow();
      await expect(
        index.search({ ownerId: 'x', query: 'q', mode: 'keyword', topK: 5, filters: { dateFrom: 'yesterday' } }),
      ).rejects.toThrow();
      await expect(
        index.search({ ownerId: 'x', query: 'q', mode: 'semantic', topK: 5, queryVector: [Number.NaN] }),
      ).rejects.toThrow();
    } finally {
      await index.close();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('bulkLoad: no ANN index is built while writing; optimize() builds it once', async () => {
    const dir = await tempDir();
    const dims = 8;
    const vectorOf = (i: number) =>
      Array.from({ length: dims }, (_, d) => {
        const h = Math.imul(Math.imul(i + 1, 0x9e3779b1) ^ Math.imul(d + 1, 0x85ebca6b), 0x2c1b3c6d);
        return ((h ^ (h >>> 13)) >>> 0) / 2 ** 32 - 0.5;
      });
    const vectorIndexed = async () => {
      const db = await connect(dir);
      const table = await db.openTable(ownerTableName('erin'));
      const indices = await table.listIndices();
      table.close();
      db.close();
      return indices.some((index) => index.columns.includes('vector'));
    };
    try {
      const writer = await createEmbeddedChunkIndex({ dir, bulkLoad: true });
      for (let start = 0; start < 12_000; start += 4_000) {
        await writer.upsert(
          Array.from({ length: 4_000 }, (_, k) =>
            makeContractChunk({
              ownerId: 'erin',
              chunkId: `erin-${start + k}`,
              documentId: `doc-${Math.floor((start + k) / 10)}`,
              text: `chunk ${start + k}`,
              vector: vectorOf(start + k),
              embeddingModel: 'm',
            }),
          ),
        );
      }
      // close() waits for background index work: without bulkLoad the 12,000 vectors would be indexed by now.
      await writer.close();
      expect(await vectorIndexed()).toBe(false);
      const finisher = await createEmbeddedChunkIndex({ dir, bulkLoad: true });
      expect(await finisher.countChunks('erin')).toBe(12_000);
      await finisher.optimize();
      const [top] = await finisher.search({
        ownerId: 'erin',
        query: '',
        mode: 'semantic',
        queryVector: vectorOf(777),
        topK: 3,
      });
      expect(top?.chunkId).toBe('erin-777');
      await finisher.close();
      expect(await vectorIndexed()).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
