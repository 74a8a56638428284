import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ensureDbReady, getDb, getDbHandle, openDb } from '@/lib/db/client';
import { type ClaimPolicy, claimNextJob } from '@/lib/db/jobs';
import { HEARTBEAT_STALE_MS, MAX_ATTEMPTS, recoverStaleJobs } from '@/lib/ingest/jobs';
import { createTestDocument, createTestUser } from '@/test/factories';

beforeAll(async () => {
  await ensureDbReady();
});

// Every test starts from an empty queue: the fair pick looks at every owner's waiting and running jobs.
beforeEach(async () => {
  await getDb().document.deleteMany({ where: { status: { in: ['PENDING', 'PROCESSING'] } } });
});

/** No cap: every claimer takes whatever is next in fair order. */
const UNCAPPED: ClaimPolicy = { ownerCap: 1_000, overCapAllowed: true };

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
          const id = await claimNextJob(`worker-${worker}`, UNCAPPED, handle);
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
    expect(await claimNextJob('w', UNCAPPED)).toBe(older.id);
    expect(await claimNextJob('w', UNCAPPED)).toBe(newer.id);
    expect(await claimNextJob('w', UNCAPPED)).toBeNull();
  });
});

async function finish(id: string): Promise<void> {
  await getDb().document.update({ where: { id }, data: { status: 'INDEXED', lockedBy: null, lockedAt: null } });
}

async function ownerOf(id: string | null): Promise<string | undefined> {
  if (!id) return undefined;
  return (await getDb().document.findUniqueOrThrow({ where: { id }, select: { ownerId: true } })).ownerId;
}

describe(`fair claiming across owners on ${process.env.DATABASE_URL?.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}`, () => {
  it('serves owners round-robin (least recently served first), not in upload order', async () => {
    const [a, b, c] = await Promise.all([createTestUser('rr-a'), createTestUser('rr-b'), createTestUser('rr-c')]);
    const t = Date.now() - 600_000;
    // a's bulk upload came first: six files; then b's two, then c's one
    for (let i = 0; i < 6; i++) await createTestDocument(a.id, { createdAt: new Date(t + i * 1000) });
    for (let i = 0; i < 2; i++) await createTestDocument(b.id, { createdAt: new Date(t + 10_000 + i * 1000) });
    await createTestDocument(c.id, { createdAt: new Date(t + 20_000) });
    const served: (string | undefined)[] = [];
    for (let i = 0; i < 9; i++) {
      const id = await claimNextJob('solo'); // one slot: claim, run, finish, claim again
      served.push(await ownerOf(id));
      if (id) await finish(id);
    }
    const name = new Map<string, string>([
      [a.id, 'a'],
      [b.id, 'b'],
      [c.id, 'c'],
    ]);
    expect(served.map((o) => (o ? name.get(o) : '-'))).toEqual(['a', 'b', 'c', 'a', 'b', 'a', 'a', 'a', 'a']);
    expect(await claimNextJob('solo')).toBeNull();
  });

  it('keeps the last slot for owners below their cap; a lone owner uses spare slots only', async () => {
    const [a, b] = await Promise.all([createTestUser('cap-a'), createTestUser('cap-b')]);
    const t = Date.now() - 600_000;
    for (let i = 0; i < 4; i++) await createTestDocument(a.id, { createdAt: new Date(t + i * 1000) });
    const capped: ClaimPolicy = { ownerCap: 1, overCapAllowed: false };
    expect(await ownerOf(await claimNextJob('w', capped))).toBe(a.id);
    // a already runs one job: the last slot is not a's, even with nobody else waiting
    expect(await claimNextJob('w', capped)).toBeNull();
    // a spare slot (more than one free) may go to a
    expect(await ownerOf(await claimNextJob('w', { ownerCap: 1, overCapAllowed: true }))).toBe(a.id);
    // b arrives after a's whole backlog and is served at once, ahead of a's older files
    const small = await createTestDocument(b.id, { createdAt: new Date() });
    expect(await claimNextJob('w', capped)).toBe(small.id);
    expect(await claimNextJob('w', { ownerCap: 1, overCapAllowed: true })).not.toBeNull(); // a again, spare slot
  });

  it('picks the owner atomically: racing instances never give one owner two jobs past its cap', async () => {
    const [a, b] = await Promise.all([createTestUser('race-a'), createTestUser('race-b')]);
    for (let i = 0; i < 5; i++) await createTestDocument(a.id);
    for (let i = 0; i < 5; i++) await createTestDocument(b.id);
    const url = process.env.DATABASE_URL ?? '';
    const instances = [getDbHandle(), openDb(url), openDb(url)];
    const capped: ClaimPolicy = { ownerCap: 1, overCapAllowed: false };
    // eight claimers on three connections at once, each keeping the last slot free for owners below the cap
    const claimed = (
      await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          claimNextJob(`instance-${i % 3}`, capped, instances[i % instances.length] ?? getDbHandle()),
        ),
      )
    ).filter((id): id is string => id !== null);
    const owners = await Promise.all(claimed.map(ownerOf));
    expect(owners.sort()).toEqual([a.id, b.id].sort());
    for (const h of instances.slice(1)) await h.db.$disconnect();
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
