import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  configureParseWorkerPool,
  countIdleParseWorkers,
  countParseWorkersStarted,
  parseAndChunkFile,
  prestartParseWorkers,
  shutdownParseWorkers,
} from '@/lib/ingest/sandbox';

/**
 * Issue 14: while one file is parsed, a warm parse worker waits for the next one, so another user's small file
 * does not pay a worker start (loading the parsers: ~0.3 s idle, seconds on a busy machine).
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-warm-'));

afterAll(async () => {
  await shutdownParseWorkers();
  fs.rmSync(dir, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const at = path.join(dir, name);
  fs.writeFileSync(at, text);
  return at;
}

describe('parse workers', () => {
  it('keep one warm spare while files are being parsed', async () => {
    await shutdownParseWorkers();
    expect(countIdleParseWorkers()).toBe(0);
    const first = parseAndChunkFile({ path: file('a.txt', 'First file.\n'.repeat(2000)), filename: 'a.txt' });
    expect(countIdleParseWorkers()).toBe(1); // the spare, started with the first job
    const second = parseAndChunkFile({ path: file('b.txt', 'A one-page note.\n'), filename: 'b.txt' });
    expect(countIdleParseWorkers()).toBe(1); // the second job took the spare; a new spare replaces it
    const [a, b] = await Promise.all([first, second]);
    expect(a.ok && b.ok).toBe(true);
    expect(countIdleParseWorkers()).toBeGreaterThanOrEqual(1);
  });

  it('start one worker per lane and no spare when the pool is told so (the bulk CLI)', async () => {
    await shutdownParseWorkers();
    configureParseWorkerPool({ warmSpare: false });
    try {
      const started = countParseWorkersStarted();
      for (let round = 0; round < 3; round++) {
        const results = await Promise.all(
          ['c', 'd'].map((name) =>
            parseAndChunkFile({
              path: file(`${name}.txt`, `File ${name}, round ${round}.\n`),
              filename: `${name}.txt`,
            }),
          ),
        );
        expect(results.every((r) => r.ok)).toBe(true);
      }
      expect(countParseWorkersStarted() - started).toBe(2); // two lanes, reused for every round
      expect(countIdleParseWorkers()).toBe(2);
    } finally {
      configureParseWorkerPool({ warmSpare: true });
    }
  });

  it('run at most maxBusy jobs at once; the others wait, and a cancelled wait never takes a worker', async () => {
    await shutdownParseWorkers();
    configureParseWorkerPool({ warmSpare: false, maxBusy: 2 });
    try {
      prestartParseWorkers(2);
      expect(countIdleParseWorkers()).toBe(2);
      const started = countParseWorkersStarted();
      const finished: string[] = [];
      const cancel = new AbortController();
      const names = ['e', 'f', 'g', 'h', 'i', 'j'];
      const jobs = names.map((name, at) =>
        parseAndChunkFile({
          path: file(`${name}.txt`, `File ${name}.\n`.repeat(at < 2 ? 20_000 : 10)),
          filename: `${name}.txt`,
          // 'h' waits for a worker when it is cancelled
          signal: name === 'h' ? cancel.signal : undefined,
        }).then((result) => {
          finished.push(name);
          return result;
        }),
      );
      cancel.abort();
      const results = await Promise.all(jobs);
      expect(results[3]).toEqual({ ok: false, code: 'aborted', reason: 'cancelled' });
      expect(results.filter((r) => r.ok)).toHaveLength(5);
      // only the two prestarted workers ever ran: no job started one of its own
      expect(countParseWorkersStarted() - started).toBe(0);
      expect(countIdleParseWorkers()).toBe(2);
      expect(finished).toHaveLength(6);
    } finally {
      configureParseWorkerPool({ warmSpare: true });
    }
  });

  it('hand a freed worker to the waiting jobs in the order they asked', async () => {
    // One worker, so jobs run one after another and the order they finish in is the order they started in.
    // (With two, two waiting jobs run side by side and either may finish first.)
    await shutdownParseWorkers();
    configureParseWorkerPool({ warmSpare: false, maxBusy: 1 });
    try {
      prestartParseWorkers(1);
      const finished: string[] = [];
      const cancel = new AbortController();
      const names = ['k', 'l', 'm', 'n', 'o'];
      const jobs = names.map((name, at) =>
        parseAndChunkFile({
          path: file(`${name}.txt`, `File ${name}.\n`.repeat(at === 0 ? 20_000 : 10)),
          filename: `${name}.txt`,
          // 'm' is waiting for the worker when it is cancelled
          signal: name === 'm' ? cancel.signal : undefined,
        }).then((result) => {
          if (result.ok) finished.push(name);
          return result;
        }),
      );
      cancel.abort();
      await Promise.all(jobs);
      expect(finished).toEqual(['k', 'l', 'n', 'o']);
    } finally {
      configureParseWorkerPool({ warmSpare: true });
    }
  });
});
