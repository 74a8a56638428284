/**
 * What many small commits do to one LanceDB table (one owner's chunk table, keyword-only: no vectors, so no ANN
 * refresh ever compacted it): appends of one document's rows at a time, CPU per append and the table's size on
 * disk (version manifests apart), without compaction and with LanceDB's optimize every N appends (what
 * lib/retrieval/embedded/chunk-table.ts now does, COMPACT_EVERY_COMMITS). Prints numbers; records no figure.
 *
 *   npx tsx scripts/bench-index-commits.ts [--appends 2000] [--rows 100] [--optimize-every 0|200] [--reopen]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { connect } from '@lancedb/lancedb';

function arg(name: string, fallback: string): number {
  const at = process.argv.indexOf(`--${name}`);
  return Number(at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback);
}

const APPENDS = arg('appends', '2000');
const ROWS = arg('rows', '100');
const OPTIMIZE_EVERY = arg('optimize-every', '0');
/** Also close and reopen the table (and the connection) after each optimize: what memory the handle holds. */
const REOPEN = process.argv.includes('--reopen');
const REPORT_EVERY = Math.max(1, Math.round(APPENDS / 8));

function megabytes(dir: string): number {
  return Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]) / 1024;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'docuchat-index-commits-'));
try {
  let db = await connect(dir);
  const rows = (d: number) =>
    Array.from({ length: ROWS }, (_, i) => ({
      chunkId: `c-${d}-${i}`,
      documentId: `d-${d}`,
      text: `chunk ${i} of document ${d}: ${'contract invoice payment schedule '.repeat(24)}`,
    }));
  let table = await db.createTable('owner', rows(0));
  const tableDir = path.join(dir, 'owner.lance');
  console.log(
    `${APPENDS} appends of ${ROWS} rows, optimize ${OPTIMIZE_EVERY ? `every ${OPTIMIZE_EVERY}` : 'never'}; load ${os.loadavg()[0]?.toFixed(1)}`,
  );
  console.log(
    'appends | CPU ms per append (last interval) | table MB | of which version manifests MB | RSS MB | JS heap MB',
  );
  let cpu = process.cpuUsage();
  for (let d = 1; d <= APPENDS; d++) {
    await table.add(rows(d));
    if (OPTIMIZE_EVERY > 0 && d % OPTIMIZE_EVERY === 0) {
      await table.optimize({ cleanupOlderThan: new Date(Date.now() - 1000) });
      if (REOPEN) {
        table.close();
        db.close();
        db = await connect(dir);
        table = await db.openTable('owner');
      }
    }
    if (d % REPORT_EVERY === 0 || d === APPENDS) {
      const used = process.cpuUsage(cpu);
      cpu = process.cpuUsage();
      const perAppend = (used.user + used.system) / 1000 / REPORT_EVERY;
      const memory = process.memoryUsage();
      console.log(
        `${String(d).padStart(7)} | ${perAppend.toFixed(1).padStart(6)} | ${megabytes(tableDir).toFixed(1).padStart(7)} | ${megabytes(path.join(tableDir, '_versions')).toFixed(1).padStart(7)} | ${(memory.rss / 2 ** 20).toFixed(0).padStart(5)} | ${(memory.heapUsed / 2 ** 20).toFixed(0).padStart(4)}`,
      );
    }
  }
  console.log(`rows: ${await table.countRows()}`);
  table.close();
  db.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
