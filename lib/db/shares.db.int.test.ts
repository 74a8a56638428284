import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDbReady, getDb } from '@/lib/db/client';
import { createShare, findPublicSnapshot, listShares, revokeShare, setShareExpiry } from '@/lib/db/shares';
import { redactSharesForDocument } from '@/lib/share/redact';
import { createTestDocument, createTestUser } from '@/test/factories';

beforeAll(async () => {
  await ensureDbReady();
});

async function answerWithCitation(ownerId: string) {
  const db = getDb();
  const doc = await createTestDocument(ownerId, { status: 'INDEXED' });
  const chunk = await db.chunk.create({
    data: {
      documentId: doc.id,
      ownerId,
      index: 0,
      text: 'The reindex runs nightly at 02:00.',
      unitOrdinal: 0,
      charStart: 0,
      charEnd: 34,
      tokenCount: 9,
    },
  });
  const answer = await db.answer.create({
    data: {
      ownerId,
      question: 'When does the reindex run?',
      text: 'It runs “nightly at 02:00” [1].',
      status: 'complete',
      mode: 'agent',
      style: 'concise',
      citations: [
        {
          n: 1,
          documentId: doc.id,
          chunkId: chunk.id,
          filename: doc.filename,
          title: null,
          page: 2,
          sheet: null,
          headingPath: null,
          chunkIndex: 0,
          snippet: 'The reindex runs nightly',
          quote: 'nightly at 02:00',
          quoteStart: 17,
          quoteEnd: 33,
          charStart: 0,
          charEnd: 34,
          score: 1,
        },
      ],
      insufficiencies: [],
      trace: [],
      confidence: 'high',
      safetyFlags: [],
      models: { decision: null, synthesis: null, extractive: true },
      timings: {},
    },
  });
  return { doc, chunk, answer };
}

describe('shares', () => {
  it('creates one link per answer, readable signed out, and 404-equivalent when revoked or expired', async () => {
    const alice = await createTestUser('alice');
    const { answer, doc } = await answerWithCitation(alice.id);
    const first = await createShare({ ownerId: alice.id, answerId: answer.id });
    const again = await createShare({ ownerId: alice.id, answerId: answer.id });
    expect(again.slug).toBe(first.slug);
    const snapshot = await findPublicSnapshot(first.slug);
    expect(snapshot?.citations[0]).toMatchObject({
      quote: 'nightly at 02:00',
      text: 'The reindex runs nightly at 02:00.',
      sha256: doc.sha256,
    });

    await setShareExpiry({ ownerId: alice.id, id: first.id, expiresAt: new Date(Date.now() - 1000) });
    expect(await findPublicSnapshot(first.slug)).toBeNull();
    await setShareExpiry({ ownerId: alice.id, id: first.id, expiresAt: null });
    expect(await findPublicSnapshot(first.slug)).not.toBeNull();

    await revokeShare({ ownerId: alice.id, id: first.id });
    expect(await findPublicSnapshot(first.slug)).toBeNull();
    const fresh = await createShare({ ownerId: alice.id, answerId: answer.id });
    expect(fresh.slug).not.toBe(first.slug);
    expect(await findPublicSnapshot('A'.repeat(24))).toBeNull();
  });

  it('cannot be created, listed, revoked or re-timed by another user', async () => {
    const alice = await createTestUser('alice');
    const mallory = await createTestUser('mallory');
    const { answer } = await answerWithCitation(alice.id);
    const share = await createShare({ ownerId: alice.id, answerId: answer.id });
    await expect(createShare({ ownerId: mallory.id, answerId: answer.id })).rejects.toMatchObject({
      code: 'not_found:answer',
    });
    await expect(revokeShare({ ownerId: mallory.id, id: share.id })).rejects.toMatchObject({ code: 'not_found:share' });
    await expect(setShareExpiry({ ownerId: mallory.id, id: share.id, expiresAt: null })).rejects.toMatchObject({
      code: 'not_found:share',
    });
    expect((await listShares({ ownerId: mallory.id })).map((s) => s.id)).not.toContain(share.id);
    expect(await findPublicSnapshot(share.slug)).not.toBeNull();
  });

  it("redacts a deleted document's quotes from its owner's shares", async () => {
    const alice = await createTestUser('alice');
    const { answer, doc } = await answerWithCitation(alice.id);
    const share = await createShare({ ownerId: alice.id, answerId: answer.id });
    expect(await redactSharesForDocument({ ownerId: alice.id, documentId: doc.id })).toBe(1);
    const snapshot = await findPublicSnapshot(share.slug);
    expect(snapshot?.citations[0]).toMatchObject({ redacted: true, quote: null, text: null, snippet: null });
    expect(JSON.stringify(snapshot)).not.toContain('02:00.');
    expect(snapshot?.answer).toContain('[1]');
  });
});
