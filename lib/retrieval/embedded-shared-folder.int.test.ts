import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import { makeContractChunk } from '@/test/support/retrieval/contract';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-shared-index-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('two processes on one index folder (the app and the bulk ingester)', () => {
  it("sees the other writer's chunks and deletes within about a second", async () => {
    const app = await createEmbeddedChunkIndex({ dir });
    const cli = await createEmbeddedChunkIndex({ dir });
    const owner = 'owner-shared';
    await app.upsert([
      makeContractChunk({ ownerId: owner, documentId: 'doc-a', chunkId: 'a1', text: 'the app wrote about pumps' }),
    ]);
    expect(await app.search({ ownerId: owner, query: 'pumps', mode: 'keyword', topK: 5 })).toHaveLength(1);

    // the other process adds a document
    await cli.upsert([
      makeContractChunk({
        ownerId: owner,
        documentId: 'doc-b',
        chunkId: 'b1',
        text: 'the ingester wrote about valves',
      }),
    ]);
    await wait(1100);
    await app.search({ ownerId: owner, query: 'valves', mode: 'keyword', topK: 5 }); // notices, reloads in the background
    await expect
      .poll(async () => (await app.search({ ownerId: owner, query: 'valves', mode: 'keyword', topK: 5 })).length, {
        timeout: 10_000,
      })
      .toBe(1);
    expect(await app.countChunks(owner)).toBe(2);

    // and removes one
    await cli.deleteDocument(owner, 'doc-a');
    await wait(1100);
    await app.search({ ownerId: owner, query: 'pumps', mode: 'keyword', topK: 5 });
    await expect
      .poll(async () => (await app.search({ ownerId: owner, query: 'pumps', mode: 'keyword', topK: 5 })).length, {
        timeout: 10_000,
      })
      .toBe(0);

    // its own writes never make it reload needlessly, and stay visible at once
    await app.upsert([makeContractChunk({ ownerId: owner, documentId: 'doc-c', chunkId: 'c1', text: 'gaskets' })]);
    expect(await app.search({ ownerId: owner, query: 'gaskets', mode: 'keyword', topK: 5 })).toHaveLength(1);
    await app.close();
    await cli.close();
  });
});
