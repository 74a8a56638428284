import { beforeAll, describe, expect, it } from 'vitest';
import { createPrismaCatalog } from '@/lib/db/catalog';
import { getDb } from '@/lib/db/client';
import { createTestDocument, createTestUser } from '@/test/factories';

/** The catalog's name lookup and document openings (read_opening), on SQLite and PostgreSQL. */

let alice = '';
let bob = '';
const ids: Record<string, string> = {};

async function chunksFor(documentId: string, ownerId: string, count: number) {
  for (let index = 0; index < count; index++)
    await getDb().chunk.create({
      data: {
        documentId,
        ownerId,
        index,
        text: `chunk ${index}`,
        unitOrdinal: 0,
        charStart: 0,
        charEnd: 7,
        tokenCount: 2,
      },
    });
}

beforeAll(async () => {
  alice = (await createTestUser('catalog-a')).id;
  bob = (await createTestUser('catalog-b')).id;
  const bucket = await getDb().bucket.create({ data: { ownerId: alice, name: 'filings' } });
  const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
  const make = async (key: string, owner: string, filename: string, minute: number, extra = {}) => {
    const doc = await createTestDocument(owner, { status: 'INDEXED', filename, createdAt: at(minute), ...extra });
    ids[key] = doc.id;
    await chunksFor(doc.id, owner, 3);
  };
  await make('tenK', alice, 'example-10k-1p.html', 1, { bucketId: bucket.id });
  await make('annual', alice, 'annual_report_2023.pdf', 2);
  await make('handbook', alice, 'handbook-1p.docx', 3);
  await make('bobs', bob, 'bob-10k-secret.html', 4);
  const pending = await createTestDocument(alice, {
    status: 'PROCESSING',
    filename: 'draft-10k.html',
    createdAt: at(5),
  });
  ids.pending = pending.id;
  ids.bucket = bucket.id;
});

describe('catalog.findDocumentsByName', () => {
  it('matches names written with other punctuation and spacing, only among the owner’s indexed documents', async () => {
    const catalog = createPrismaCatalog(getDb());
    const names = async (owner: string, q: string) =>
      (await catalog.findDocumentsByName(owner, q, 5)).map((d) => d.filename).sort();
    expect(await names(alice, '10-K')).toEqual(['example-10k-1p.html']);
    expect(await names(alice, 'annual report 2023')).toEqual(['annual_report_2023.pdf']);
    expect(await names(alice, 'handbook')).toEqual(['handbook-1p.docx']);
    expect(await names(alice, 'secret')).toEqual([]);
    expect(await names(bob, '10-K')).toEqual(['bob-10k-secret.html']);
    expect(await names(alice, 'zanzibar')).toEqual([]);
  });
});

describe('catalog.documentOpenings', () => {
  it('lists the owner’s indexed documents newest first with their first chunks, and counts them all', async () => {
    const catalog = createPrismaCatalog(getDb());
    const { documents, total } = await catalog.documentOpenings(alice, { limit: 2, chunks: 2 });
    expect(total).toBe(3);
    expect(documents.map((d) => d.filename)).toEqual(['handbook-1p.docx', 'annual_report_2023.pdf']);
    const first = await getDb().chunk.findMany({
      where: { documentId: ids.handbook, index: { lt: 2 } },
      orderBy: { index: 'asc' },
      select: { id: true },
    });
    expect(documents[0]?.chunkIds).toEqual(first.map((c) => c.id));
  });

  it('keeps to the documents and buckets asked for, and answers another owner’s or an unindexed id as absent', async () => {
    const catalog = createPrismaCatalog(getDb());
    const inBucket = await catalog.documentOpenings(alice, { bucketIds: [ids.bucket ?? ''], limit: 4, chunks: 1 });
    expect(inBucket.documents.map((d) => d.filename)).toEqual(['example-10k-1p.html']);
    const foreign = await catalog.documentOpenings(alice, {
      documentIds: [ids.bobs ?? '', ids.pending ?? '', 'not-a-uuid'],
      limit: 4,
      chunks: 2,
    });
    expect(foreign).toEqual({ documents: [], total: 0 });
    const missing = await catalog.documentOpenings(alice, { documentIds: [], limit: 4, chunks: 2 });
    expect(missing.total).toBe(0);
  });
});
