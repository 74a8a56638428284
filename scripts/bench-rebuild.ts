/**
 * The background rebuild of a keyword index written by an older analyser version, measured on a copy of a large
 * owner's folder (e.g. the 1M-chunk folder of `bench:retrieval --scale-only`, written with analyser version 3):
 * first-query latency after opening, query latency while the rebuild runs, rebuild duration, peak RSS, load.
 *   nice -n 5 npm run bench:rebuild -- --dir <COPY of the folder> [--owner big-owner] [--cpu-share 0.5]
 *     [--record]
 * The folder is rewritten (the new generation is adopted): run it on a copy. --record writes docs/figures.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { createEmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import { recordFigures } from './figures';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const dir = option('--dir');
if (!dir) throw new Error('--dir <copy of an index folder> is required');
const ownerId = option('--owner') ?? 'big-owner';
const cpuShare = Number(option('--cpu-share') ?? 0.5);
const SCIFACT_DIR = process.env.SCIFACT_DIR ?? '/work/shared/data/beir-scifact';

function queries(): string[] {
  const file = path.join(SCIFACT_DIR, 'queries.jsonl');
  const text = existsSync(file) ? readFileSync(file, 'utf8') : gunzipSync(readFileSync(`${file}.gz`)).toString('utf8');
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => String((JSON.parse(line) as { text: unknown }).text))
    .slice(0, 200);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

const texts = queries();
let rssMax = 0;
const loads: number[] = [];
const sampler = setInterval(() => {
  rssMax = Math.max(rssMax, process.memoryUsage().rss);
  loads.push(os.loadavg()[0] ?? 0);
}, 500);
const log = (message: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

const index = await createEmbeddedChunkIndex({ dir, rebuild: { cpuShare } });
const opened = performance.now();
const first = await index.search({ ownerId, query: texts[0] ?? 'protein', mode: 'keyword', topK: 10 });
const firstQueryS = (performance.now() - opened) / 1000;
log(`first query: ${firstQueryS.toFixed(2)} s, ${first.length} hits`);
const state = await index.keywordIndexState?.(ownerId);
if (!state?.rebuilding) log('the index is not being rebuilt (already current?)');

// Queries while the rebuild runs: one every 200 ms, timed.
const during: number[] = [];
let i = 1;
for (;;) {
  const current = await index.keywordIndexState?.(ownerId);
  if (!current?.rebuilding) break;
  const started = performance.now();
  await index.search({ ownerId, query: texts[i++ % texts.length] ?? '', mode: 'keyword', topK: 10 });
  during.push(performance.now() - started);
  if (during.length % 300 === 0) log(`rebuilding: ${current.done ?? 0} chunks, ${during.length} queries answered`);
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const rebuildS = (performance.now() - opened) / 1000;
const after: number[] = [];
for (let q = 0; q < 100; q++) {
  const started = performance.now();
  await index.search({ ownerId, query: texts[q % texts.length] ?? '', mode: 'keyword', topK: 10 });
  after.push(performance.now() - started);
}
clearInterval(sampler);
rssMax = Math.max(rssMax, process.memoryUsage().rss);
const count = await index.countChunks(ownerId);
await index.close();

const result = {
  chunks: count,
  cpuShare,
  firstQueryS: Number(firstQueryS.toFixed(3)),
  duringQueries: during.length,
  duringP50Ms: Number(percentile(during, 50).toFixed(1)),
  duringP95Ms: Number(percentile(during, 95).toFixed(1)),
  duringMaxMs: Number(Math.max(0, ...during).toFixed(1)),
  rebuildS: Number(rebuildS.toFixed(1)),
  afterP95Ms: Number(percentile(after, 95).toFixed(1)),
  peakRssMb: Math.round(rssMax / 2 ** 20),
  loadAvgMin: Number(Math.min(...loads).toFixed(2)),
  loadAvgMax: Number(Math.max(...loads).toFixed(2)),
};
console.log(JSON.stringify(result, null, 2));
if (argv.includes('--record')) {
  const command = `npm run bench:rebuild -- --dir <copy of the ${count}-chunk v3 folder> --cpu-share ${cpuShare}`;
  recordFigures({
    'retrieval.rebuild_first_query_s': { value: result.firstQueryS, unit: 's', command },
    'retrieval.rebuild_duration_s': { value: result.rebuildS, unit: 's', command },
    'retrieval.rebuild_query_p95_ms': { value: result.duringP95Ms, unit: 'ms', command },
    'retrieval.rebuild_peak_rss_mb': { value: result.peakRssMb, unit: 'MB', command },
  });
}
