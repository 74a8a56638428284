import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  configureParseWorkerPool,
  countIdleParseWorkers,
  countParseWorkersStarted,
  parseAndChunkFile,
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
});
