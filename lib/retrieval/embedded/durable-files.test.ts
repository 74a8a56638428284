import { existsSync, readFileSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withFileLock, writeDurable } from '@/lib/retrieval/embedded/durable-files';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docuchat-durable-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeDurable', () => {
  it('writes a list of parts as their concatenation (empty parts, more parts than one writev takes)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 1_500 }), async (parts) => {
        const target = path.join(dir, 'parts.bin');
        await writeDurable(target, parts);
        expect(Buffer.compare(await readFile(target), Buffer.concat(parts))).toBe(0);
      }),
      { numRuns: 25 },
    );
  });

  it('writes one buffer as it is', async () => {
    const target = path.join(dir, 'one.bin');
    await writeDurable(target, Buffer.from('hello'));
    expect((await readFile(target)).toString()).toBe('hello');
  });
});

describe('withFileLock', () => {
  it('takes over a lock file left empty by a process killed between creating it and writing its id', async () => {
    const lock = path.join(dir, 'LOCK-empty-old');
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 10_000);
    utimesSync(lock, old, old);
    const started = Date.now();
    expect(await withFileLock(lock, async () => readFileSync(lock, 'utf8'))).toBe(String(process.pid));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(existsSync(lock)).toBe(false);
  });

  it('waits for a lock file just created (its holder is about to write its id), then takes it when released', async () => {
    const lock = path.join(dir, 'LOCK-empty-new');
    writeFileSync(lock, '');
    let released = false;
    setTimeout(() => {
      released = true;
      unlinkSync(lock);
    }, 300);
    expect(await withFileLock(lock, async () => released)).toBe(true);
  });

  it('takes over a lock whose holder process is gone, and waits for one whose holder runs', async () => {
    const gone = path.join(dir, 'LOCK-gone');
    writeFileSync(gone, '2147483646'); // no such process
    expect(await withFileLock(gone, async () => 'taken')).toBe('taken');
    const held = path.join(dir, 'LOCK-held');
    writeFileSync(held, String(process.ppid)); // a live process (this test's parent)
    let released = false;
    setTimeout(() => {
      released = true;
      unlinkSync(held);
    }, 300);
    expect(await withFileLock(held, async () => released)).toBe(true);
  });
});
