import { beforeAll, describe, expect, it } from 'vitest';
import { findConversationContext, recordStartedAnswer, saveFinishedAnswer, saveRunningTrace } from '@/lib/db/answers';
import { createBucket, deleteBucket, findBucket, listBuckets, renameBucket } from '@/lib/db/buckets';
import { ensureDbReady, getDb } from '@/lib/db/client';
import {
  cancelQueuedDocument,
  deleteDocumentRecord,
  findDocument,
  findDocumentIdBySha256,
  findStoredFile,
  listDocuments,
  requeueDocument,
  updateDocumentRecord,
} from '@/lib/db/documents';
import { listShareSnapshots } from '@/lib/db/shares';
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

  it("leaves another owner's documents untouched by every write, and reads them as missing", async () => {
    const alice = await createTestUser('alice');
    const bob = await createTestUser('bob');
    const doc = await createTestDocument(alice.id, { status: 'FAILED' });
    const missingId = '00000000-0000-4000-8000-000000000000';
    const before = await findDocument({ ownerId: alice.id, id: doc.id });

    expect(await findStoredFile({ ownerId: alice.id, id: doc.id })).toMatchObject({ storedName: doc.storedName });
    expect(await findStoredFile({ ownerId: bob.id, id: doc.id })).toBeNull();
    expect(await findStoredFile({ ownerId: bob.id, id: 'not-a-uuid' })).toBeNull();
    expect(await findDocumentIdBySha256({ ownerId: bob.id, sha256: doc.sha256 })).toBeNull();
    expect(await findDocumentIdBySha256({ ownerId: alice.id, sha256: doc.sha256 })).toBe(doc.id);

    await requeueDocument({ ownerId: bob.id, id: doc.id });
    await cancelQueuedDocument({ ownerId: bob.id, id: doc.id });
    await updateDocumentRecord({
      ownerId: bob.id,
      id: doc.id,
      bucketId: null,
      metadata: {
        title: 'stolen',
        documentDate: null,
        tags: [],
        fields: {},
      },
    });
    let called = false;
    const mark = async () => {
      called = true;
    };
    expect(await deleteDocumentRecord({ ownerId: bob.id, id: doc.id }, mark)).toBeNull();
    expect(await deleteDocumentRecord({ ownerId: bob.id, id: missingId }, mark)).toBeNull();
    expect(called).toBe(false);
    expect(await findDocument({ ownerId: alice.id, id: doc.id })).toEqual(before);

    expect(await deleteDocumentRecord({ ownerId: alice.id, id: doc.id }, mark)).toEqual({ storedName: doc.storedName });
    expect(called).toBe(true);
    expect(await findDocument({ ownerId: alice.id, id: doc.id })).toBeNull();
  });

  it('keeps answers and conversations to their owner', async () => {
    const alice = await createTestUser('alice');
    const bob = await createTestUser('bob');
    const conversationId = crypto.randomUUID();
    const answerId = crypto.randomUUID();
    await recordStartedAnswer({
      ownerId: alice.id,
      answerId,
      question: 'q',
      mode: 'agent',
      style: 'concise',
      conversationId,
      newConversationTitle: 'Alice asks',
    });
    expect(await findConversationContext({ ownerId: alice.id, conversationId })).toMatchObject({
      title: 'Alice asks',
      history: [{ role: 'user', content: 'q' }],
    });
    expect(await findConversationContext({ ownerId: bob.id, conversationId })).toBeNull();
    await saveRunningTrace({ ownerId: bob.id, answerId, trace: [{ stolen: true }] });
    await expect(
      saveFinishedAnswer({
        ownerId: bob.id,
        answerId,
        result: {
          text: 'x',
          status: 'complete',
          citations: [],
          insufficiencies: [],
          trace: [],
          confidence: 'high',
          safetyFlags: [],
          models: {},
          timings: {},
        },
      }),
    ).rejects.toThrow();
    expect(await getDb().answer.findUniqueOrThrow({ where: { id: answerId } })).toMatchObject({
      status: 'running',
      trace: [],
      text: '',
    });
    await saveRunningTrace({ ownerId: alice.id, answerId, trace: [{ step: 1 }] });
    expect((await getDb().answer.findUniqueOrThrow({ where: { id: answerId } })).trace).toEqual([{ step: 1 }]);
    expect(await listShareSnapshots({ ownerId: bob.id })).toEqual([]);
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
