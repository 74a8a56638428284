import { beforeAll, describe, expect, it } from 'vitest';
import { ensureDbReady, getDb, getDbHandle, openDb } from '@/lib/db/client';
import { claimNextJob } from '@/lib/db/jobs';
import { HEARTBEAT_STALE_MS, MAX_ATTEMPTS, recoverStaleJobs } from '@/lib/ingest/jobs';
import { createTestDocument, createTestUser } from '@/test/factories';

beforeAll(async () => {
  await ensureDbReady();
  await getDb().document.deleteMany({ where: { status: { in: ['PENDING', 'PROCESSING'] } } });
});

describe(`job claiming on ${process.env.DATABASE_URL?.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('hands every pending job to exactly one of many concurrent claimers', async () => {
    const user = await createTestUser('claims');
    const docs = await Promise.all(Array.from({ length: 12 }, () => createTestDocument(user.id)));
    // several clients = several "app instances" racing for the same rows
    const clients = [getDbHandle(), openDb(process.env.DATABASE_URL ?? ''), openDb(process.env.DATABASE_URL ?? '')];
    const claimed: string[] = [];
    await Promise.all(
      Array.from({ length: 6 }, async (_, worker) => {
        const handle = clients[worker % clients.length] ?? getDbHandle();
        for (;;) {
          const id = await claimNextJob(`worker-${worker}`, handle);
          if (!id) break;
          claimed.push(id);
        }
      }),
    );
    expect(claimed.sort()).toEqual(docs.map((d) => d.id).sort());
    expect(new Set(claimed).size).toBe(claimed.length);
    const rows = await getDb().document.findMany({ where: { id: { in: claimed } } });
    expect(rows.every((r) => r.status === 'PROCESSING' && r.attempts === 1 && r.lockedBy !== null)).toBe(true);
    for (const c of clients.slice(1)) await c.db.$disconnect();
  });

  it('claims the oldest job first', async () => {
    const user = await createTestUser('order');
    const newer = await createTestDocument(user.id, { createdAt: new Date(Date.now() + 1000) });
    const older = await createTestDocument(user.id, { createdAt: new Date(Date.now() - 60_000) });
    expect(await claimNextJob('w')).toBe(older.id);
    expect(await claimNextJob('w')).toBe(newer.id);
    expect(await claimNextJob('w')).toBeNull();
  });
});

describe('recovering jobs of a dead worker', () => {
  it('requeues stale jobs, fails those out of attempts, and leaves live ones alone', async () => {
    const user = await createTestUser('stale');
    const old = new Date(Date.now() - HEARTBEAT_STALE_MS * 2);
    const stale = await createTestDocument(user.id, { status: 'PROCESSING', lockedAt: old, attempts: 1 });
    const exhausted = await createTestDocument(user.id, {
      status: 'PROCESSING',
      lockedAt: old,
      attempts: MAX_ATTEMPTS,
    });
    const live = await createTestDocument(user.id, { status: 'PROCESSING', lockedAt: new Date(), attempts: 1 });
    const result = await recoverStaleJobs();
    expect(result.requeued).toBeGreaterThanOrEqual(1);
    expect(result.failed).toBeGreaterThanOrEqual(1);
    const byId = new Map((await getDb().document.findMany({ where: { ownerId: user.id } })).map((d) => [d.id, d]));
    expect(byId.get(stale.id)?.status).toBe('PENDING');
    expect(byId.get(exhausted.id)?.status).toBe('FAILED');
    expect(byId.get(exhausted.id)?.error).toMatch(/interrupted/);
    expect(byId.get(live.id)?.status).toBe('PROCESSING');
  });
});
