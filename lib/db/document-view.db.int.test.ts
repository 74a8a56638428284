import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDbReady, getDb } from '@/lib/db/client';
import { findDocumentDetail, listChunkPositions, listUnitChunks, listUnitHeadings } from '@/lib/db/document-view';
import { createTestDocument, createTestUser } from '@/test/factories';

beforeAll(async () => {
  await ensureDbReady();
});

async function addChunks(ownerId: string, documentId: string, count: number) {
  await getDb().chunk.createMany({
    data: Array.from({ length: count }, (_, i) => ({
      documentId,
      ownerId,
      index: i,
      text: `chunk ${i}`,
      unitOrdinal: i % 2,
      charStart: i * 10,
      charEnd: i * 10 + 7,
      tokenCount: 3,
      headingPath: i < 2 ? `Part ${i}` : null,
    })),
  });
}

describe('the document view reads only its owner’s document', () => {
  it('gives the processing record and the chunks in order, paged', async () => {
    const alice = await createTestUser('alice');
    const doc = await createTestDocument(alice.id, { status: 'INDEXED', attempts: 2 });
    await addChunks(alice.id, doc.id, 5);

    const detail = await findDocumentDetail({ ownerId: alice.id, id: doc.id });
    expect(detail).toMatchObject({ id: doc.id, attempts: 2, retryAt: null, cancelRequested: false });

    const page = await listChunkPositions({ ownerId: alice.id, documentId: doc.id, skip: 2, take: 2 });
    expect(page.total).toBe(5);
    expect(page.chunks.map((c) => c.index)).toEqual([2, 3]);
    expect(page.chunks[0]).toMatchObject({ charStart: 20, charEnd: 27, unitOrdinal: 0, tokenCount: 3 });
    expect(
      (await listUnitChunks({ ownerId: alice.id, documentId: doc.id, unitOrdinal: 1 })).map((c) => c.index),
    ).toEqual([1, 3]);
  });

  it("answers another owner's document exactly like a missing one", async () => {
    const alice = await createTestUser('alice');
    const bob = await createTestUser('bob');
    const doc = await createTestDocument(alice.id, { status: 'INDEXED' });
    await addChunks(alice.id, doc.id, 3);

    expect(await findDocumentDetail({ ownerId: bob.id, id: doc.id })).toBeNull();
    expect(await findDocumentDetail({ ownerId: bob.id, id: 'not-a-uuid' })).toBeNull();
    expect(await listChunkPositions({ ownerId: bob.id, documentId: doc.id, skip: 0, take: 10 })).toEqual({
      total: 0,
      chunks: [],
    });
    expect(await listUnitChunks({ ownerId: bob.id, documentId: doc.id, unitOrdinal: 0 })).toEqual([]);
    expect((await listUnitHeadings({ ownerId: bob.id, documentId: doc.id })).size).toBe(0);
  });
});
