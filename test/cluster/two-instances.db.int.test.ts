import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDbReady, getDb } from '@/lib/db/client';
import type { SearchHit } from '@/lib/retrieval/types';
import { createTestUser } from '@/test/factories';
import { intake } from '@/test/reliability/ingest-harness';
import { type FakeQdrant, startFakeQdrant } from '@/test/support/retrieval/qdrant-fake-server';

/**
 * Scale-out, tested: two app instances (two processes, test/support/cluster/app-instance.ts) against one
 * PostgreSQL database and one Qdrant (the in-memory fake of its REST API; the real-server path of the adapter is
 * qdrant-chunk-index.contract.int.test.ts with QDRANT_URL). Both run the real ingest worker on the same queue:
 * every job runs exactly once, both instances take part, both answer an owner's search with the same ranking
 * (BM25 sparse vectors with per-owner IDF), another owner's documents never show, and a document deleted through
 * one instance is gone from the other's answers at once.
 *
 * PostgreSQL only (npm test's PostgreSQL stage runs *.db.int.test.ts): SQLite is one file on one machine.
 */

const isPg = process.env.DATABASE_URL?.startsWith('postgres') ?? false;
const INSTANCE = path.resolve(import.meta.dirname, '../support/cluster/app-instance.ts');

interface Reply {
  id: number;
  ok: boolean;
  value?: unknown;
  error?: string;
}

class Instance {
  private nextId = 1;
  private readonly waiting = new Map<number, (reply: Reply) => void>();
  private constructor(private readonly child: ChildProcess) {
    child.on('message', (message: Reply) => {
      const resolve = this.waiting.get(message.id);
      if (resolve) {
        this.waiting.delete(message.id);
        resolve(message);
      }
    });
  }

  static start(env: NodeJS.ProcessEnv): Promise<Instance> {
    const child = fork(INSTANCE, [], {
      execArgv: ['--import', 'tsx'],
      env,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code) => reject(new Error(`instance exited with ${code} before it was ready`)));
      child.once('message', () => resolve(new Instance(child)));
    });
  }

  async ask<T>(type: string, fields: Record<string, unknown> = {}): Promise<T> {
    const id = this.nextId++;
    const reply = await new Promise<Reply>((resolve) => {
      this.waiting.set(id, resolve);
      this.child.send({ type, id, ...fields });
    });
    if (!reply.ok) throw new Error(`instance ${type} failed: ${reply.error}`);
    return reply.value as T;
  }

  search(ownerId: string, query: string): Promise<SearchHit[]> {
    return this.ask('search', { ownerId, query, topK: 20 });
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    await this.ask('stop').catch(() => this.child.kill('SIGKILL'));
    await exited;
  }
}

const TOPICS = ['glacier survey', 'harbour dredging', 'vineyard irrigation', 'railway signalling', 'bakery ovens'];

/** A text document about one topic; `weight` repeats the topic in it, so rankings are not ties. */
function documentText(topic: string, n: number, weight: number): string {
  const lines = [`# Report ${n}: ${topic}`];
  for (let i = 0; i < 12; i++) {
    lines.push(
      `Paragraph ${i}. ${i < weight ? `The ${topic} team met again. ` : ''}Budget line ${n * 100 + i} covers staff, ` +
        `travel and equipment for week ${(n + i) % 52}; minutes were filed with the office.`,
    );
  }
  return lines.join('\n\n');
}

let fake: FakeQdrant;
const instances: Instance[] = [];

beforeAll(async () => {
  if (!isPg) return;
  await ensureDbReady();
  // other files' leftovers must not be claimed here
  await getDb().document.updateMany({
    where: { status: { in: ['PENDING', 'PROCESSING'] } },
    data: { status: 'FAILED' },
  });
  fake = await startFakeQdrant();
  const env = {
    ...process.env,
    QDRANT_URL: fake.url,
    QDRANT_COLLECTION_PREFIX: `cluster_${randomUUID().slice(0, 8)}`,
    QDRANT_TENANT_IDF: 'true',
    // no model server: keyword-only ingestion
    OLLAMA_BASE_URL: 'http://127.0.0.1:9',
  };
  instances.push(...(await Promise.all([Instance.start(env), Instance.start(env)])));
});

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await fake?.close();
});

describe.skipIf(!isPg)('two app instances on one PostgreSQL and one Qdrant', () => {
  const [first, second] = [() => instances[0] as Instance, () => instances[1] as Instance];
  let alice: { id: string };
  let bob: { id: string };
  const aliceDocs: string[] = [];

  it('process a shared queue: every job exactly once, by both instances', async () => {
    alice = await createTestUser('cluster-alice');
    bob = await createTestUser('cluster-bob');
    // queued after both instances are up, so both race for the same rows
    for (let n = 0; n < 20; n++) {
      const topic = TOPICS[n % TOPICS.length] as string;
      const taken = await intake(alice.id, `report-${n}.md`, Buffer.from(documentText(topic, n, 1 + (n % 7))));
      if ('stage' in taken)
        throw new Error(`upload refused: ${taken.stage === 'upload' ? taken.reason : taken.status}`);
      aliceDocs.push(taken.documentId);
    }
    // Bob writes about glaciers all the time: with per-owner IDF that must not change Alice's scores
    for (let n = 0; n < 6; n++) {
      const taken = await intake(bob.id, `bob-${n}.md`, Buffer.from(documentText('glacier survey', 100 + n, 12)));
      if ('stage' in taken) throw new Error('upload refused');
    }
    const all = await getDb().document.findMany({
      where: { ownerId: { in: [alice.id, bob.id] } },
      select: { id: true },
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      const left = await getDb().document.count({
        where: { ownerId: { in: [alice.id, bob.id] }, status: { in: ['PENDING', 'PROCESSING'] } },
      });
      if (left === 0) break;
      if (Date.now() > deadline) throw new Error(`${left} jobs still unfinished`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const statuses = await getDb().document.findMany({
      where: { id: { in: all.map((d) => d.id) } },
      select: { status: true },
    });
    expect(statuses.every((s) => s.status === 'INDEXED')).toBe(true);

    const ranByFirst = await first().ask<{ documentId: string }[]>('jobs');
    const ranBySecond = await second().ask<{ documentId: string }[]>('jobs');
    const everyRun = [...ranByFirst, ...ranBySecond].map((r) => r.documentId);
    expect(everyRun.sort()).toEqual(all.map((d) => d.id).sort()); // each job once, none twice, none missing
    expect(ranByFirst.length).toBeGreaterThan(0);
    expect(ranBySecond.length).toBeGreaterThan(0);
  });

  it('answer the same owner with the same ranking, and only with that owner’s chunks', async () => {
    for (const query of ['glacier survey', 'harbour dredging team', 'budget equipment week']) {
      const [a, b] = await Promise.all([first().search(alice.id, query), second().search(alice.id, query)]);
      expect(a.length).toBeGreaterThan(0);
      expect(b.map((h) => [h.chunkId, h.score])).toEqual(a.map((h) => [h.chunkId, h.score]));
      expect(a.every((h) => aliceDocs.includes(h.documentId))).toBe(true);
    }
    // the most glacier-heavy of Alice's glacier reports ranks first (BM25 over sparse vectors)
    const glacier = await first().search(alice.id, 'glacier');
    const top = await getDb().document.findUniqueOrThrow({ where: { id: glacier[0]?.documentId ?? '' } });
    // Alice's glacier reports are 0, 5, 10 and 15, naming the topic 1 + n % 7 times: 1, 6, 4 and 2
    expect(top.filename).toBe('report-5.md');
  });

  it('forget a document deleted through one instance in the other at once', async () => {
    const before = await second().search(alice.id, 'harbour dredging');
    const victim = before[0]?.documentId;
    expect(victim).toBeDefined();
    await first().ask('delete', { ownerId: alice.id, documentId: victim });
    const after = await second().search(alice.id, 'harbour dredging');
    expect(after.length).toBeGreaterThan(0);
    expect(after.some((h) => h.documentId === victim)).toBe(false);
    expect(await getDb().document.count({ where: { id: victim } })).toBe(0);
    // and the other owner's view never changed
    const bobs = await second().search(bob.id, 'harbour');
    expect(bobs.every((h) => !aliceDocs.includes(h.documentId))).toBe(true);
  });
});
