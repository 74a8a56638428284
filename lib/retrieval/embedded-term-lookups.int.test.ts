import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SegmentReader } from '@/lib/retrieval/embedded/keyword-segment';
import { createEmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import type { SearchRequest } from '@/lib/retrieval/types';
import { makeContractChunk } from '@/test/support/retrieval/contract';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-term-lookups-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('term dictionary lookups per keyword search', () => {
  it('looks each query term up once in every segment, whether content words, all words or hybrid without a vector', async () => {
    const index = await createEmbeddedChunkIndex({ dir, keywordThreads: 0 });
    const owner = 'owner-term-lookups';
    // Three writes: three segments (no merge below the merge factor).
    for (const batch of [0, 1, 2]) {
      await index.upsert(
        [0, 1].map((i) =>
          makeContractChunk({
            ownerId: owner,
            documentId: `doc-${batch}`,
            chunkId: `chunk-${batch}-${i}`,
            index: i,
            text: `which report: zq${batch} zr${i}, the rainfall in region zs${batch}${i}`,
          }),
        ),
      );
    }
    const search = async (query: string, mode: SearchRequest['mode'] = 'keyword') =>
      (await index.search({ ownerId: owner, query, mode, topK: 10 })).map((hit) => hit.chunkId);
    // Warm-up: languages and other per-state memos are computed on the first query.
    expect(await search('zq0')).toEqual(['chunk-0-0', 'chunk-0-1']);

    const findTerm = vi.spyOn(SegmentReader.prototype, 'findTerm');
    try {
      const lookupsOf = async (query: string, mode: SearchRequest['mode'] = 'keyword') => {
        findTerm.mockClear();
        const hits = await search(query, mode);
        return { hits, lookups: findTerm.mock.calls.length };
      };
      const one = await lookupsOf('zq1');
      expect(one.hits).toEqual(['chunk-1-0', 'chunk-1-1']);
      const segments = one.lookups;
      expect(segments).toBeGreaterThanOrEqual(3);
      // Three content words: three lookups per segment (asked whether any occurs, then weighted: the same lookups).
      const three = await lookupsOf('rainfall zs21 zr0');
      expect(three.hits[0]).toBe('chunk-2-1');
      expect(three.hits).toHaveLength(6);
      expect(three.lookups).toBe(3 * segments);
      // Hybrid without a query vector is the keyword search, with the same lookups.
      const hybrid = await lookupsOf('rainfall zs21 zr0', 'hybrid');
      expect(hybrid).toEqual(three);
      // No content word occurs ("which" is a question word; "zz9" is in no chunk): every word is searched, and the
      // content word already looked up is not looked up again.
      const fallback = await lookupsOf('which zz9');
      expect(fallback.hits).toHaveLength(6);
      expect(fallback.lookups).toBe(2 * segments);
    } finally {
      findTerm.mockRestore();
    }
    await index.close();
  });
});
