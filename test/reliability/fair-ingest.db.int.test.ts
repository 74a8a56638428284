import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/lib/db/client';
import { type IngestWorker, startIngestWorker } from '@/lib/ingest/jobs';
import { shutdownParseWorkers } from '@/lib/ingest/sandbox';
import { createTestUser } from '@/test/factories';
import { createHarness, type Harness, intake } from '@/test/reliability/ingest-harness';

/**
 * Issue 14, fair ingestion, end to end: two workers ("app instances", one slot each) process a neighbour's bulk
 * upload and another user's one small file queued after it. The small file is served next, not after the whole
 * backlog, and the neighbour never runs more than one job at a time while the other user waits.
 */

const BULK_FILES = 6;

function bulkText(n: number): string {
  const lines: string[] = [`# Neighbour report ${n}`];
  for (let i = 0; i < 900; i++)
    lines.push(`Paragraph ${i} of report ${n}: shipments, invoices and stock counts for week ${i % 52}.`);
  return lines.join('\n\n');
}

let h: Harness;
const workers: IngestWorker[] = [];

beforeAll(async () => {
  h = await createHarness();
  await getDb().document.updateMany({
    where: { status: { in: ['PENDING', 'PROCESSING'] } },
    data: { status: 'FAILED' },
  });
});

afterAll(async () => {
  await Promise.all(workers.map((w) => w.stop()));
  await shutdownParseWorkers();
  await h.close();
});

describe(`fair ingestion with two workers on ${process.env.DATABASE_URL?.startsWith('postgres') ? 'PostgreSQL' : 'SQLite'}`, () => {
  it("serves another user's small file next, not behind a neighbour's bulk upload", async () => {
    const [neighbour, other] = await Promise.all([createTestUser('bulk'), createTestUser('small')]);
    const bulkIds: string[] = [];
    for (let i = 0; i < BULK_FILES; i++) {
      const taken = await intake(neighbour.id, `report-${i}.md`, Buffer.from(bulkText(i)), 'text/markdown');
      if (!('documentId' in taken) || !taken.documentId) throw new Error('intake failed');
      bulkIds.push(taken.documentId);
    }
    const small = await intake(other.id, 'one-page.txt', Buffer.from('A one-page note about the quarterly review.'));
    if (!('documentId' in small) || !small.documentId) throw new Error('intake failed');
    const smallId = small.documentId;

    let neighbourMaxRunning = 0;
    const instancesSeen = new Set<string>();
    let bulkLeftWhenSmallIndexed = -1;
    const db = getDb();
    for (const name of ['instance-a', 'instance-b']) {
      workers.push(startIngestWorker({ ...h.deps, concurrency: 1, ownerConcurrency: 1, pollMs: 50, log: () => name }));
    }
    const deadline = Date.now() + 90_000;
    for (;;) {
      const rows = await db.document.findMany({
        where: { id: { in: [...bulkIds, smallId] } },
        select: { id: true, status: true, ownerId: true, lockedBy: true },
      });
      for (const r of rows) if (r.status === 'PROCESSING' && r.lockedBy) instancesSeen.add(r.lockedBy);
      const running = rows.filter((r) => r.ownerId === neighbour.id && r.status === 'PROCESSING').length;
      const smallWaiting = rows.some((r) => r.id === smallId && (r.status === 'PENDING' || r.status === 'PROCESSING'));
      if (smallWaiting) neighbourMaxRunning = Math.max(neighbourMaxRunning, running);
      const smallRow = rows.find((r) => r.id === smallId);
      if (bulkLeftWhenSmallIndexed < 0 && smallRow?.status === 'INDEXED') {
        bulkLeftWhenSmallIndexed = rows.filter((r) => r.ownerId === neighbour.id && r.status !== 'INDEXED').length;
      }
      if (rows.every((r) => r.status === 'INDEXED' || r.status === 'FAILED')) break;
      if (Date.now() > deadline) throw new Error('ingestion did not finish in 90 s');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const final = await db.document.findMany({ where: { id: { in: [...bulkIds, smallId] } } });
    expect(final.every((d) => d.status === 'INDEXED')).toBe(true);
    // FIFO would index the small file last (0 of the neighbour's files left); fair order serves it among the first
    expect(bulkLeftWhenSmallIndexed).toBeGreaterThanOrEqual(BULK_FILES - 2);
    expect(neighbourMaxRunning).toBeLessThanOrEqual(1);
    expect(instancesSeen.size).toBe(2); // both instances worked
  });
});
