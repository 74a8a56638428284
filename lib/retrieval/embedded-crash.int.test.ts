import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect } from '@lancedb/lancedb';
import { afterAll, describe, expect, it } from 'vitest';
import { createEmbeddedChunkIndex, ownerTableName } from '@/lib/retrieval/embedded-chunk-index';
import { CHUNKS, CRASH_OWNER } from '@/test/support/retrieval/crash-writer';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-crash-index-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const writer = path.resolve(import.meta.dirname, '../../test/support/retrieval/crash-writer.ts');

/** Runs the writer from `first`, kills it with SIGKILL `afterMs` after its first acknowledgement; returns its lines. */
function runAndKill(first: number, afterMs: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', writer, dir, String(first)], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    let armed = false;
    child.stdout.on('data', (data: Buffer) => {
      output += data.toString();
      if (!armed && output.includes('ACK')) {
        armed = true;
        setTimeout(() => child.kill('SIGKILL'), afterMs);
      }
    });
    child.on('error', reject);
    child.on('exit', () => resolve(output.split('\n').filter(Boolean)));
  });
}

describe('embedded index: kill -9 during writes', () => {
  it('loses no acknowledged write, never shows half a write, and stays usable', async () => {
    const present = new Set<number>();
    const deleted = new Set<number>();
    const uncertain = new Set<number>();
    let next = 1;
    let interrupted = 0;
    for (const afterMs of [150, 700, 1_300, 400, 950, 250]) {
      const lines = await runAndKill(next, afterMs);
      // A write cut mid-way leaves its intent behind; the next open repairs from it.
      const keywordDir = fs.readdirSync(dir).find((name) => name.endsWith('.kw'));
      if (keywordDir && fs.existsSync(path.join(dir, keywordDir, 'PENDING'))) interrupted++;
      let last = next;
      for (const line of lines) {
        const [kind, op, value] = line.split(' ');
        const batch = Number(value);
        if (kind === 'START') uncertain.add(batch);
        if (kind === 'ACK') {
          uncertain.delete(batch);
          if (op === 'upsert') present.add(batch);
          else {
            present.delete(batch);
            deleted.add(batch);
          }
        }
        if (op === 'upsert') last = Math.max(last, batch);
      }
      next = last + 1;
    }
    expect(present.size).toBeGreaterThan(3);
    // Writes are mostly inside the intent window, so some kill must have cut one (the repair path ran).
    expect(interrupted).toBeGreaterThan(0);

    const index = await createEmbeddedChunkIndex({ dir });
    try {
      for (let batch = 1; batch < next; batch++) {
        const hits = await index.search({ ownerId: CRASH_OWNER, query: `k${batch}x`, mode: 'keyword', topK: 50 });
        const got = await index.get(
          CRASH_OWNER,
          Array.from({ length: CHUNKS }, (_, i) => `b${batch}-c${i}`),
        );
        // All or nothing, and the keyword index agrees with the table.
        expect([0, CHUNKS]).toContain(hits.length);
        expect(got.length).toBe(hits.length);
        if (uncertain.has(batch)) continue;
        if (deleted.has(batch)) expect(hits.length, `batch ${batch} was deleted`).toBe(0);
        else if (present.has(batch)) expect(hits.length, `batch ${batch} was acknowledged`).toBe(CHUNKS);
      }
      // The keyword index holds exactly the table's rows (a write cut between the two was repaired).
      const db = await connect(dir);
      const table = await db.openTable(ownerTableName(CRASH_OWNER));
      expect(await index.countChunks(CRASH_OWNER)).toBe(await table.countRows());
      table.close();
      db.close();
      // Still writable after the crashes (a stale lock of a killed writer is taken over).
      await index.deleteDocument(CRASH_OWNER, 'doc-1');
      expect(await index.search({ ownerId: CRASH_OWNER, query: 'k1x', mode: 'keyword', topK: 5 })).toEqual([]);
    } finally {
      await index.close();
    }
  });
});
