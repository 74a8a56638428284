/**
 * Parse + chunk throughput (no embedding): the shared documents corpus and a generated set of text PDFs, each
 * through the sandboxed worker path the app uses (parseAndChunkFile). Prints pages/s, MB/s and peak RSS.
 *
 *   npm run bench:ingest -- [--pages 10000] [--pages-per-file 50] [--concurrency 2] [--corpus <dir>]
 */

import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAndChunkFile, shutdownParseWorkers } from '@/lib/ingest/sandbox';
import { pageLines, writeGeneratedPdfs } from '@/test/support/ingest/generated-pdfs';
import { buildTextPdf } from '@/test/support/ingest/minimal-pdf';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const TOTAL_PAGES = Number(arg('pages', '10000'));
const PAGES_PER_FILE = Number(arg('pages-per-file', '50'));
const CONCURRENCY = Number(arg('concurrency', String(Math.max(1, os.availableParallelism()))));
const CORPUS = arg('corpus', path.resolve(import.meta.dirname, '../../shared/data/documents'));

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

interface RunStats {
  files: number;
  indexed: number;
  refused: number;
  pages: number;
  chunks: number;
  bytes: number;
  seconds: number;
  /** CPU seconds of the whole process (main thread and workers) during the run. */
  cpuSeconds: number;
}

async function run(files: string[]): Promise<RunStats> {
  const queue = [...files];
  const stats: RunStats = {
    files: files.length,
    indexed: 0,
    refused: 0,
    pages: 0,
    chunks: 0,
    bytes: 0,
    seconds: 0,
    cpuSeconds: 0,
  };
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let file = queue.shift(); file; file = queue.shift()) {
        stats.bytes += statSync(file).size;
        const result = await parseAndChunkFile({
          path: file,
          filename: path.basename(file),
          limits: { timeoutMs: 300_000 },
        });
        if (result.ok) {
          stats.indexed++;
          stats.pages += result.parsed.pageCount;
          stats.chunks += result.chunks.length;
        } else {
          stats.refused++;
        }
      }
    }),
  );
  stats.seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  stats.cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return stats;
}

function report(label: string, stats: RunStats): string {
  const mb = stats.bytes / 1024 / 1024;
  const cores = Math.min(CONCURRENCY, os.availableParallelism());
  return (
    `| ${label} | ${stats.files} (${stats.indexed} indexed, ${stats.refused} refused) | ${stats.pages} | ${stats.chunks} | ` +
    `${mb.toFixed(1)} | ${stats.seconds.toFixed(1)} | ${(stats.pages / stats.seconds).toFixed(0)} | ${(mb / stats.seconds).toFixed(2)} | ` +
    `${stats.cpuSeconds.toFixed(1)} | ${((stats.pages / stats.cpuSeconds) * cores).toFixed(0)} |`
  );
}

async function main(): Promise<void> {
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(
    `node ${process.version}, ${os.availableParallelism()} cores, concurrency ${CONCURRENCY}, load average ${load()}`,
  );
  // Warm one worker per lane so start-up (tsx + parser packages) is not billed to the first files.
  const warm = mkdtempSync(path.join(os.tmpdir(), 'docuchat-bench-warm-'));
  const warmFile = path.join(warm, 'warm.pdf');
  writeFileSync(warmFile, buildTextPdf([pageLines(0, 0)]));
  await run(Array.from({ length: CONCURRENCY }, () => warmFile));
  rmSync(warm, { recursive: true, force: true });

  const rows: string[] = [];
  const corpusFiles = listFiles(CORPUS);
  rows.push(report('documents corpus (mixed, 31 MB)', await run(corpusFiles)));
  console.log(rows.at(-1));

  const dir = mkdtempSync(path.join(os.tmpdir(), 'docuchat-bench-pdf-'));
  try {
    const fileCount = Math.ceil(TOTAL_PAGES / PAGES_PER_FILE);
    const t0 = performance.now();
    const generated = writeGeneratedPdfs(dir, TOTAL_PAGES, PAGES_PER_FILE);
    console.log(
      `generated ${TOTAL_PAGES} pages in ${fileCount} PDFs in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    rows.push(report(`generated text PDFs (${TOTAL_PAGES} pages, ${PAGES_PER_FILE}/file)`, await run(generated)));
    console.log(rows.at(-1));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await shutdownParseWorkers();
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  console.log(`\nload average at the end: ${load()}`);
  console.log(
    '\n| set | files | pages | chunks | MB | wall s | pages/s (wall) | MB/s (wall) | CPU s | pages/s on idle cores (pages per CPU-s x lanes) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
  console.log(`\npeak RSS (main thread + workers): ${peakRssMb.toFixed(0)} MB`);
}

await main();
