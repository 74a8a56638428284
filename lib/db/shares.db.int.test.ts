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

    const later = new Date(Date.now() + 86_400_000);
    await setShareExpiry({ ownerId: alice.id, id: first.id, expiresAt: later });
    await setShareExpiry({ ownerId: alice.id, id: first.id, expiresAt: null });
    expect(await findPublicSnapshot(first.slug)).not.toBeNull();

    await revokeShare({ ownerId: alice.id, id: first.id });
    expect(await findPublicSnapshot(first.slug)).toBeNull();
    // a revoked link cannot be revived by editing its expiry
    for (const expiresAt of [null, later]) {
      await expect(setShareExpiry({ ownerId: alice.id, id: first.id, expiresAt })).rejects.toMatchObject({
        code: 'conflict:share',
      });
    }
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
    // nor does the answer's sentence that quoted it
    expect(JSON.stringify(snapshot)).not.toContain('02:00');
    expect(snapshot?.answer).toContain('[1]');
  });

  it('an expired link cannot be revived by editing; sharing again makes a new one', async () => {
    const alice = await createTestUser('alice');
    const { answer } = await answerWithCitation(alice.id);
    const share = await createShare({ ownerId: alice.id, answerId: answer.id });
    await setShareExpiry({ ownerId: alice.id, id: share.id, expiresAt: new Date(Date.now() - 1000) });
    expect(await findPublicSnapshot(share.slug)).toBeNull();
    for (const expiresAt of [null, new Date(Date.now() + 86_400_000)]) {
      await expect(setShareExpiry({ ownerId: alice.id, id: share.id, expiresAt })).rejects.toMatchObject({
        code: 'conflict:share',
        status: 409,
      });
    }
    expect(await findPublicSnapshot(share.slug)).toBeNull();
    expect((await listShares({ ownerId: alice.id })).find((s) => s.id === share.id)?.active).toBe(false);
    const fresh = await createShare({ ownerId: alice.id, answerId: answer.id });
    expect(fresh.slug).not.toBe(share.slug);
    expect(await findPublicSnapshot(fresh.slug)).not.toBeNull();
  });

  it('a share made after its document was deleted carries none of its text', async () => {
    const alice = await createTestUser('alice');
    const { answer, doc } = await answerWithCitation(alice.id);
    await getDb().document.deleteMany({ where: { id: doc.id, ownerId: alice.id } });
    const share = await createShare({ ownerId: alice.id, answerId: answer.id });
    const snapshot = await findPublicSnapshot(share.slug);
    expect(snapshot?.citations[0]).toMatchObject({ redacted: true, quote: null, text: null, snippet: null });
    const row = await getDb().share.findUnique({ where: { id: share.id } });
    const stored = JSON.stringify(row?.snapshot);
    for (const text of [stored, JSON.stringify(snapshot)]) {
      expect(text).not.toContain('nightly');
      expect(text).not.toContain('02:00');
    }
    expect(snapshot?.answer).toContain('[1]');
  });

  it('the public read strips text from a citation marked redacted, whatever the stored row says', async () => {
    const alice = await createTestUser('alice');
    const { answer } = await answerWithCitation(alice.id);
    const share = await createShare({ ownerId: alice.id, answerId: answer.id });
    const row = await getDb().share.findUniqueOrThrow({ where: { id: share.id } });
    const legacy = JSON.parse(JSON.stringify(row.snapshot)) as { citations: { redacted: boolean }[] };
    for (const c of legacy.citations) c.redacted = true; // an old redaction that kept the quote and snippet
    await getDb().share.update({ where: { id: share.id }, data: { snapshot: legacy } });
    const snapshot = await findPublicSnapshot(share.slug);
    expect(JSON.stringify(snapshot)).not.toContain('nightly');
  });

  it('a document deleted while its share was being made is redacted by the share side too', async () => {
    const alice = await createTestUser('alice');
    const { answer, doc } = await answerWithCitation(alice.id);
    const share = await createShare({ ownerId: alice.id, answerId: answer.id });
    // the deleter's rows are gone but its redaction pass missed this share (it ran before the share committed)
    await getDb().document.deleteMany({ where: { id: doc.id, ownerId: alice.id } });
    const again = await createShare({ ownerId: alice.id, answerId: answer.id });
    expect(again.slug).toBe(share.slug);
    const snapshot = await findPublicSnapshot(share.slug);
    expect(snapshot?.citations[0]).toMatchObject({ redacted: true, quote: null, text: null });
    expect(JSON.stringify(snapshot)).not.toContain('02:00');
  });

  it('a public read redacts a deleted document whose redaction pass never ran (server stopped in between)', async () => {
    const alice = await createTestUser('alice');
    const { answer, doc } = await answerWithCitation(alice.id);
    const share = await createShare({ ownerId: alice.id, answerId: answer.id });
    expect(JSON.stringify(await findPublicSnapshot(share.slug))).toContain('02:00');
    await getDb().document.deleteMany({ where: { id: doc.id, ownerId: alice.id } });
    const snapshot = await findPublicSnapshot(share.slug);
    expect(snapshot?.citations[0]).toMatchObject({ redacted: true, quote: null, text: null, snippet: null });
    expect(JSON.stringify(snapshot)).not.toContain('02:00');
    // and the stored row is redacted too
    const row = await getDb().share.findUniqueOrThrow({ where: { id: share.id } });
    expect(JSON.stringify(row.snapshot)).not.toContain('02:00');
  });
});
