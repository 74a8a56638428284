import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '@lancedb/lancedb';
import { describe, expect, it } from 'vitest';
import { createEmbeddedChunkIndex, ownerTableName } from '@/lib/retrieval/embedded-chunk-index';
import { makeContractChunk } from '@/test/support/retrieval/contract';

/** Fragments of an owner's LanceDB table (one per commit until the table is compacted). */
async function fragmentsOf(dir: string, ownerId: string): Promise<number> {
  const db = await connect(dir);
  try {
    const table = await db.openTable(ownerTableName(ownerId));
    const stats = await table.stats();
    table.close();
    return stats.fragmentStats.numFragments;
  } finally {
    db.close();
  }
}

describe('embedded chunk index: a keyword-only owner with many small writes', () => {
  it('compacts the table as writes pile up, losing nothing', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'docuchat-compaction-'));
    const writes = 260;
    try {
      const index = await createEmbeddedChunkIndex({ dir });
      for (let i = 0; i < writes; i++) {
        await index.upsert([
          makeContractChunk({ ownerId: 'alice', documentId: `doc-${i}`, text: `report number ${i} kestrel` }),
        ]);
      }
      await index.deleteDocument('alice', 'doc-0');
      await index.upsert([makeContractChunk({ ownerId: 'bob', documentId: 'b', text: 'kestrel of bob' })]);
      expect(await index.countChunks('alice')).toBe(writes - 1);
      // One fragment per commit without compaction (261 commits); old versions are removed a minute later.
      expect(await fragmentsOf(dir, 'alice')).toBeLessThan(writes / 2);
      const hits = await index.search({ ownerId: 'alice', query: 'kestrel', mode: 'keyword', topK: 1000 });
      expect(hits).toHaveLength(writes - 1);
      expect(hits.some((hit) => hit.documentId === 'doc-0')).toBe(false);
      await index.close();

      // Reopened, the table holds every chunk once (compaction neither lost nor duplicated rows).
      const reopened = await createEmbeddedChunkIndex({ dir });
      expect(await reopened.countChunks('alice')).toBe(writes - 1);
      expect(await reopened.countChunks('bob')).toBe(1);
      await reopened.close();
      const db = await connect(dir);
      const table = await db.openTable(ownerTableName('alice'));
      expect(await table.countRows()).toBe(writes - 1);
      table.close();
      db.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
