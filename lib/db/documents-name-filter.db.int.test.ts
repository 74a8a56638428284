import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDbReady } from '@/lib/db/client';
import { listDocuments } from '@/lib/db/documents';
import { createTestDocument, createTestUser } from '@/test/factories';

beforeAll(async () => {
  await ensureDbReady();
});

describe('document name filter', () => {
  it('treats %, _ and the escape character literally, and stays within the owner', async () => {
    const alice = await createTestUser('alice');
    const bob = await createTestUser('bob');
    for (const filename of ['a_b.txt', 'axb.txt', '100%.txt', '1000.txt', 'back\\slash.txt', 'back-slash.txt']) {
      await createTestDocument(alice.id, { filename });
    }
    await createTestDocument(bob.id, { filename: 'a_b-bob.txt' });
    const names = async (name: string) =>
      (await listDocuments({ ownerId: alice.id, filter: { name } })).map((d) => d.filename).sort();

    expect(await names('a_b')).toEqual(['a_b.txt']);
    expect(await names('100%')).toEqual(['100%.txt']);
    expect(await names('%')).toEqual(['100%.txt']);
    expect(await names('_')).toEqual(['a_b.txt']);
    expect(await names('\\')).toEqual(['back\\slash.txt']);
    expect(await names('k\\s')).toEqual(['back\\slash.txt']);
    expect(await names("' OR 1=1 --")).toEqual([]);
    expect(await names('.txt')).toHaveLength(6);
  });

  it('combines with the other filters', async () => {
    const alice = await createTestUser('alice');
    await createTestDocument(alice.id, { filename: 'report_q1.pdf', status: 'INDEXED' });
    await createTestDocument(alice.id, { filename: 'report_q2.pdf', status: 'FAILED' });
    const found = await listDocuments({ ownerId: alice.id, filter: { name: 'report_', status: 'INDEXED' } });
    expect(found.map((d) => d.filename)).toEqual(['report_q1.pdf']);
  });
});
