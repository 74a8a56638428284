import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDbReady, getDb } from '@/lib/db/client';
import { claimNextJob } from '@/lib/db/jobs';
import { deleteDocument } from '@/lib/documents/manage';
import { backfillVectors } from '@/lib/ingest/backfill';
import { registerUpload } from '@/lib/ingest/intake';
import { runJob, type WorkerDeps } from '@/lib/ingest/jobs';
import type { DocumentEmbedder } from '@/lib/ingest/pipeline';
import { shutdownParseWorkers } from '@/lib/ingest/sandbox';
import { saveUploadStream, storedFileExists } from '@/lib/ingest/storage';
import { createEmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import type { ChunkIndex } from '@/lib/retrieval/types';
import { createTestUser } from '@/test/factories';

const DOC = `# Operations Guide

## Reindex

To rebuild the index run REINDEX TABLE orders; every night at 02:00. The job takes about 40 minutes.

## Deletes

Deleted orders are verified by comparing row counts before and after the purge.
`;

/** A deterministic embedder: hashed bag of words, so related texts are close. */
const fakeEmbedder: DocumentEmbedder & { calls: number } = {
  model: 'fake-embed',
  calls: 0,
  async embedDocuments(texts) {
    this.calls++;
    return texts.map(embed);
  },
};
function embed(text: string): number[] {
  const v = new Array(16).fill(0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    let h = 0;
    for (const ch of word) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
    v[h % 16] += 1;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return v.map((x) => x / norm);
}

async function* once(bytes: Uint8Array) {
  yield bytes;
}

let index: ChunkIndex;
let indexDir: string;

beforeAll(async () => {
  await ensureDbReady();
  indexDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-pipeline-'));
  index = await createEmbeddedChunkIndex({ dir: indexDir });
  await getDb().document.updateMany({ where: { status: 'PENDING' }, data: { status: 'FAILED' } });
});

afterAll(async () => {
  await index.close();
  await shutdownParseWorkers();
  fs.rmSync(indexDir, { recursive: true, force: true });
});

async function upload(ownerId: string, name: string, body: string) {
  const stored = await saveUploadStream({ body: once(Buffer.from(body)), maxBytes: 1_000_000 });
  return registerUpload({ ownerId, stored, filename: name, declaredMime: 'text/markdown', bucketId: null });
}

function workerDeps(embedder: DocumentEmbedder | null): WorkerDeps {
  return {
    index,
    concurrency: 1,
    limits: { parseTimeoutMs: 30_000, parseMaxMemoryMb: 512 },
    resolveEmbedder: async () => embedder,
  };
}

async function processAll(embedder: DocumentEmbedder | null) {
  for (;;) {
    const id = await claimNextJob('test');
    if (!id) return;
    await runJob(workerDeps(embedder), id, () => false);
  }
}

describe('ingestion pipeline', () => {
  it('indexes keyword-only without an embedder, back-fills vectors later, and is idempotent on re-run', async () => {
    const user = await createTestUser('pipe');
    const { document, duplicate } = await upload(user.id, 'ops.md', DOC);
    expect(duplicate).toBe(false);
    await processAll(null);
    const row = await getDb().document.findUniqueOrThrow({ where: { id: document.id } });
    expect(row).toMatchObject({
      status: 'INDEXED',
      vectorsPending: true,
      embeddingModel: null,
      stage: 'done',
      progress: 1,
    });
    expect(row.chunkCount).toBeGreaterThan(0);

    const keyword = await index.search({ ownerId: user.id, query: 'reindex orders nightly', mode: 'keyword', topK: 5 });
    expect(keyword[0]?.documentId).toBe(document.id);
    const before = await index.search({
      ownerId: user.id,
      query: 'x',
      mode: 'semantic',
      topK: 5,
      queryVector: embed('reindex orders'),
    });
    expect(before).toEqual([]);

    expect(await backfillVectors({ index, embedder: fakeEmbedder, ownerId: user.id })).toBe(1);
    const after = await index.search({
      ownerId: user.id,
      query: 'x',
      mode: 'semantic',
      topK: 5,
      queryVector: embed('reindex orders'),
    });
    expect(after.length).toBeGreaterThan(0);
    expect(await getDb().document.findUniqueOrThrow({ where: { id: document.id } })).toMatchObject({
      vectorsPending: false,
      embeddingModel: 'fake-embed',
    });

    // re-index replaces, never duplicates
    const chunksBefore = await getDb().chunk.count({ where: { documentId: document.id } });
    await getDb().document.update({ where: { id: document.id }, data: { status: 'PENDING' } });
    await processAll(fakeEmbedder);
    expect(await getDb().chunk.count({ where: { documentId: document.id } })).toBe(chunksBefore);
    expect(await index.countChunks(user.id)).toBe(chunksBefore);

    // every indexed chunk carries its database row's id (the pipeline takes them from the insert)
    const stored = await getDb().chunk.findMany({
      where: { documentId: document.id },
      orderBy: { index: 'asc' },
      select: { id: true, index: true },
    });
    const indexed = await index.get(
      user.id,
      stored.map((c) => c.id),
    );
    expect(indexed.map((c) => ({ id: c.chunkId, index: c.index })).sort((a, b) => a.index - b.index)).toEqual(stored);
  });

  it('recognises a duplicate by content for the same owner only', async () => {
    const alice = await createTestUser('dup');
    const bob = await createTestUser('dup');
    const first = await upload(alice.id, 'a.md', `${DOC}\nunique ${alice.id}`);
    const second = await upload(alice.id, 'renamed.md', `${DOC}\nunique ${alice.id}`);
    expect(second.duplicate).toBe(true);
    expect(second.document.id).toBe(first.document.id);
    const other = await upload(bob.id, 'a.md', `${DOC}\nunique ${alice.id}`);
    expect(other.duplicate).toBe(false);
    await processAll(null);
  });

  it('fails hostile or empty files with a reason and keeps nothing of them', async () => {
    const user = await createTestUser('bad');
    await expect(upload(user.id, 'empty.md', '')).rejects.toMatchObject({ status: 422 });
    const stored = await saveUploadStream({
      body: once(
        Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0, 0, ...new Array(200).fill(0)]),
      ),
      maxBytes: 10_000,
    });
    await expect(
      registerUpload({
        ownerId: user.id,
        stored,
        filename: 'invoice.pdf',
        declaredMime: 'application/pdf',
        bucketId: null,
      }),
    ).rejects.toMatchObject({ status: 415 });
    expect(storedFileExists(stored.storedName)).toBe(false);
    expect(await getDb().document.count({ where: { ownerId: user.id } })).toBe(0);
  });

  it('deletes the file, the rows and every indexed chunk', async () => {
    const user = await createTestUser('del');
    const { document } = await upload(user.id, 'ops.md', `${DOC}\n${user.id}`);
    await processAll(null);
    const row = await getDb().document.findUniqueOrThrow({ where: { id: document.id } });
    expect(await index.countChunks(user.id)).toBeGreaterThan(0);
    await deleteDocument({ ownerId: user.id, id: document.id }, { index });
    expect(await index.countChunks(user.id)).toBe(0);
    expect(await getDb().chunk.count({ where: { documentId: document.id } })).toBe(0);
    expect(storedFileExists(row.storedName)).toBe(false);
    expect(await index.search({ ownerId: user.id, query: 'reindex', mode: 'keyword', topK: 5 })).toEqual([]);
  });

  it('ingests e-mail attachments as child documents of the same owner and bucket, kept when the parent is deleted', async () => {
    const user = await createTestUser('mail');
    const bucket = await getDb().bucket.create({ data: { ownerId: user.id, name: `mail ${user.id}` } });
    const eml = [
      'From: Ada <ada@example.org>',
      'To: Bob <bob@example.org>',
      `Subject: Runbook ${user.id}`,
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b1"',
      '',
      '--b1',
      'Content-Type: text/plain; charset=utf-8',
      '',
      'The runbook is attached.',
      '--b1',
      'Content-Type: text/markdown; name="runbook.md"',
      'Content-Disposition: attachment; filename="runbook.md"',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from(`${DOC}\n${user.id}`).toString('base64'),
      '--b1',
      'Content-Type: application/octet-stream; name="setup.exe"',
      'Content-Disposition: attachment; filename="setup.exe"',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from([0x4d, 0x5a, 0x90, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0xff, 0xff, 0, 0, ...new Array(200).fill(0)]).toString(
        'base64',
      ),
      '--b1--',
      '',
    ].join('\r\n');
    const stored = await saveUploadStream({ body: once(Buffer.from(eml)), maxBytes: 1_000_000 });
    const { document: parent } = await registerUpload({
      ownerId: user.id,
      stored,
      filename: 'runbook.eml',
      declaredMime: 'message/rfc822',
      bucketId: bucket.id,
    });
    await processAll(null);
    const parentRow = await getDb().document.findUniqueOrThrow({ where: { id: parent.id } });
    expect(parentRow.status).toBe('INDEXED');
    expect(parentRow.warnings).toEqual([expect.stringMatching(/setup\.exe not ingested: .*executable/)]);
    const children = await getDb().document.findMany({ where: { parentId: parent.id } });
    expect(children.map((c) => [c.filename, c.ownerId, c.bucketId, c.status])).toEqual([
      ['runbook.md', user.id, bucket.id, 'INDEXED'],
    ]);
    const hits = await index.search({ ownerId: user.id, query: 'reindex orders nightly', mode: 'keyword', topK: 5 });
    expect(hits[0]?.documentId).toBe(children[0]?.id);

    await deleteDocument({ ownerId: user.id, id: parent.id }, { index });
    const child = await getDb().document.findUniqueOrThrow({ where: { id: children[0]?.id ?? '' } });
    expect(child).toMatchObject({ status: 'INDEXED', parentId: null });
    expect(await index.search({ ownerId: user.id, query: 'reindex', mode: 'keyword', topK: 5 })).not.toEqual([]);
  });
});
