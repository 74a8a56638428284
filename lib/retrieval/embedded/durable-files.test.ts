import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDurable } from '@/lib/retrieval/embedded/durable-files';

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
