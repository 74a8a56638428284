import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createEmbeddedChunkIndex, type EmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import type { IndexedChunk } from '@/lib/retrieval/types';
import { makeContractChunk } from '@/test/support/retrieval/contract';
import { rewriteSegmentsAs, segmentFileVersion } from '@/test/support/retrieval/segment-versions';

/**
 * A keyword index whose segments have the previous postings layout (version 2, varints) answers at once and exactly,
 * is rewritten in the current layout in the background after the owner's partition loads, and keeps taking writes.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-segment-upgrade-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const OWNER = 'owner-upgrade';
const WORDS = ['pump', 'valve', 'filter', 'invoice', 'revenue', 'frost', 'casing', 'priming', 'warranty', 'bolt'];
const QUERIES = ['pump maintenance', 'valve', 'invoice revenue check', 'frost casing', 'warranty bolt priming'];

function chunks(from: number, count: number): IndexedChunk[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return makeContractChunk({
      ownerId: OWNER,
      documentId: `doc-${i % 9}`,
      chunkId: `chunk-${i}`,
      index: i,
      text: Array.from(
        { length: 5 + (i % 6) },
        (_, j) => `${WORDS[(i * 3 + j * 7) % WORDS.length]} ${j % 3 === 0 ? 'maintenance' : 'check'}`,
      ).join(' '),
      contextPrefix: i % 4 === 0 ? 'Valve manual' : '',
    });
  });
}

const keywordDirs = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.kw'))
    .map((name) => path.join(dir, name));
const versions = (dir: string) =>
  keywordDirs(dir).flatMap((kw) =>
    fs
      .readdirSync(kw)
      .filter((name) => name.endsWith('.idx'))
      .map((name) => segmentFileVersion(path.join(kw, name))),
  );
const answers = async (index: EmbeddedChunkIndex) =>
  Promise.all(
    QUERIES.map(async (query) =>
      (await index.search({ ownerId: OWNER, query, mode: 'keyword', topK: 10 })).map(
        (hit) => [hit.chunkId, hit.score] as const,
      ),
    ),
  );

describe('keyword segments of the previous postings layout', () => {
  it('serve exactly at once, are upgraded in the background, and take writes', async () => {
    const dir = path.join(root, 'index');
    const first = await createEmbeddedChunkIndex({ dir });
    // Several segments, one with a tombstone.
    await first.upsert(chunks(0, 30));
    await first.upsert(chunks(30, 20));
    await first.deleteDocument(OWNER, 'doc-4');
    const want = await answers(first);
    await first.close();
    expect(want.flat().length).toBeGreaterThan(10);
    for (const kw of keywordDirs(dir)) await rewriteSegmentsAs(kw, 2);
    expect(new Set(versions(dir))).toEqual(new Set([2]));

    const index = await createEmbeddedChunkIndex({ dir });
    expect(await answers(index)).toEqual(want);
    await vi.waitFor(() => expect(new Set(versions(dir))).toEqual(new Set([3])), { timeout: 30_000, interval: 20 });
    expect(await answers(index)).toEqual(want);
    await index.upsert(chunks(50, 5));
    await index.deleteDocument(OWNER, 'doc-5');
    const later = await answers(index);
    await index.close();

    const reopened = await createEmbeddedChunkIndex({ dir });
    expect(await answers(reopened)).toEqual(later);
    expect(new Set(versions(dir))).toEqual(new Set([3]));
    await reopened.close();
  });
});
