import { beforeAll, describe, expect, it } from 'vitest';
import { createBucket, deleteBucket, findBucket, listBuckets, renameBucket } from '@/lib/db/buckets';
import { ensureDbReady } from '@/lib/db/client';
import { findDocument, listDocuments } from '@/lib/db/documents';
import { AppError } from '@/lib/errors';
import { enforceRateLimit } from '@/lib/rate-limit';
import { createTestDocument, createTestUser } from '@/test/factories';

beforeAll(async () => {
  await ensureDbReady();
});

describe('documents and buckets belong to their owner', () => {
  it("answers another owner's ids exactly like missing ids", async () => {
    const alice = await createTestUser('alice');
    const bob = await createTestUser('bob');
    const doc = await createTestDocument(alice.id);
    const bucket = await createBucket({ ownerId: alice.id, name: 'contracts' });

    expect(await findDocument({ ownerId: alice.id, id: doc.id })).not.toBeNull();
    expect(await findDocument({ ownerId: bob.id, id: doc.id })).toBeNull();
    expect(await findDocument({ ownerId: bob.id, id: '00000000-0000-4000-8000-000000000000' })).toBeNull();
    expect(await findDocument({ ownerId: bob.id, id: "' OR 1=1 --" })).toBeNull();
    expect((await listDocuments({ ownerId: bob.id })).map((d) => d.id)).not.toContain(doc.id);
    expect(await findBucket({ ownerId: bob.id, id: bucket.id })).toBeNull();

    const missing = await captureError(() =>
      renameBucket({ ownerId: bob.id, id: '00000000-0000-4000-8000-000000000000', name: 'x' }),
    );
    const foreign = await captureError(() => renameBucket({ ownerId: bob.id, id: bucket.id, name: 'x' }));
    expect(foreign).toEqual(missing);
    expect(await captureError(() => deleteBucket({ ownerId: bob.id, id: bucket.id }))).toEqual(missing);
    expect((await listBuckets({ ownerId: alice.id })).map((b) => b.name)).toEqual(['contracts']);
  });

  it('keeps bucket names unique per owner only, and documents survive their bucket', async () => {
    const alice = await createTestUser('alice');
    const bob = await createTestUser('bob');
    const a = await createBucket({ ownerId: alice.id, name: 'invoices' });
    await createBucket({ ownerId: bob.id, name: 'invoices' });
    await expect(createBucket({ ownerId: alice.id, name: ' invoices ' })).rejects.toMatchObject({
      code: 'conflict:bucket',
    });
    await expect(createBucket({ ownerId: alice.id, name: 'a\u0000b' })).rejects.toThrow();
    const doc = await createTestDocument(alice.id, { bucketId: a.id });
    expect(await deleteBucket({ ownerId: alice.id, id: a.id })).toEqual([doc.id]);
    expect((await findDocument({ ownerId: alice.id, id: doc.id }))?.bucketId).toBeNull();
  });
});

describe('per-user rate limits', () => {
  it('allows max requests per window, then 429 with Retry-After, per user', async () => {
    const alice = await createTestUser('rl');
    const bob = await createTestUser('rl');
    for (let i = 0; i < 3; i++) await enforceRateLimit({ userId: alice.id, action: 'test', max: 3, surface: 'upload' });
    const error = await captureError(() =>
      enforceRateLimit({ userId: alice.id, action: 'test', max: 3, surface: 'upload' }),
    );
    expect(error?.status).toBe(429);
    expect(error?.retryAfter).toBeGreaterThan(0);
    await enforceRateLimit({ userId: bob.id, action: 'test', max: 3, surface: 'upload' });
  });

  it('counts concurrent requests without losing any', async () => {
    const carol = await createTestUser('rl');
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () =>
        enforceRateLimit({ userId: carol.id, action: 'burst', max: 4, surface: 'agent' }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeLessThanOrEqual(4);
  });
});

async function captureError(
  fn: () => Promise<unknown>,
): Promise<{ status: number; code: string; message: string; retryAfter?: number } | null> {
  try {
    await fn();
    return null;
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return { status: error.status, code: error.code, message: error.message, retryAfter: error.retryAfter };
  }
}
