/**
 * Keyword store micro-benchmark: opens one owner's persisted keyword index (a `.kw` folder) read-only and runs
 * SciFact queries against it (analysed like the product does), single-threaded, printing CPU per query.
 * Prints numbers, asserts nothing; writes no figures (bench:retrieval records the product's).
 *
 *   npx tsx scripts/bench-keyword-store.ts --dir /path/owner_x.kw [--queries 300] [--rounds 3] [--top 10]
 *   ... --save answers.json     # the top k (slots, scores) of every query, to compare another build against
 *   ... --compare answers.json  # fails (exit 1) when any query's top k differs from the saved one (chunks whose
 *                               # scores tie within 1e-9 may trade places: sums in another order differ in a bit)
 *   ... --buckets a,b,c         # only chunks in these buckets (the product's filter path, memoised per attribute set)
 *   ... --threads N             # N worker threads, each with its own copy of the index, run the queries side by
 *                               # side (what a second core would add: wall-clock q/s of N threads against one)
 *   ... --pool N [--concurrency 8] [--min-postings 0]
 *                               # the product's search pool: N workers sharing this index's memory score the
 *                               # queries (8 in flight), rounds alternating with in-thread scoring, answers
 *                               # compared query by query; q/s, p50/p95, CPU (main thread apart), event-loop
 *                               # delay, RSS
 *   ... --handoff               # one query at a time (each query's terms alone, and whole): time in this thread
 *                               # against through a 2-worker pool, by postings in the term lists (where the
 *                               # pool's size threshold comes from)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { gunzipSync } from 'node:zlib';
import { analyzeQueryTerms } from '@/lib/retrieval/analyzer';
import { DEFAULT_BM25_PARAMS } from '@/lib/retrieval/embedded/bm25-index';
import { KeywordPool } from '@/lib/retrieval/embedded/keyword-pool';
import type { AttributeSet } from '@/lib/retrieval/embedded/keyword-segment';
import { KeywordStore, languageMarker } from '@/lib/retrieval/embedded/keyword-store';
import { ANALYSIS_LANGUAGES } from '@/lib/retrieval/language';
import type { SearchFilters } from '@/lib/retrieval/types';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const SCIFACT_DIR = process.env.SCIFACT_DIR ?? '/work/shared/data/beir-scifact';

function readQueries(): string[] {
  const plain = path.join(SCIFACT_DIR, 'queries.jsonl');
  let text: string;
  try {
    text = readFileSync(plain, 'utf8');
  } catch {
    text = gunzipSync(readFileSync(`${plain}.gz`)).toString('utf8');
  }
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => String((JSON.parse(line) as { text: unknown }).text));
}

async function main(): Promise<void> {
  const threads = Number(option('--threads') ?? 0);
  if (isMainThread && threads > 0) return runThreads(threads);
  const dir = option('--dir');
  if (!dir) throw new Error('--dir required');
  const count = Number(option('--queries') ?? 300);
  const rounds = Number(option('--rounds') ?? 3);
  const top = Number(option('--top') ?? 10);
  const t0 = performance.now();
  const store = await KeywordStore.open(dir);
  console.log(`opened ${store.size.toLocaleString('en')} chunks in ${(performance.now() - t0).toFixed(0)} ms`);
  const languages = ANALYSIS_LANGUAGES.filter((language) => store.documentFrequency(languageMarker(language)) > 0);
  const queries = readQueries()
    .slice(0, count)
    .map((text) => {
      const { content, all } = analyzeQueryTerms(text, languages);
      const terms = content.some((term) => store.documentFrequency(term) > 0) ? content : all;
      const map = new Map<string, number>();
      for (const term of terms) map.set(term, (map.get(term) ?? 0) + 1);
      return map;
    });
  const buckets = option('--buckets')?.split(',');
  let accept: ((slot: number) => boolean) | undefined;
  if (buckets) {
    const verdicts = new Map<AttributeSet, boolean>();
    accept = (slot) => {
      const attributes = store.attributes(slot);
      let verdict = verdicts.get(attributes);
      if (verdict === undefined) {
        verdict = buckets.includes(attributes.bucketId ?? '');
        verdicts.set(attributes, verdict);
      }
      return verdict;
    };
  }
  const answers: { slot: number; score: number }[][] = [];
  if (argv.includes('--handoff')) {
    await runHandoff(store, queries, top);
    store.close();
    return;
  }
  const poolThreads = option('--pool');
  if (poolThreads !== undefined) {
    await runPool(store, queries, Number(poolThreads), top, buckets ? { bucketIds: buckets } : undefined);
    store.close();
    return;
  }
  if (!isMainThread) {
    // A thread of --threads: signal ready, wait for the start, run every query `rounds` times.
    const port = parentPort as NonNullable<typeof parentPort>;
    port.postMessage('ready');
    await new Promise((resolve) => port.once('message', resolve));
    for (let round = 0; round < rounds; round++)
      for (const query of queries) store.search(query, top, DEFAULT_BM25_PARAMS, accept);
    port.postMessage('done');
    store.close();
    return;
  }
  for (let round = 0; round < rounds; round++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (const [i, query] of queries.entries()) {
      const hits = store.search(query, top, DEFAULT_BM25_PARAMS, accept);
      if (round === 0) answers[i] = hits;
    }
    const used = process.cpuUsage(cpu);
    const cpuMs = (used.user + used.system) / 1000;
    console.log(
      `round ${round + 1}: ${(cpuMs / queries.length).toFixed(2)} ms CPU/query, ${((queries.length / cpuMs) * 1000).toFixed(0)} queries per CPU-second, wall ${((performance.now() - started) / queries.length).toFixed(2)} ms/query, load ${loadavg()[0]?.toFixed(1)}`,
    );
  }
  const save = option('--save');
  if (save) writeFileSync(save, JSON.stringify(answers));
  const compare = option('--compare');
  if (compare) {
    const saved = JSON.parse(readFileSync(compare, 'utf8')) as { slot: number; score: number }[][];
    let differ = 0;
    let tieOnly = 0;
    for (const [i, want] of saved.entries()) {
      const got = answers[i] ?? [];
      const same = got.length === want.length && got.every((hit, j) => hit.slot === want[j]?.slot);
      if (same && got.every((hit, j) => Math.abs(hit.score - (want[j]?.score ?? 0)) < 1e-9)) continue;
      if (sameUpToTies(got, want)) {
        tieOnly++;
        continue;
      }
      differ++;
      if (differ <= 3)
        console.log(`query ${i} differs:\n  got  ${JSON.stringify(got)}\n  want ${JSON.stringify(want)}`);
    }
    console.log(
      `compare: ${differ} of ${saved.length} queries differ (${tieOnly} more differ only in the order of chunks whose scores tie within 1e-9)`,
    );
    if (differ > 0) process.exitCode = 1;
  }
  store.close();
}

/**
 * Same scores rank by rank (within 1e-9) and the same chunks, except that chunks whose scores tie may trade places
 * (a tie is broken by slot, and float sums taken in another order can differ in the last bit) or, at the last
 * rank, be another chunk of the same score.
 */
function sameUpToTies(got: { slot: number; score: number }[], want: { slot: number; score: number }[]): boolean {
  if (got.length !== want.length) return false;
  if (!got.every((hit, j) => Math.abs(hit.score - (want[j]?.score ?? 0)) < 1e-9)) return false;
  const last = want[want.length - 1]?.score ?? 0;
  const tied = (score: number) => want.filter((hit) => Math.abs(hit.score - score) < 1e-9).length > 1;
  const wanted = new Set(want.map((hit) => hit.slot));
  return got.every((hit) => wanted.has(hit.slot) || Math.abs(hit.score - last) < 1e-9 || tied(hit.score));
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** CPU time of this process's main thread so far, ms (Linux: /proc/self/task/<pid>/stat; NaN elsewhere). */
function mainThreadCpuMs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10; // clock ticks of 10 ms (USER_HZ 100)
  } catch {
    return Number.NaN;
  }
}

/**
 * --pool N: the queries through `searchWith` (what the product calls), `concurrency` in flight, rounds alternating
 * between N pool workers and this thread (so both see the same machine load); every query's top k is compared
 * with the first answer. Per round: wall-clock q/s, latency, CPU of the process and of the main thread per query,
 * the main thread's event-loop delay (what every other request waits), RSS.
 */
async function runPool(
  store: KeywordStore,
  queries: Map<string, number>[],
  threads: number,
  top: number,
  filters: SearchFilters | undefined,
): Promise<void> {
  const concurrency = Number(option('--concurrency') ?? 8);
  const rounds = Number(option('--rounds') ?? 3);
  const pool = new KeywordPool({ threads, minPostings: Number(option('--min-postings') ?? 0) });
  await pool.whenReady();
  const answers = new Map<number, string>();
  const run = async (label: string) => {
    const times: number[] = [];
    let next = 0;
    let differ = 0;
    const delay = monitorEventLoopDelay({ resolution: 1 });
    const cpu = process.cpuUsage();
    const mainCpu = mainThreadCpuMs();
    const started = performance.now();
    delay.enable();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < queries.length) {
          // Each query as its own task, as a server's requests are (else the in-thread rounds would never let
          // the event loop turn, and its delay would not be measured).
          await new Promise((resolve) => setImmediate(resolve));
          if (next >= queries.length) break;
          const i = next++;
          const t0 = performance.now();
          const hits = await store.searchWith(
            queries[i] as Map<string, number>,
            top,
            DEFAULT_BM25_PARAMS,
            filters,
            (found) => found,
          );
          times.push(performance.now() - t0);
          const key = JSON.stringify(hits);
          const want = answers.get(i);
          if (want === undefined) answers.set(i, key);
          else if (want !== key) differ++;
        }
      }),
    );
    delay.disable();
    const seconds = (performance.now() - started) / 1000;
    const used = process.cpuUsage(cpu);
    const mainMs = (mainThreadCpuMs() - mainCpu) / queries.length;
    console.log(
      `${label}: ${(queries.length / seconds).toFixed(0)} queries/s wall (${concurrency} in flight), p50 ${percentile(times, 50).toFixed(2)} / p95 ${percentile(times, 95).toFixed(2)} ms, CPU ${((used.user + used.system) / 1000 / queries.length).toFixed(2)} ms/query (main thread ${mainMs.toFixed(2)}), event-loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(1)} / max ${(delay.max / 1e6).toFixed(1)} ms, RSS ${Math.round(process.memoryUsage().rss / 2 ** 20)} MB, load ${loadavg()[0]?.toFixed(1)}, ${differ} differ from the first answer`,
    );
  };
  for (let round = 0; round < rounds; round++) {
    store.setScoringPool(pool);
    await run(`round ${round + 1}, pool of ${threads}`);
    store.setScoringPool(null);
    await run(`round ${round + 1}, in-thread  `);
  }
  await pool.close();
}

/**
 * --handoff: the cost of the pool's hand-off by query size. Queries of many sizes (each SciFact query's terms alone
 * and together), one at a time, in this thread and then through the pool; mean wall ms per query by postings.
 */
async function runHandoff(store: KeywordStore, queries: Map<string, number>[], top: number): Promise<void> {
  const pool = new KeywordPool({ threads: 2, minPostings: 0 });
  await pool.whenReady();
  const sized = new Map<string, { query: Map<string, number>; postings: number }>();
  for (const query of queries) {
    const variants = [query, ...[...query.keys()].map((term) => new Map([[term, 1]]))];
    for (const variant of variants) {
      const postings = [...variant.keys()].reduce((sum, term) => sum + store.documentFrequency(term), 0);
      if (postings > 0) sized.set(JSON.stringify([...variant]), { query: variant, postings });
    }
  }
  const bounds = [1_000, 3_000, 10_000, 30_000, 100_000, 300_000, Number.POSITIVE_INFINITY];
  const rows = bounds.map(() => ({ count: 0, here: 0, pooled: 0 }));
  const rounds = Number(option('--rounds') ?? 3);
  for (let round = 0; round < rounds; round++) {
    for (const { query, postings } of sized.values()) {
      const row = rows[bounds.findIndex((bound) => postings <= bound)] as (typeof rows)[number];
      store.setScoringPool(null);
      let t0 = performance.now();
      await store.searchWith(query, top, DEFAULT_BM25_PARAMS, undefined, (hits) => hits);
      const here = performance.now() - t0;
      store.setScoringPool(pool);
      t0 = performance.now();
      await store.searchWith(query, top, DEFAULT_BM25_PARAMS, undefined, (hits) => hits);
      const pooled = performance.now() - t0;
      if (round === 0) continue; // warm-up
      row.count++;
      row.here += here;
      row.pooled += pooled;
    }
  }
  console.log(
    `| postings in the term lists | queries | this thread, ms | through the pool, ms | load ${loadavg()[0]?.toFixed(1)} |`,
  );
  rows.forEach((row, i) => {
    if (row.count === 0) return;
    const from = i === 0 ? 0 : (bounds[i - 1] as number);
    console.log(
      `| ${from.toLocaleString('en')}-${(bounds[i] as number).toLocaleString('en')} | ${row.count} | ${(row.here / row.count).toFixed(3)} | ${(row.pooled / row.count).toFixed(3)} |`,
    );
  });
  store.setScoringPool(null);
  await pool.close();
}

/** --threads N: N workers (each opens the index), started together once all are loaded; wall-clock q/s. */
async function runThreads(threads: number): Promise<void> {
  const workers = Array.from(
    { length: threads },
    () => new Worker(new URL(import.meta.url), { argv: process.argv.slice(2) }),
  );
  await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))));
  const rounds = Number(option('--rounds') ?? 3);
  const count = Number(option('--queries') ?? 300);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const done = workers.map((worker) => new Promise((resolve) => worker.once('message', resolve)));
  for (const worker of workers) worker.postMessage('start');
  await Promise.all(done);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const queries = threads * rounds * count;
  console.log(
    `${threads} threads: ${(queries / seconds).toFixed(0)} queries/s wall, ${(queries / ((used.user + used.system) / 1e6)).toFixed(0)} per CPU-second, load ${loadavg()[0]?.toFixed(1)}`,
  );
  await Promise.all(workers.map((worker) => worker.terminate()));
}

await main();
