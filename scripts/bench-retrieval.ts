/**
 * Retrieval benchmark: prints numbers, asserts nothing.
 *
 *   npx tsx scripts/bench-retrieval.ts                 # SciFact quality + q/s + other engines + scale 10k, 100k
 *   npx tsx scripts/bench-retrieval.ts --scale 10000,100000,1000000
 *   npx tsx scripts/bench-retrieval.ts --quality-only  # SciFact sections only
 *   npx tsx scripts/bench-retrieval.ts --scale-only --scale 100000
 *   npx tsx scripts/bench-retrieval.ts --tune          # BM25F grid on the SciFact *train* split
 *
 * Data: /work/shared/data/beir-scifact (override with SCIFACT_DIR). Results are written up in
 * docs/benchmarks-retrieval.md.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import MiniSearch from 'minisearch';
import { analyze } from '@/lib/retrieval/analyzer';
import { Bm25Index, type Bm25Params, DEFAULT_BM25_PARAMS } from '@/lib/retrieval/embedded/bm25-index';
import { createEmbeddedChunkIndex, type EmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import type { IndexedChunk, SearchMode, SearchRequest } from '@/lib/retrieval/types';

const SCIFACT_DIR = process.env.SCIFACT_DIR ?? '/work/shared/data/beir-scifact';
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(name);
const option = (name: string) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};

// ---------------------------------------------------------------- SciFact data and metrics

interface CorpusDoc {
  id: string;
  title: string;
  text: string;
}

function readJsonl(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function loadCorpus(): CorpusDoc[] {
  return readJsonl(path.join(SCIFACT_DIR, 'corpus.jsonl')).map((row) => ({
    id: String(row._id),
    title: String(row.title ?? ''),
    text: String(row.text ?? ''),
  }));
}

function loadQueries(): Map<string, string> {
  return new Map(readJsonl(path.join(SCIFACT_DIR, 'queries.jsonl')).map((row) => [String(row._id), String(row.text)]));
}

function loadQrels(split: 'test' | 'train'): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  const lines = readFileSync(path.join(SCIFACT_DIR, 'qrels', `${split}.tsv`), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  for (const line of lines) {
    const [queryId, docId, score] = line.split('\t');
    if (!queryId || !docId) continue;
    const judged = qrels.get(queryId) ?? new Map<string, number>();
    judged.set(docId, Number(score));
    qrels.set(queryId, judged);
  }
  return qrels;
}

/** nDCG@10 (pytrec_eval definition, gains 2^rel - 1) and recall@100 averaged over judged queries. */
function evaluate(runs: Map<string, string[]>, qrels: Map<string, Map<string, number>>) {
  let ndcg = 0;
  let recall = 0;
  for (const [queryId, judged] of qrels) {
    const ranked = runs.get(queryId) ?? [];
    let dcg = 0;
    ranked.slice(0, 10).forEach((docId, i) => {
      const gain = judged.get(docId) ?? 0;
      if (gain > 0) dcg += (2 ** gain - 1) / Math.log2(i + 2);
    });
    const ideal = [...judged.values()].filter((g) => g > 0).sort((a, b) => b - a);
    const idcg = ideal.slice(0, 10).reduce((sum, gain, i) => sum + (2 ** gain - 1) / Math.log2(i + 2), 0);
    ndcg += idcg > 0 ? dcg / idcg : 0;
    const relevant = ideal.length;
    const found = ranked.slice(0, 100).filter((docId) => (judged.get(docId) ?? 0) > 0).length;
    recall += relevant > 0 ? found / relevant : 0;
  }
  return { ndcg10: ndcg / qrels.size, recall100: recall / qrels.size };
}

function fmt(value: number, digits = 3): string {
  return value.toFixed(digits);
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function runPool<T>(items: T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) {
        const item = items[next++];
        if (item !== undefined) await work(item);
      }
    }),
  );
}

function scifactChunk(doc: CorpusDoc, ownerId: string): IndexedChunk {
  return {
    chunkId: doc.id,
    documentId: doc.id,
    ownerId,
    index: 0,
    text: doc.text,
    contextPrefix: doc.title,
    tokenCount: doc.text.split(/\s+/).length,
    vector: null,
    embeddingModel: null,
    page: null,
    sheet: null,
    rowStart: null,
    rowEnd: null,
    headingPath: null,
    charStart: 0,
    charEnd: doc.text.length,
    bucketId: null,
    mime: 'text/plain',
    filename: `${doc.id}.txt`,
    title: doc.title,
    documentDate: null,
    tags: [],
    fields: {},
  };
}

// ---------------------------------------------------------------- (1)+(2) our index on SciFact

async function benchScifactEmbedded(corpus: CorpusDoc[], queries: Map<string, string>) {
  const qrels = loadQrels('test');
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-scifact-'));
  const index = await createEmbeddedChunkIndex({ dir });
  try {
    let started = performance.now();
    await index.upsert(corpus.map((doc) => scifactChunk(doc, 'scifact')));
    const ingestMs = performance.now() - started;
    const testQueries = [...qrels.keys()].map((id) => ({ id, text: queries.get(id) ?? '' }));

    const runs = new Map<string, string[]>();
    for (const query of testQueries) {
      const hits = await index.search({ ownerId: 'scifact', query: query.text, mode: 'keyword', topK: 100 });
      runs.set(
        query.id,
        hits.map((hit) => hit.documentId),
      );
    }
    const quality = evaluate(runs, qrels);

    const throughput: { topK: number; concurrency: number; qps: number }[] = [];
    for (const topK of [10, 100]) {
      for (const concurrency of [1, 16]) {
        const rounds = 5;
        const work = Array.from({ length: rounds }, () => testQueries).flat();
        started = performance.now();
        await runPool(work, concurrency, async (query) => {
          await index.search({ ownerId: 'scifact', query: query.text, mode: 'keyword', topK });
        });
        throughput.push({ topK, concurrency, qps: (work.length / (performance.now() - started)) * 1000 });
      }
    }
    return { ingestMs, quality, throughput };
  } finally {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- (3) other JS engines

interface WinkEngine {
  defineConfig(config: { fldWeights: Record<string, number>; bm25Params?: { k1?: number; b?: number } }): boolean;
  definePrepTasks(tasks: ((input: string) => string[])[]): number;
  addDoc(doc: Record<string, string>, id: string): number;
  consolidate(fp?: number): boolean;
  search(text: string, limit?: number): [string, number][];
}

function timeSync(queries: { id: string; text: string }[], rounds: number, run: (text: string) => void): number {
  const started = performance.now();
  for (let round = 0; round < rounds; round++) for (const query of queries) run(query.text);
  return ((queries.length * rounds) / (performance.now() - started)) * 1000;
}

function benchOtherEngines(corpus: CorpusDoc[], queries: Map<string, string>) {
  const qrels = loadQrels('test');
  const testQueries = [...qrels.keys()].map((id) => ({ id, text: queries.get(id) ?? '' }));
  const results: { engine: string; ndcg10: number; recall100: number; qps: number; buildMs: number }[] = [];

  const miniVariants: { name: string; analyse: boolean }[] = [
    { name: 'minisearch 7.2 (its default tokenizer, title boost 2)', analyse: false },
    { name: 'minisearch 7.2 + our analyser (title boost 2)', analyse: true },
  ];
  for (const variant of miniVariants) {
    let started = performance.now();
    const mini = new MiniSearch<CorpusDoc>({
      fields: ['title', 'text'],
      storeFields: [],
      ...(variant.analyse ? { tokenize: (text: string) => analyze(text), processTerm: (term: string) => term } : {}),
      searchOptions: { boost: { title: 2 } },
    });
    mini.addAll(corpus);
    const buildMs = performance.now() - started;
    const runs = new Map<string, string[]>();
    for (const query of testQueries) {
      runs.set(
        query.id,
        mini
          .search(query.text)
          .slice(0, 100)
          .map((hit) => String(hit.id)),
      );
    }
    started = performance.now();
    const qps = timeSync(testQueries, 3, (text) => {
      mini.search(text).slice(0, 10);
    });
    results.push({ engine: variant.name, ...evaluate(runs, qrels), qps, buildMs });
  }

  const require = createRequire(import.meta.url);
  const makeWink = require('wink-bm25-text-search') as () => WinkEngine;
  const started = performance.now();
  const wink = makeWink();
  wink.defineConfig({ fldWeights: { title: 2, text: 1 }, bm25Params: { k1: 1.2, b: 0.75 } });
  wink.definePrepTasks([analyze]);
  for (const doc of corpus) wink.addDoc({ title: doc.title, text: doc.text }, doc.id);
  wink.consolidate();
  const buildMs = performance.now() - started;
  const runs = new Map<string, string[]>();
  for (const query of testQueries) {
    runs.set(
      query.id,
      wink.search(query.text, 100).map(([id]) => id),
    );
  }
  const qps = timeSync(testQueries, 3, (text) => {
    wink.search(text, 10);
  });
  results.push({
    engine: 'wink-bm25-text-search 3.1 + our analyser (title weight 2)',
    ...evaluate(runs, qrels),
    qps,
    buildMs,
  });
  return results;
}

// ---------------------------------------------------------------- BM25F parameter grid (train split)

function tune(corpus: CorpusDoc[], queries: Map<string, string>) {
  const bodies = corpus.map((doc) => analyze(doc.text));
  const titles = corpus.map((doc) => analyze(doc.title));
  const rows: (Bm25Params & { split: string; ndcg10: number; recall100: number })[] = [];
  for (const split of ['train', 'test'] as const) {
    const qrels = loadQrels(split);
    for (const k1 of [0.9, 1.2, 1.5]) {
      for (const bBody of [0.5, 0.75, 0.9]) {
        for (const contextWeight of [1, 2, 3]) {
          for (const bContext of [0.3, 0.75]) {
            const params = { k1, bBody, bContext, contextWeight };
            const index = new Bm25Index(params);
            for (let i = 0; i < corpus.length; i++) index.add(bodies[i] ?? [], titles[i] ?? []);
            const runs = new Map<string, string[]>();
            for (const queryId of qrels.keys()) {
              const hits = index.search(analyze(queries.get(queryId) ?? ''), 100);
              runs.set(
                queryId,
                hits.map((hit) => corpus[hit.slot]?.id ?? ''),
              );
            }
            rows.push({ split, ...params, ...evaluate(runs, qrels) });
          }
        }
      }
    }
  }
  const train = rows.filter((row) => row.split === 'train').sort((a, b) => b.ndcg10 - a.ndcg10);
  console.log('\n## BM25F grid, best 10 on SciFact train (809 queries), with their test score\n');
  console.log('| k1 | b body | b context | context weight | train nDCG@10 | train R@100 | test nDCG@10 | test R@100 |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of train.slice(0, 10)) {
    const test = rows.find(
      (other) =>
        other.split === 'test' &&
        other.k1 === row.k1 &&
        other.bBody === row.bBody &&
        other.bContext === row.bContext &&
        other.contextWeight === row.contextWeight,
    );
    console.log(
      `| ${row.k1} | ${row.bBody} | ${row.bContext} | ${row.contextWeight} | ${fmt(row.ndcg10, 4)} | ${fmt(row.recall100, 4)} | ${fmt(test?.ndcg10 ?? Number.NaN, 4)} | ${fmt(test?.recall100 ?? Number.NaN, 4)} |`,
    );
  }
}

// ---------------------------------------------------------------- (4) scale: synthetic corpus

/** Small deterministic PRNG (mulberry32): synthetic data only, never ids or secrets. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Word sampler with SciFact's own unigram distribution (a natural Zipfian vocabulary, stop words included),
 * plus a 3% long tail of rare synthetic terms drawn Zipf(1.1) from 2M ids, so the vocabulary keeps growing with
 * the corpus as real collections do (Heaps' law).
 */
function makeTextSampler(corpus: CorpusDoc[], random: () => number) {
  const counts = new Map<string, number>();
  for (const doc of corpus)
    for (const word of doc.text.split(/\s+/)) if (word) counts.set(word, (counts.get(word) ?? 0) + 1);
  const words = [...counts.keys()];
  const cumulative = new Float64Array(words.length);
  let total = 0;
  words.forEach((word, i) => {
    total += counts.get(word) ?? 0;
    cumulative[i] = total;
  });
  const tailSize = 2_000_000;
  const tailNorm = 1 - 1 / tailSize ** 0.1;
  const pick = () => {
    if (random() < 0.03) {
      // Inverse CDF of a continuous Zipf(1.1) on [1, tailSize].
      const rank = Math.floor((1 - random() * tailNorm) ** -10);
      return `zt${Math.min(rank, tailSize).toString(36)}`;
    }
    const target = random() * total;
    let lo = 0;
    let hi = words.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cumulative[mid] ?? 0) < target) lo = mid + 1;
      else hi = mid;
    }
    return words[lo] ?? 'the';
  };
  return (length: number) => Array.from({ length }, pick).join(' ');
}

function makeVectorSampler(dims: number, clusters: number, random: () => number) {
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const centroids = Array.from({ length: clusters }, () => Float32Array.from({ length: dims }, gaussian));
  return () => {
    const centroid = centroids[Math.floor(random() * clusters)] ?? centroids[0];
    const vector = new Array<number>(dims);
    let norm = 0;
    for (let d = 0; d < dims; d++) {
      const value = (centroid?.[d] ?? 0) + 0.7 * gaussian();
      vector[d] = value;
      norm += value * value;
    }
    norm = Math.sqrt(norm);
    for (let d = 0; d < dims; d++) vector[d] = (vector[d] ?? 0) / norm;
    return vector;
  };
}

const SCALE_DIMS = 768;
const BUCKETS = Array.from({ length: 10 }, (_, i) => `bucket-${i}`);

function syntheticChunk(
  ownerId: string,
  i: number,
  text: (n: number) => string,
  vector: () => number[],
  random: () => number,
): IndexedChunk {
  const documentId = `${ownerId}-doc-${Math.floor(i / 20)}`;
  const body = text(105 + Math.floor(random() * 30));
  return {
    chunkId: `${ownerId}-chunk-${i}`,
    documentId,
    ownerId,
    index: i % 20,
    text: body,
    contextPrefix: text(6),
    tokenCount: 160,
    vector: vector(),
    embeddingModel: 'synthetic-768',
    page: (i % 20) + 1,
    sheet: null,
    rowStart: null,
    rowEnd: null,
    headingPath: null,
    charStart: 0,
    charEnd: body.length,
    bucketId: BUCKETS[Math.floor(i / 20) % BUCKETS.length] ?? null,
    mime: 'application/pdf',
    filename: `${documentId}.pdf`,
    title: null,
    documentDate: `20${10 + (Math.floor(i / 20) % 15)}-01-01`,
    tags: [],
    fields: {},
  };
}

async function ingest(
  index: EmbeddedChunkIndex,
  ownerId: string,
  count: number,
  text: (n: number) => string,
  vector: () => number[],
  random: () => number,
  keep?: Float32Array,
) {
  const batchSize = 2_000;
  for (let start = 0; start < count; start += batchSize) {
    const batch: IndexedChunk[] = [];
    for (let i = start; i < Math.min(count, start + batchSize); i++) {
      const chunk = syntheticChunk(ownerId, i, text, vector, random);
      if (keep && chunk.vector) keep.set(chunk.vector, i * SCALE_DIMS);
      batch.push(chunk);
    }
    await index.upsert(batch);
  }
}

/** Exact top-k chunk numbers by cosine (vectors are unit length, so by dot product). */
function exactTopK(all: Float32Array, count: number, query: number[], k: number): number[] {
  const scores: { i: number; s: number }[] = [];
  for (let i = 0; i < count; i++) {
    let s = 0;
    const offset = i * SCALE_DIMS;
    for (let d = 0; d < SCALE_DIMS; d++) s += (all[offset + d] ?? 0) * (query[d] ?? 0);
    scores.push({ i, s });
  }
  return scores
    .sort((a, b) => b.s - a.s)
    .slice(0, k)
    .map((entry) => entry.i);
}

interface ScaleResult {
  chunks: number;
  /** Semantic top-10 overlap with the exact top-10 (measured up to 100k chunks). */
  semanticRecall10: number | null;
  loadAvg: number[];
  ingestS: number;
  annBuildS: number;
  loadS: number;
  rssMb: number;
  heapMb: number;
  latency: { label: string; p50: number; p95: number; qps: number }[];
}

async function runScale(size: number): Promise<ScaleResult> {
  const corpus = loadCorpus();
  const queries = [...loadQueries().values()].slice(0, 300);
  const random = prng(42);
  const text = makeTextSampler(corpus, random);
  const vector = makeVectorSampler(SCALE_DIMS, 256, random);
  const dir = await mkdtemp(path.join(tmpdir(), `bench-scale-${size}-`));
  try {
    let index = await createEmbeddedChunkIndex({ dir });
    let started = performance.now();
    const kept = size <= 100_000 ? new Float32Array(size * SCALE_DIMS) : undefined;
    await ingest(index, 'big-owner', size, text, vector, random, kept);
    for (const neighbour of ['neighbour-1', 'neighbour-2']) await ingest(index, neighbour, 2_000, text, vector, random);
    const ingestS = (performance.now() - started) / 1000;
    started = performance.now();
    await index.optimize();
    const annBuildS = (performance.now() - started) / 1000;
    await index.close();

    index = await createEmbeddedChunkIndex({ dir });
    started = performance.now();
    const count = await index.countChunks('big-owner');
    const loadS = (performance.now() - started) / 1000;
    if (count !== size) throw new Error(`expected ${size} chunks, found ${count}`);
    const memory = process.memoryUsage();

    const queryVectors = queries.map(() => vector());
    const cases: { label: string; mode: SearchMode; filters?: SearchRequest['filters'] }[] = [
      { label: 'keyword', mode: 'keyword' },
      { label: 'semantic', mode: 'semantic' },
      { label: 'hybrid (RRF, 50 candidates per mode)', mode: 'hybrid' },
      { label: 'keyword + filter (3 of 10 buckets)', mode: 'keyword', filters: { bucketIds: BUCKETS.slice(0, 3) } },
      { label: 'hybrid + filter (3 of 10 buckets)', mode: 'hybrid', filters: { bucketIds: BUCKETS.slice(0, 3) } },
    ];
    const latency: ScaleResult['latency'] = [];
    for (const testCase of cases) {
      const request = (i: number): SearchRequest => ({
        ownerId: 'big-owner',
        query: queries[i] ?? '',
        mode: testCase.mode,
        topK: 10,
        queryVector: queryVectors[i] ?? null,
        filters: testCase.filters,
      });
      for (let i = 0; i < 20; i++) await index.search(request(i));
      const times: number[] = [];
      for (let i = 0; i < queries.length; i++) {
        const t0 = performance.now();
        await index.search(request(i));
        times.push(performance.now() - t0);
      }
      const t0 = performance.now();
      await runPool(
        queries.map((_, i) => i),
        8,
        async (i) => {
          await index.search(request(i));
        },
      );
      const qps = (queries.length / (performance.now() - t0)) * 1000;
      latency.push({ label: testCase.label, p50: percentile(times, 50), p95: percentile(times, 95), qps });
    }
    const getTimes: number[] = [];
    for (let i = 0; i < 50; i++) {
      const ids = Array.from({ length: 5 }, () => `big-owner-chunk-${Math.floor(random() * size)}`);
      const t0 = performance.now();
      const got = await index.get('big-owner', ids);
      getTimes.push(performance.now() - t0);
      if (got.length !== new Set(ids).size) throw new Error('get() lost chunks');
    }
    latency.push({
      label: 'get() 5 ids (with vectors)',
      p50: percentile(getTimes, 50),
      p95: percentile(getTimes, 95),
      qps: Number.NaN,
    });
    let semanticRecall10: number | null = null;
    if (kept) {
      let overlap = 0;
      const sample = queryVectors.slice(0, 50);
      for (const queryVector of sample) {
        const exact = new Set(exactTopK(kept, size, queryVector, 10).map((i) => `big-owner-chunk-${i}`));
        const hits = await index.search({ ownerId: 'big-owner', query: '', mode: 'semantic', topK: 10, queryVector });
        overlap += hits.filter((hit) => exact.has(hit.chunkId)).length;
      }
      semanticRecall10 = overlap / (sample.length * 10);
    }
    await index.close();
    return {
      chunks: size,
      semanticRecall10,
      loadAvg: loadavg(),
      ingestS,
      annBuildS,
      loadS,
      rssMb: memory.rss / 2 ** 20,
      heapMb: memory.heapUsed / 2 ** 20,
      latency,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------- main

async function main() {
  const childSize = option('--scale-child');
  if (childSize) {
    const result = await runScale(Number(childSize));
    process.stdout.write(`\nSCALE_RESULT ${JSON.stringify(result)}\n`);
    return;
  }

  console.log(
    `# Retrieval benchmark (${cpus().length} cores, Node ${process.version}, load average ${loadavg()
      .map((n) => n.toFixed(1))
      .join(' ')})`,
  );
  const corpus = loadCorpus();
  const queries = loadQueries();

  if (flag('--tune')) {
    tune(corpus, queries);
    return;
  }

  if (!flag('--scale-only')) {
    console.log(`\nBM25F parameters: ${JSON.stringify(DEFAULT_BM25_PARAMS)}`);
    const ours = await benchScifactEmbedded(corpus, queries);
    console.log('\n## SciFact (BEIR, 5,183 docs, 300 test queries), keyword search through createEmbeddedChunkIndex\n');
    console.log(`ingest (analyse + LanceDB write): ${fmt(ours.ingestMs / 1000, 2)} s`);
    console.log(`nDCG@10 ${fmt(ours.quality.ndcg10, 4)}  recall@100 ${fmt(ours.quality.recall100, 4)}\n`);
    console.log('| topK | concurrent queries | queries/s |');
    console.log('| --- | --- | --- |');
    for (const row of ours.throughput) console.log(`| ${row.topK} | ${row.concurrency} | ${Math.round(row.qps)} |`);

    console.log('\n## Same corpus and queries, other JS engines (in-process, synchronous, topK 10 for q/s)\n');
    console.log('| engine | nDCG@10 | recall@100 | queries/s | build ms |');
    console.log('| --- | --- | --- | --- | --- |');
    console.log(
      `| ours (embedded index, BM25F) | ${fmt(ours.quality.ndcg10, 4)} | ${fmt(ours.quality.recall100, 4)} | ${Math.round(ours.throughput.find((row) => row.topK === 10 && row.concurrency === 16)?.qps ?? 0)} | ${Math.round(ours.ingestMs)} |`,
    );
    for (const row of benchOtherEngines(corpus, queries)) {
      console.log(
        `| ${row.engine} | ${fmt(row.ndcg10, 4)} | ${fmt(row.recall100, 4)} | ${Math.round(row.qps)} | ${Math.round(row.buildMs)} |`,
      );
    }
  }

  if (flag('--quality-only')) return;
  const sizes = (option('--scale') ?? '10000,100000')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  console.log(
    `\n## Scale: synthetic chunks (~120 words, SciFact unigram vocabulary + Zipf tail, ${SCALE_DIMS}-dim vectors), one owner of N chunks + 2 neighbour owners of 2,000, topK 10\n`,
  );
  const script = fileURLToPath(import.meta.url);
  for (const size of sizes) {
    const child = spawnSync(process.execPath, [...process.execArgv, script, '--scale-child', String(size)], {
      encoding: 'utf8',
      maxBuffer: 64 * 2 ** 20,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const line = child.stdout.split('\n').find((l) => l.startsWith('SCALE_RESULT '));
    if (!line) {
      console.log(`scale ${size}: failed (exit ${child.status})\n${child.stdout}`);
      continue;
    }
    const result = JSON.parse(line.slice('SCALE_RESULT '.length)) as ScaleResult;
    console.log(
      `### ${result.chunks.toLocaleString('en')} chunks: ingest ${fmt(result.ingestS, 1)} s, final ANN build/refresh ${fmt(result.annBuildS, 1)} s, reopen + rebuild keyword index ${fmt(result.loadS, 1)} s, RSS ${Math.round(result.rssMb)} MB (JS heap ${Math.round(result.heapMb)} MB), semantic recall@10 vs exact ${result.semanticRecall10 === null ? 'not measured' : fmt(result.semanticRecall10, 2)}, load average at end ${result.loadAvg.map((n) => n.toFixed(1)).join(' ')}\n`,
    );
    console.log('| query | p50 ms | p95 ms | q/s (8 concurrent) |');
    console.log('| --- | --- | --- | --- |');
    for (const row of result.latency)
      console.log(
        `| ${row.label} | ${fmt(row.p50, 2)} | ${fmt(row.p95, 2)} | ${Number.isFinite(row.qps) ? Math.round(row.qps) : 'n/a'} |`,
      );
    console.log('');
  }
}

await main();
