/**
 * Retrieval benchmark: prints numbers, asserts nothing.
 *
 *   npx tsx scripts/bench-retrieval.ts                 # SciFact quality + q/s + other engines + scale 10k, 100k
 *   npx tsx scripts/bench-retrieval.ts --scale 10000,100000,1000000
 *   npx tsx scripts/bench-retrieval.ts --quality-only  # SciFact + NFCorpus quality and q/s only
 *   npx tsx scripts/bench-retrieval.ts --scale-only --scale 100000
 *   npx tsx scripts/bench-retrieval.ts --tune          # BM25F grid on the SciFact *train* split
 *   ... --keyword-threads N                            # keyword search workers of the served index (default: one
 *                                                      # per CPU, as the app; 0 = scored on the main thread)
 *   npx tsx scripts/bench-retrieval.ts --budget-only --budget-owners 10 --budget-size 100000 --budget-mb 200
 *                                                      # memory budget: owners queried in turn, LRU unloading
 *
 * Data: /work/shared/data/beir-scifact (override with SCIFACT_DIR) and the vendored BEIR NFCorpus in
 * bench-data/beir-nfcorpus (override with NFCORPUS_DIR). Results are written up in
 * docs/benchmarks-retrieval.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { connect, type Table } from '@lancedb/lancedb';
import type { RecordBatch } from 'apache-arrow';
import MiniSearch from 'minisearch';
import { analyze, analyzeForIndex, analyzeQuery } from '@/lib/retrieval/analyzer';
import { Bm25Index, type Bm25Params, DEFAULT_BM25_PARAMS } from '@/lib/retrieval/embedded/bm25-index';
import {
  createEmbeddedChunkIndex,
  type EmbeddedChunkIndex,
  ownerTableName,
} from '@/lib/retrieval/embedded-chunk-index';
import type { IndexedChunk, SearchMode, SearchRequest } from '@/lib/retrieval/types';
import { recordFigures } from './figures';
import { clusteredSampler, prng } from './synthetic-vectors';

const SCIFACT_DIR = process.env.SCIFACT_DIR ?? '/work/shared/data/beir-scifact';
const NFCORPUS_DIR =
  process.env.NFCORPUS_DIR ??
  path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bench-data', 'beir-nfcorpus');
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

/** A BEIR file, plain or gzipped (`corpus.jsonl` or `corpus.jsonl.gz`). */
function readBeirFile(dir: string, name: string): string {
  const plain = path.join(dir, name);
  if (existsSync(plain)) return readFileSync(plain, 'utf8');
  return gunzipSync(readFileSync(`${plain}.gz`)).toString('utf8');
}

function readJsonl(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function loadCorpus(dir = SCIFACT_DIR): CorpusDoc[] {
  return readJsonl(readBeirFile(dir, 'corpus.jsonl')).map((row) => ({
    id: String(row._id),
    title: String(row.title ?? ''),
    text: String(row.text ?? ''),
  }));
}

function loadQueries(dir = SCIFACT_DIR): Map<string, string> {
  return new Map(readJsonl(readBeirFile(dir, 'queries.jsonl')).map((row) => [String(row._id), String(row.text)]));
}

function loadQrels(split: 'test' | 'train', dir = SCIFACT_DIR): Map<string, Map<string, number>> {
  const qrels = new Map<string, Map<string, number>>();
  const lines = readBeirFile(dir, path.join('qrels', `${split}.tsv`))
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

/**
 * nDCG@10 as trec_eval computes it (linear gains: gain = relevance grade) and recall@100, averaged over judged
 * queries; `empty` counts queries that returned nothing. (SciFact's grades are all 1, where linear and 2^rel - 1
 * gains agree.)
 */
function evaluate(runs: Map<string, string[]>, qrels: Map<string, Map<string, number>>) {
  let ndcg = 0;
  let recall = 0;
  let empty = 0;
  for (const [queryId, judged] of qrels) {
    const ranked = runs.get(queryId) ?? [];
    if (ranked.length === 0) empty++;
    let dcg = 0;
    ranked.slice(0, 10).forEach((docId, i) => {
      const gain = judged.get(docId) ?? 0;
      if (gain > 0) dcg += gain / Math.log2(i + 2);
    });
    const ideal = [...judged.values()].filter((g) => g > 0).sort((a, b) => b - a);
    const idcg = ideal.slice(0, 10).reduce((sum, gain, i) => sum + gain / Math.log2(i + 2), 0);
    ndcg += idcg > 0 ? dcg / idcg : 0;
    const relevant = ideal.length;
    const found = ranked.slice(0, 100).filter((docId) => (judged.get(docId) ?? 0) > 0).length;
    recall += relevant > 0 ? found / relevant : 0;
  }
  return { ndcg10: ndcg / qrels.size, recall100: recall / qrels.size, empty };
}

/**
 * A run in the order trec_eval scores it: by score, ties by document id in reverse string order (trec_eval re-sorts
 * a run file that way whatever order the engine wrote). Matters on NFCorpus, which holds duplicate abstracts. The
 * references rank 1,000 documents as Anserini does; our search is asked for its top 100.
 */
function trecOrder(hits: readonly { id: string; score: number }[]): string[] {
  return [...hits].sort((a, b) => b.score - a.score || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0)).map((hit) => hit.id);
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

// ---------------------------------------------------------------- (1)+(2) our index on a judged set

interface JudgedSet {
  name: string;
  corpus: CorpusDoc[];
  queries: Map<string, string>;
  qrels: Map<string, Map<string, number>>;
}

/**
 * Anserini's published BM25 figures on NFCorpus test (BEIR v1.0.0 regressions, trec_eval -c): castorini/anserini
 * docs/regressions/regressions-beir-v1.0.0-nfcorpus.flat.md and ...nfcorpus.multifield.md. Constants, not measured.
 */
const ANSERINI_NFCORPUS = {
  flat: { ndcg10: 0.3218, recall100: 0.2457 },
  multifield: { ndcg10: 0.3254, recall100: 0.25 },
} as const;

/**
 * The second BEIR set: NFCorpus test (3,633 PubMed abstracts, 323 lay queries from NutritionFacts.org, graded
 * judgements 1-2), vendored in bench-data/beir-nfcorpus (source, licence and checksums in its README).
 */
function loadNfcorpusSet(): JudgedSet {
  return {
    name: 'BEIR NFCorpus test (3,633 abstracts, 323 queries)',
    corpus: loadCorpus(NFCORPUS_DIR),
    queries: loadQueries(NFCORPUS_DIR),
    qrels: loadQrels('test', NFCORPUS_DIR),
  };
}

function loadScifactSet(): JudgedSet {
  return {
    name: 'BEIR SciFact test (5,183 abstracts, 300 queries)',
    corpus: loadCorpus(),
    queries: loadQueries(),
    qrels: loadQrels('test'),
  };
}

/**
 * Plain BM25 the way Anserini runs it by default (a stand-in: Anserini itself is Java and not installable here):
 * one field (title + text), k1 0.9, b 0.4, Lucene's English stop set, Porter stems, every query word searched.
 * Run on SciFact too, where it can be checked against Anserini's published figures.
 */
function referenceBm25(set: JudgedSet) {
  const index = new Bm25Index({ k1: 0.9, bBody: 0.4, bContext: 0.4, contextWeight: 1 });
  for (const doc of set.corpus) index.add(analyzeForIndex(`${doc.title} ${doc.text}`), []);
  const runs = new Map<string, string[]>();
  for (const queryId of set.qrels.keys()) {
    const hits = index.search(analyzeForIndex(set.queries.get(queryId) ?? ''), 1000);
    runs.set(queryId, trecOrder(hits.map((hit) => ({ id: set.corpus[hit.slot]?.id ?? '', score: hit.score }))));
  }
  return evaluate(runs, set.qrels);
}

/**
 * Anserini's "multifield" BM25, reimplemented the same way: title and text are separate fields, each scored by its
 * own BM25 (k1 0.9, b 0.4, its own document frequencies and average length), and the two scores are summed.
 */
function referenceMultifieldBm25(set: JudgedSet) {
  const params = { k1: 0.9, bBody: 0.4, bContext: 0.4, contextWeight: 1 };
  const texts = new Bm25Index(params);
  const titles = new Bm25Index(params);
  for (const doc of set.corpus) {
    texts.add(analyzeForIndex(doc.text), []);
    titles.add(analyzeForIndex(doc.title), []);
  }
  const runs = new Map<string, string[]>();
  for (const queryId of set.qrels.keys()) {
    const terms = analyzeForIndex(set.queries.get(queryId) ?? '');
    const scores = new Map<number, number>();
    for (const index of [texts, titles]) {
      for (const hit of index.search(terms, set.corpus.length)) {
        scores.set(hit.slot, (scores.get(hit.slot) ?? 0) + hit.score);
      }
    }
    const ranked = trecOrder([...scores].map(([slot, score]) => ({ id: set.corpus[slot]?.id ?? '', score })));
    runs.set(queryId, ranked.slice(0, 100));
  }
  return evaluate(runs, set.qrels);
}

async function benchSetEmbedded(set: JudgedSet, measureThroughput: boolean) {
  const { qrels, queries, corpus } = set;
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-judged-'));
  const index = await createEmbeddedChunkIndex({ dir });
  try {
    let started = performance.now();
    await index.upsert(corpus.map((doc) => scifactChunk(doc, 'judged')));
    const ingestMs = performance.now() - started;
    const testQueries = [...qrels.keys()].map((id) => ({ id, text: queries.get(id) ?? '' }));

    const runs = new Map<string, string[]>();
    const indexed = new Set(corpus.flatMap((doc) => [...analyzeForIndex(doc.text), ...analyzeForIndex(doc.title)]));
    let withTerms = 0;
    let emptyWithTerms = 0;
    for (const query of testQueries) {
      const hits = await index.search({ ownerId: 'judged', query: query.text, mode: 'keyword', topK: 100 });
      runs.set(query.id, trecOrder(hits.map((hit) => ({ id: hit.documentId, score: hit.score }))));
      if (analyzeForIndex(query.text).some((term) => indexed.has(term))) {
        withTerms++;
        if (hits.length === 0) emptyWithTerms++;
      }
    }
    const quality = { ...evaluate(runs, qrels), withTerms, emptyWithTerms };

    // q/s by the wall clock, and per second of this process's CPU time (what one free core would give: on a
    // shared machine the wall-clock figure mostly measures the other jobs).
    const throughput: { topK: number; concurrency: number; qps: number; cpuQps: number }[] = [];
    for (const topK of measureThroughput ? [10, 100] : []) {
      for (const concurrency of [1, 16]) {
        const rounds = 5;
        const work = Array.from({ length: rounds }, () => testQueries).flat();
        started = performance.now();
        const cpu = process.cpuUsage();
        await runPool(work, concurrency, async (query) => {
          await index.search({ ownerId: 'judged', query: query.text, mode: 'keyword', topK });
        });
        const used = process.cpuUsage(cpu);
        throughput.push({
          topK,
          concurrency,
          qps: (work.length / (performance.now() - started)) * 1000,
          cpuQps: work.length / ((used.user + used.system) / 1e6),
        });
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
  const bodies = corpus.map((doc) => analyzeForIndex(doc.text));
  const titles = corpus.map((doc) => analyzeForIndex(doc.title));
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
              const hits = index.search(analyzeQuery(queries.get(queryId) ?? ''), 100);
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
  // --topical: half of a chunk's words come from one SciFact abstract (its document's topic), so words co-occur
  // as in real collections; the default draws every word independently (no co-occurrence: the hard case for
  // top-k pruning).
  const topicWords = corpus.map((doc) => `${doc.title} ${doc.text}`.split(/\s+/).filter(Boolean));
  return (length: number, topic?: number) =>
    Array.from({ length }, () => {
      const own = topic === undefined ? undefined : topicWords[topic % topicWords.length];
      if (own && own.length > 0 && random() < 0.5) return own[Math.floor(random() * own.length)] as string;
      return pick();
    }).join(' ');
}

function makeVectorSampler(dims: number, clusters: number, random: () => number, draw: () => number = random) {
  const gaussianOf = (r: () => number) => () => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const gaussian = gaussianOf(draw);
  const centroids = Array.from({ length: clusters }, () => Float32Array.from({ length: dims }, gaussianOf(random)));
  return () => {
    const centroid = centroids[Math.floor(draw() * clusters)] ?? centroids[0];
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

/** --dims N: vector dimension of the scale benchmark (default 768, a typical text-embedding size). */
const SCALE_DIMS = Number(option('--dims') ?? 768);
/**
 * --vectors bench|clustered: "bench" (default) = 256 gaussian centroids + strong noise (within a cluster every
 * point is about equally far: a hard case for IVF-PQ); "clustered" = embedding-like (shared direction, topics,
 * sub-topics, weaker noise), as in `npm run bench:ann`.
 */
const VECTOR_DIST = option('--vectors') ?? 'bench';
/** --bulk: ingest with `bulkLoad` (no background ANN work; one index build in `optimize()` at the end). */
const BULK = flag('--bulk');
/** --recall-queries N: query vectors for semantic recall@10 against an exact (flat) LanceDB scan while serving. */
const RECALL_QUERIES = Number(option('--recall-queries') ?? 50);
/** Keyword search workers of the served index (undefined: the product's default, one per CPU). */
const KEYWORD_THREADS = option('--keyword-threads') === undefined ? undefined : Number(option('--keyword-threads'));

/**
 * Vector sampler of the chosen distribution: its structure (centroids, topics) from `seed`, so ingest and serving
 * share it, its draws from `draw`.
 */
function scaleVectorSampler(seed: number, draw: () => number): () => number[] {
  if (VECTOR_DIST === 'clustered') {
    const sample = clusteredSampler(prng(seed), SCALE_DIMS, draw);
    const out = new Float32Array(SCALE_DIMS);
    return () => {
      sample(out, 0);
      return Array.from(out);
    };
  }
  return makeVectorSampler(SCALE_DIMS, 256, prng(seed), draw);
}
const VECTOR_SEED = 4242;
const BUCKETS = Array.from({ length: 10 }, (_, i) => `bucket-${i}`);

function syntheticChunk(
  ownerId: string,
  i: number,
  text: (n: number, topic?: number) => string,
  vector: () => number[],
  random: () => number,
): IndexedChunk {
  const documentId = `${ownerId}-doc-${Math.floor(i / 20)}`;
  // Topic of the document (--topical): a fixed pseudo-random SciFact abstract per document.
  const topic = TOPICAL ? Math.imul(Math.floor(i / 20) + 1, 2_654_435_761) >>> 8 : undefined;
  const body = text(105 + Math.floor(random() * 30), topic);
  return {
    chunkId: `${ownerId}-chunk-${i}`,
    documentId,
    ownerId,
    index: i % 20,
    text: body,
    contextPrefix: text(6, topic),
    tokenCount: 160,
    vector: vector(),
    embeddingModel: `synthetic-${SCALE_DIMS}`,
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
    // The ingest pipeline detects the language before the index sees a chunk (lib/ingest/pipeline.ts); the
    // synthetic chunks are SciFact's English vocabulary.
    language: 'en',
  };
}

/** --no-vectors: keyword-only chunks (no LanceDB vector column; semantic and hybrid rows are skipped). */
const WITH_VECTORS = !flag('--no-vectors');
/** --topical: chunks drawn half from their document's topic (a SciFact abstract), half from the background. */
const TOPICAL = flag('--topical');
/** Chunks per upsert (--batch, default 2,000). */
const BATCH = Number(option('--batch') ?? 2_000);

/**
 * Upserts chunks 0..count-1 of an owner in batches of BATCH, resuming after the chunks already there (a killed
 * ingest continues where its last committed batch ended). Every batch draws from its own seed (`reseed`), so a
 * resumed run writes the chunks an uninterrupted one would.
 */
async function ingest(
  index: EmbeddedChunkIndex,
  ownerId: string,
  count: number,
  text: (n: number) => string,
  vector: () => number[],
  random: () => number,
  reseed: (seed: number) => void,
  keep?: Float32Array,
): Promise<number> {
  const existing = await index.countChunks(ownerId);
  if (existing >= count) return count;
  const first = existing - (existing % BATCH);
  const started = performance.now();
  let lastLog = started;
  for (let start = first; start < count; start += BATCH) {
    reseed(hashSeed(ownerId, start));
    const batch: IndexedChunk[] = [];
    for (let i = start; i < Math.min(count, start + BATCH); i++) {
      const chunk = syntheticChunk(ownerId, i, text, WITH_VECTORS ? vector : () => [], random);
      if (keep && chunk.vector) keep.set(chunk.vector, i * SCALE_DIMS);
      batch.push(WITH_VECTORS ? chunk : { ...chunk, vector: null, embeddingModel: null });
    }
    await index.upsert(batch);
    const now = performance.now();
    if (now - lastLog > 30_000 || start + BATCH >= count) {
      lastLog = now;
      const done = Math.min(count, start + BATCH);
      console.error(
        `[${new Date().toISOString().slice(11, 19)}] ingest ${ownerId}: ${done.toLocaleString('en')}/${count.toLocaleString('en')}, ${((done - first) / ((now - started) / 1000)).toFixed(0)} chunks/s, load ${loadavg()[0]?.toFixed(1)}`,
      );
    }
  }
  return first;
}

function hashSeed(ownerId: string, start: number): number {
  let h = 2_166_136_261;
  for (const char of `${ownerId}:${start}`) h = Math.imul(h ^ (char.codePointAt(0) ?? 0), 16_777_619);
  return h >>> 0;
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

interface IngestResult {
  ingestS: number;
  annBuildS: number;
  /** Semantic top-10 overlap with the exact top-10 (measured up to 100k chunks). */
  semanticRecall10: number | null;
  diskMb: number;
  /** Chunks of the big owner already there when this ingest started (a resumed ingest times only the rest). */
  resumedAt?: number;
}

interface ServeResult {
  chunks: number;
  /** First keyword query of the big owner in a fresh process (opens the LanceDB table and the keyword index). */
  coldStartS: number;
  /** CPU time of that first query (user + system, all threads of the process). */
  coldStartCpuS: number;
  rssFirstMb: number;
  heapFirstMb: number;
  rssMaxMb: number;
  loadAvg: number[];
  latency: { label: string; p50: number; p95: number; qps: number; cpuQps: number }[];
  /** Semantic recall@10 of `index.search` against an exact LanceDB scan, and what the exact scan costs. */
  recall: {
    recall10: number;
    queries: number;
    /** The exact scan for all queries, s; and per query, ms (exactP50: the name earlier runs printed). */
    exactS: number;
    exactP50: number;
    searchP50: number;
    searchP95: number;
  } | null;
}

/**
 * Exact top-k ids by cosine for each query: one pass over the table's vectors (read as Arrow, scored in JS), so the
 * cost is one scan of the table for all queries rather than a LanceDB flat search per query.
 */
async function exactTopKScan(table: Table, queries: number[][], k: number, idColumn: string): Promise<Set<string>[]> {
  const dims = queries[0]?.length ?? 0;
  const unit = queries.map((q) => {
    const norm = Math.hypot(...q) || 1;
    return Float32Array.from(q, (x) => x / norm);
  });
  const best = queries.map(() => ({ ids: [] as string[], scores: [] as number[] }));
  const scan = table.query().select([idColumn, 'vector']) as AsyncIterable<RecordBatch>;
  for await (const batch of scan) {
    const ids = batch.getChild(idColumn);
    const vectors = batch.getChild('vector');
    const data = vectors?.data[0];
    const child = data?.children[0];
    if (!ids || !vectors || !data || !child) continue;
    const values = child.values as Float32Array;
    for (let i = 0; i < batch.numRows; i++) {
      if (data.nullCount > 0 && !vectors.isValid(i)) continue;
      const base = child.offset + (data.offset + i) * dims;
      let norm = 0;
      for (let d = 0; d < dims; d++) norm += (values[base + d] as number) ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let q = 0; q < unit.length; q++) {
        const query = unit[q] as Float32Array;
        let dot = 0;
        for (let d = 0; d < dims; d++) dot += (values[base + d] as number) * (query[d] as number);
        const score = dot / norm;
        const top = best[q] as { ids: string[]; scores: number[] };
        if (top.scores.length === k && score <= (top.scores[k - 1] as number)) continue;
        let at = top.scores.length;
        while (at > 0 && (top.scores[at - 1] as number) < score) at--;
        top.scores.splice(at, 0, score);
        top.ids.splice(at, 0, String(ids.get(i)));
        if (top.scores.length > k) {
          top.scores.pop();
          top.ids.pop();
        }
      }
    }
  }
  return best.map((top) => new Set(top.ids));
}

/**
 * Recall@10 of the product's semantic search (`index.search`, ANN with the product's settings) against the exact
 * answer (`exactTopKScan` over the owner's LanceDB table), RECALL_QUERIES query vectors of the ingested
 * distribution.
 */
async function semanticRecall(
  index: EmbeddedChunkIndex,
  dir: string,
  vector: () => number[],
): Promise<ServeResult['recall']> {
  console.error(`[${new Date().toISOString().slice(11, 19)}] serving: recall vs exact (${RECALL_QUERIES} queries)`);
  const queryVectors = Array.from({ length: RECALL_QUERIES }, () => vector());
  const db = await connect(dir);
  const table = await db.openTable(ownerTableName('big-owner'));
  const t0 = performance.now();
  const exact = await exactTopKScan(table, queryVectors, 10, 'chunkId');
  const exactS = (performance.now() - t0) / 1000;
  table.close();
  db.close();
  let overlap = 0;
  const searchTimes: number[] = [];
  for (const [q, queryVector] of queryVectors.entries()) {
    const started = performance.now();
    const hits = await index.search({ ownerId: 'big-owner', query: '', mode: 'semantic', topK: 10, queryVector });
    searchTimes.push(performance.now() - started);
    const truth = exact[q] as Set<string>;
    overlap += hits.filter((hit) => truth.has(hit.chunkId)).length;
  }
  return {
    recall10: overlap / (RECALL_QUERIES * 10),
    queries: RECALL_QUERIES,
    exactS,
    exactP50: (exactS * 1000) / RECALL_QUERIES,
    searchP50: percentile(searchTimes, 50),
    searchP95: percentile(searchTimes, 95),
  };
}

function folderMb(dir: string): number {
  const out = spawnSync('du', ['-sm', dir], { encoding: 'utf8' });
  return Number(out.stdout.split('\t')[0]) || 0;
}

/** Child process 1: ingest N chunks (+ 2 neighbours), final ANN build, semantic recall vs exact. */
async function scaleIngest(size: number, dir: string): Promise<IngestResult> {
  const corpus = loadCorpus();
  let current = prng(42);
  const random = () => current();
  const reseed = (seed: number) => {
    current = prng(seed);
  };
  const text = makeTextSampler(corpus, random);
  const vector = scaleVectorSampler(VECTOR_SEED, random);
  const index = await createEmbeddedChunkIndex({ dir, bulkLoad: BULK });
  let started = performance.now();
  const kept = size <= 100_000 && WITH_VECTORS ? new Float32Array(size * SCALE_DIMS) : undefined;
  const resumedAt = await ingest(index, 'big-owner', size, text, vector, random, reseed, kept);
  for (const neighbour of ['neighbour-1', 'neighbour-2'])
    await ingest(index, neighbour, 2_000, text, vector, random, reseed);
  const ingestS = (performance.now() - started) / 1000;
  console.error(`[${new Date().toISOString().slice(11, 19)}] ingest done in ${ingestS.toFixed(0)} s; optimize()`);
  started = performance.now();
  await index.optimize();
  const annBuildS = (performance.now() - started) / 1000;
  console.error(`[${new Date().toISOString().slice(11, 19)}] optimize() ${annBuildS.toFixed(0)} s`);
  let semanticRecall10: number | null = null;
  if (kept && resumedAt === 0) {
    let overlap = 0;
    const sample = Array.from({ length: 50 }, () => vector());
    for (const queryVector of sample) {
      const exact = new Set(exactTopK(kept, size, queryVector, 10).map((i) => `big-owner-chunk-${i}`));
      const hits = await index.search({ ownerId: 'big-owner', query: '', mode: 'semantic', topK: 10, queryVector });
      overlap += hits.filter((hit) => exact.has(hit.chunkId)).length;
    }
    semanticRecall10 = overlap / (sample.length * 10);
  }
  await index.close();
  return { ingestS, annBuildS, semanticRecall10, diskMb: folderMb(dir), resumedAt };
}

/** Child process 2 (a restart): cold first query, memory, then latency and throughput per query type. */
async function scaleServe(size: number, dir: string): Promise<ServeResult> {
  const queries = [...loadQueries().values()].slice(0, 300);
  const random = prng(7);
  const vector = scaleVectorSampler(VECTOR_SEED, random);
  const index = await createEmbeddedChunkIndex({ dir, keywordThreads: KEYWORD_THREADS });
  let rssMax = 0;
  const sampleRss = () => {
    rssMax = Math.max(rssMax, process.memoryUsage().rss);
  };
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  await index.search({ ownerId: 'big-owner', query: queries[0] ?? '', mode: 'keyword', topK: 10 });
  const coldStartS = (performance.now() - started) / 1000;
  const coldCpu = process.cpuUsage(cpuAtStart);
  const coldStartCpuS = (coldCpu.user + coldCpu.system) / 1e6;
  const first = process.memoryUsage();
  sampleRss();
  const count = await index.countChunks('big-owner');
  if (count !== size) throw new Error(`expected ${size} chunks, found ${count}`);

  const queryVectors = queries.map(() => vector());
  const allCases: { label: string; mode: SearchMode; filters?: SearchRequest['filters'] }[] = [
    { label: 'keyword', mode: 'keyword' },
    { label: 'semantic', mode: 'semantic' },
    { label: 'hybrid (RRF, 50 candidates per mode)', mode: 'hybrid' },
    { label: 'keyword + filter (3 of 10 buckets)', mode: 'keyword', filters: { bucketIds: BUCKETS.slice(0, 3) } },
    { label: 'semantic + filter (3 of 10 buckets)', mode: 'semantic', filters: { bucketIds: BUCKETS.slice(0, 3) } },
    { label: 'hybrid + filter (3 of 10 buckets)', mode: 'hybrid', filters: { bucketIds: BUCKETS.slice(0, 3) } },
  ];
  const only = option('--cases')?.split(',');
  const cases = (WITH_VECTORS ? allCases : allCases.filter((testCase) => testCase.mode === 'keyword')).filter(
    (testCase) => !only || only.some((prefix) => testCase.label.startsWith(prefix)),
  );
  const latency: ServeResult['latency'] = [];
  for (const testCase of cases) {
    console.error(`[${new Date().toISOString().slice(11, 19)}] serving: ${testCase.label}`);
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
    sampleRss();
    const t0 = performance.now();
    const cpu = process.cpuUsage();
    await runPool(
      queries.map((_, i) => i),
      8,
      async (i) => {
        await index.search(request(i));
      },
    );
    const used = process.cpuUsage(cpu);
    const qps = (queries.length / (performance.now() - t0)) * 1000;
    const cpuQps = queries.length / ((used.user + used.system) / 1e6);
    sampleRss();
    latency.push({ label: testCase.label, p50: percentile(times, 50), p95: percentile(times, 95), qps, cpuQps });
  }
  const getTimes: number[] = [];
  for (let i = 0; i < 50; i++) {
    const ids = Array.from({ length: 5 }, () => `big-owner-chunk-${Math.floor(random() * size)}`);
    if (!WITH_VECTORS && i === 0) sampleRss();
    const t0 = performance.now();
    const got = await index.get('big-owner', ids);
    getTimes.push(performance.now() - t0);
    if (got.length !== new Set(ids).size) throw new Error('get() lost chunks');
  }
  latency.push({
    label: WITH_VECTORS ? 'get() 5 ids (with vectors)' : 'get() 5 ids',
    p50: percentile(getTimes, 50),
    p95: percentile(getTimes, 95),
    qps: Number.NaN,
    cpuQps: Number.NaN,
  });
  const recall = WITH_VECTORS && RECALL_QUERIES > 0 ? await semanticRecall(index, dir, vector) : null;
  await index.close();
  return {
    chunks: size,
    recall,
    coldStartS,
    coldStartCpuS,
    rssFirstMb: first.rss / 2 ** 20,
    heapFirstMb: first.heapUsed / 2 ** 20,
    rssMaxMb: rssMax / 2 ** 20,
    loadAvg: loadavg(),
    latency,
  };
}

interface BudgetResult {
  owners: number;
  size: number;
  budgetMb: number;
  maxLoadedMb: number;
  maxRssMb: number;
  /** First query of an owner that was not loaded (load from disk + query), seconds. */
  coldP50S: number;
  coldMaxS: number;
  coldLoads: number;
  ownerMb: number;
}

/** Budget child 1: `owners` owners of `size` keyword-only chunks. */
async function budgetIngest(owners: number, size: number, dir: string): Promise<void> {
  const corpus = loadCorpus();
  const random = prng(11);
  const text = makeTextSampler(corpus, random);
  const index = await createEmbeddedChunkIndex({ dir, memoryBudgetMb: 64 });
  for (let owner = 0; owner < owners; owner++) {
    const ownerId = `owner-${owner}`;
    for (let start = 0; start < size; start += BATCH) {
      const batch: IndexedChunk[] = [];
      for (let i = start; i < Math.min(size, start + BATCH); i++) {
        const chunk = syntheticChunk(ownerId, i, text, () => [], random);
        batch.push({ ...chunk, vector: null, embeddingModel: null });
      }
      await index.upsert(batch);
    }
    console.error(`budget ingest: owner ${owner + 1}/${owners} done`);
  }
  await index.close();
}

/** Budget child 2: owners queried in turn (two rounds) under the budget; memory and cold loads measured. */
async function budgetServe(owners: number, size: number, budgetMb: number, dir: string): Promise<BudgetResult> {
  const queries = [...loadQueries().values()].slice(0, 50);
  const index = await createEmbeddedChunkIndex({ dir, memoryBudgetMb: budgetMb });
  let maxLoaded = 0;
  let maxRss = 0;
  let ownerBytes = 0;
  const cold: number[] = [];
  const loaded = new Set<string>();
  for (let round = 0; round < 2; round++) {
    for (let owner = 0; owner < owners; owner++) {
      const ownerId = `owner-${owner}`;
      const t0 = performance.now();
      await index.search({ ownerId, query: queries[owner % queries.length] ?? '', mode: 'keyword', topK: 10 });
      const elapsed = (performance.now() - t0) / 1000;
      for (let i = 1; i < 10; i++) await index.search({ ownerId, query: queries[i] ?? '', mode: 'keyword', topK: 10 });
      // Budget enforcement runs right after a load: let it finish before measuring.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const bytes = await index.loadedBytes();
      if (round === 0 && owner === 0) ownerBytes = bytes;
      maxLoaded = Math.max(maxLoaded, bytes);
      maxRss = Math.max(maxRss, process.memoryUsage().rss);
      if (round > 0 || !loaded.has(ownerId)) cold.push(elapsed);
      loaded.add(ownerId);
    }
  }
  await index.close();
  return {
    owners,
    size,
    budgetMb,
    maxLoadedMb: maxLoaded / 2 ** 20,
    maxRssMb: maxRss / 2 ** 20,
    coldP50S: percentile(cold, 50),
    coldMaxS: Math.max(...cold),
    coldLoads: cold.length,
    ownerMb: ownerBytes / 2 ** 20,
  };
}

function runChild(args: string[]): string | null {
  const script = fileURLToPath(import.meta.url);
  const valued = ['--batch', '--dims', '--vectors', '--recall-queries', '--cases', '--keyword-threads'];
  const passed = ['--no-vectors', '--bulk', '--topical', ...valued].flatMap((name) =>
    valued.includes(name) ? (option(name) ? [name, String(option(name))] : []) : flag(name) ? [name] : [],
  );
  const child = spawnSync(process.execPath, [...process.execArgv, script, ...args, ...passed], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const line = child.stdout.split('\n').find((l) => l.startsWith('RESULT '));
  if (!line) {
    console.log(`child ${args.join(' ')}: failed (exit ${child.status})\n${child.stdout}`);
    return null;
  }
  return line.slice('RESULT '.length);
}

// ---------------------------------------------------------------- main

const COMMAND = `npm run bench:retrieval -- ${argv.join(' ')}`.trim();

async function main() {
  const child = option('--child');
  if (child) {
    const [a, b, c, d] = argv.slice(argv.indexOf('--child') + 2);
    let result: unknown;
    if (child === 'scale-ingest') result = await scaleIngest(Number(a), String(b));
    else if (child === 'scale-serve') result = await scaleServe(Number(a), String(b));
    else if (child === 'budget-ingest') result = await budgetIngest(Number(a), Number(b), String(c));
    else if (child === 'budget-serve') result = await budgetServe(Number(a), Number(b), Number(c), String(d));
    process.stdout.write(`\nRESULT ${JSON.stringify(result ?? null)}\n`);
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

  if (!flag('--scale-only') && !flag('--budget-only')) {
    console.log(`\nBM25F parameters: ${JSON.stringify(DEFAULT_BM25_PARAMS)}`);
    const scifact = loadScifactSet();
    const ours = await benchSetEmbedded(scifact, true);
    const scifactReference = referenceBm25(scifact);
    const scifactMultifield = referenceMultifieldBm25(scifact);
    console.log(`\n## ${scifact.name}, keyword search through createEmbeddedChunkIndex\n`);
    console.log(`ingest (analyse + LanceDB write + keyword segment): ${fmt(ours.ingestMs / 1000, 2)} s`);
    console.log(
      `nDCG@10 ${fmt(ours.quality.ndcg10, 4)} (linear gains, as trec_eval)  recall@100 ${fmt(ours.quality.recall100, 4)}  empty results ${ours.quality.empty} (of which with an indexed query term: ${ours.quality.emptyWithTerms})`,
    );
    console.log(
      `reference plain BM25 (Anserini defaults, in-script): nDCG@10 ${fmt(scifactReference.ndcg10, 4)}  recall@100 ${fmt(scifactReference.recall100, 4)}  (Anserini published, flat: 0.679 / 0.925)`,
    );
    console.log(
      `reference multifield BM25 (in-script): nDCG@10 ${fmt(scifactMultifield.ndcg10, 4)}  recall@100 ${fmt(scifactMultifield.recall100, 4)}  (Anserini published, multifield: 0.665 / 0.908)\n`,
    );
    console.log('| topK | concurrent queries | queries/s (wall clock) | queries per CPU-second |');
    console.log('| --- | --- | --- | --- |');
    for (const row of ours.throughput)
      console.log(`| ${row.topK} | ${row.concurrency} | ${Math.round(row.qps)} | ${Math.round(row.cpuQps)} |`);

    const second = loadNfcorpusSet();
    const secondOurs = await benchSetEmbedded(second, false);
    const secondReference = referenceBm25(second);
    const secondMultifield = referenceMultifieldBm25(second);
    console.log(`\n## Second BEIR set: ${second.name}, keyword search through createEmbeddedChunkIndex\n`);
    console.log('| index | nDCG@10 (linear gains) | recall@100 | queries with no results |');
    console.log('| --- | --- | --- | --- |');
    console.log(
      `| ours (embedded index, BM25F) | ${fmt(secondOurs.quality.ndcg10, 4)} | ${fmt(secondOurs.quality.recall100, 4)} | ${secondOurs.quality.empty} (${secondOurs.quality.emptyWithTerms} with an indexed term) |`,
    );
    console.log(
      `| reference plain BM25 (Anserini defaults, in-script) | ${fmt(secondReference.ndcg10, 4)} | ${fmt(secondReference.recall100, 4)} | ${secondReference.empty} |`,
    );
    console.log(
      `| reference multifield BM25 (in-script) | ${fmt(secondMultifield.ndcg10, 4)} | ${fmt(secondMultifield.recall100, 4)} | ${secondMultifield.empty} |`,
    );
    console.log(
      `| Anserini BM25 flat / multifield, published | ${ANSERINI_NFCORPUS.flat.ndcg10} / ${ANSERINI_NFCORPUS.multifield.ndcg10} | ${ANSERINI_NFCORPUS.flat.recall100} / ${ANSERINI_NFCORPUS.multifield.recall100} | |`,
    );

    const row10 = ours.throughput.find((row) => row.topK === 10 && row.concurrency === 16);
    const qps10 = row10?.qps ?? 0;
    recordFigures({
      'retrieval.scifact_ndcg10': {
        value: round(ours.quality.ndcg10, 4),
        unit: 'nDCG@10 (linear gains, as trec_eval) on BEIR SciFact test, our keyword search',
        command: COMMAND,
      },
      'retrieval.scifact_recall100': {
        value: round(ours.quality.recall100, 4),
        unit: 'recall@100 on BEIR SciFact test (300 queries; trec_eval recall.100), our keyword search',
        command: COMMAND,
      },
      'retrieval.scifact_qps_per_cpu_second': {
        value: Math.round(row10?.cpuQps ?? 0),
        unit: 'queries per CPU-second of the benchmark process (topK 10, 16 concurrent, snippets)',
        command: COMMAND,
      },
      'retrieval.scifact_qps': {
        value: Math.round(qps10),
        unit: 'queries/s (topK 10, 16 concurrent, snippets)',
        command: COMMAND,
      },
      'retrieval.second_set_recall100': {
        value: round(secondOurs.quality.recall100, 4),
        unit: 'recall@100 on BEIR NFCorpus test (323 queries; trec_eval recall.100), our keyword search',
        command: COMMAND,
      },
      'retrieval.second_set_ndcg10': {
        value: round(secondOurs.quality.ndcg10, 4),
        unit: 'nDCG@10 (linear gains, as trec_eval) on BEIR NFCorpus test, our keyword search',
        command: COMMAND,
      },
      'retrieval.second_set_anserini_recall100': {
        value: Math.max(ANSERINI_NFCORPUS.flat.recall100, ANSERINI_NFCORPUS.multifield.recall100),
        unit: 'recall@100 on BEIR NFCorpus test, Anserini BM25 multifield as published (the higher of flat 0.2457 and multifield 0.2500; a constant from castorini/anserini docs/regressions/regressions-beir-v1.0.0-nfcorpus.multifield.md, not measured here)',
        command: COMMAND,
      },
      'retrieval.second_set_bm25_reference_recall100': {
        value: round(secondReference.recall100, 4),
        unit: 'recall@100 on BEIR NFCorpus test, plain BM25 with Anserini defaults reimplemented in-script (not Anserini itself)',
        command: COMMAND,
      },
    });

    if (!flag('--quality-only')) {
      console.log('\n## Same corpus and queries, other JS engines (in-process, synchronous, topK 10 for q/s)\n');
      console.log('| engine | nDCG@10 | recall@100 | queries/s | build ms |');
      console.log('| --- | --- | --- | --- | --- |');
      for (const row of benchOtherEngines(corpus, queries)) {
        console.log(
          `| ${row.engine} | ${fmt(row.ndcg10, 4)} | ${fmt(row.recall100, 4)} | ${Math.round(row.qps)} | ${Math.round(row.buildMs)} |`,
        );
      }
    }
  }

  if (flag('--budget-only')) {
    const owners = Number(option('--budget-owners') ?? 10);
    const size = Number(option('--budget-size') ?? 100_000);
    const budgetMb = Number(option('--budget-mb') ?? 200);
    const dir = await mkdtemp(path.join(tmpdir(), 'bench-budget-'));
    try {
      runChild(['--child', 'budget-ingest', String(owners), String(size), dir]);
      const line = runChild(['--child', 'budget-serve', String(owners), String(size), String(budgetMb), dir]);
      if (!line) return;
      const result = JSON.parse(line) as BudgetResult;
      console.log(
        `\n## Memory budget: ${owners} owners x ${size.toLocaleString('en')} chunks, INDEX_MEMORY_BUDGET_MB=${budgetMb}\n`,
      );
      console.log(
        `one owner loaded: ${fmt(result.ownerMb, 1)} MB; max loaded over two rounds: ${fmt(result.maxLoadedMb, 1)} MB (budget ${budgetMb}); max RSS ${Math.round(result.maxRssMb)} MB; first query of an unloaded owner: p50 ${fmt(result.coldP50S, 2)} s, max ${fmt(result.coldMaxS, 2)} s over ${result.coldLoads} loads; load average ${loadavg()
          .map((n) => n.toFixed(1))
          .join(' ')}`,
      );
      if (!flag('--no-record')) {
        // Keyed by the layout measured, so a small trial run never stands in for the ten-owner, 100k one.
        const layout = `${owners}x${size % 1000 === 0 ? `${size / 1000}k` : size}`;
        const what = `${owners} keyword-only owners of ${size.toLocaleString('en')} chunks queried in turn, two rounds, INDEX_MEMORY_BUDGET_MB=${budgetMb}`;
        recordFigures({
          [`retrieval.budget_${layout}_max_loaded_mb`]: {
            value: round(result.maxLoadedMb, 1),
            unit: `MB of loaded keyword index at most (${what})`,
            command: COMMAND,
          },
          [`retrieval.budget_${layout}_owner_mb`]: {
            value: round(result.ownerMb, 1),
            unit: `MB one loaded owner holds (${what})`,
            command: COMMAND,
          },
          [`retrieval.budget_${layout}_cold_load_max_s`]: {
            value: round(result.coldMaxS, 2),
            unit: `s, slowest first query of an unloaded owner over ${result.coldLoads} loads (${what})`,
            command: COMMAND,
          },
          [`retrieval.budget_${layout}_max_rss_mb`]: {
            value: Math.round(result.maxRssMb),
            unit: `MB process RSS at most while serving (${what})`,
            command: COMMAND,
          },
        });
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    return;
  }

  if (flag('--quality-only')) return;
  const sizes = (option('--scale') ?? '10000,100000')
    .split(',')
    .map(Number)
    .filter((n) => n > 0);
  console.log(
    `\n## Scale: synthetic chunks (~120 words, SciFact unigram vocabulary + Zipf tail, ${SCALE_DIMS}-dim vectors), one owner of N chunks + 2 neighbour owners of 2,000, topK 10\n`,
  );
  // --dir PATH keeps the ingested index there and reuses it on the next run (re-measure serving only).
  const keepDir = option('--dir');
  for (const size of sizes) {
    const dir = keepDir ? path.join(keepDir, String(size)) : await mkdtemp(path.join(tmpdir(), `bench-scale-${size}-`));
    try {
      const marker = path.join(dir, 'INGESTED.json');
      let ingestLine: string | null = existsSync(marker) ? readFileSync(marker, 'utf8') : null;
      if (!ingestLine) {
        await mkdir(dir, { recursive: true });
        ingestLine = runChild(['--child', 'scale-ingest', String(size), dir]);
        if (!ingestLine) continue;
        if (keepDir) writeFileSync(marker, ingestLine);
      }
      const ingested = JSON.parse(ingestLine) as IngestResult;
      const serveLine = runChild(['--child', 'scale-serve', String(size), dir]);
      if (!serveLine) continue;
      const result = JSON.parse(serveLine) as ServeResult;
      console.log(
        `### ${size.toLocaleString('en')} chunks: ingest ${fmt(ingested.ingestS, 1)} s, final ANN build/refresh ${fmt(ingested.annBuildS, 1)} s, on disk ${ingested.diskMb} MB, semantic recall@10 vs exact ${ingested.semanticRecall10 === null ? 'not measured' : fmt(ingested.semanticRecall10, 2)}; after a restart: first query ${fmt(result.coldStartS, 2)} s (CPU ${fmt(result.coldStartCpuS, 2)} s), RSS then ${Math.round(result.rssFirstMb)} MB (JS heap ${Math.round(result.heapFirstMb)} MB), max RSS while serving ${Math.round(result.rssMaxMb)} MB; load average at end ${result.loadAvg.map((n) => n.toFixed(1)).join(' ')}\n`,
      );
      console.log('| query | p50 ms | p95 ms | q/s (8 concurrent) | queries per CPU-second |');
      console.log('| --- | --- | --- | --- | --- |');
      for (const row of result.latency)
        console.log(
          `| ${row.label} | ${fmt(row.p50, 2)} | ${fmt(row.p95, 2)} | ${Number.isFinite(row.qps) ? Math.round(row.qps) : 'n/a'} | ${Number.isFinite(row.cpuQps) ? Math.round(row.cpuQps) : 'n/a'} |`,
        );
      if (result.recall)
        console.log(
          `\nsemantic recall@10 vs exact (one JS scan of the table's vectors), ${result.recall.queries} queries, ${VECTOR_DIST} ${SCALE_DIMS}-dim vectors: **${fmt(result.recall.recall10, 3)}**; semantic search p50 / p95 ${fmt(result.recall.searchP50, 2)} / ${fmt(result.recall.searchP95, 2)} ms; the exact scan ${fmt(result.recall.exactS, 1)} s for all queries`,
        );
      console.log('');
      const hybridFilterRow = result.latency.find((row) => row.label.startsWith('hybrid + filter'));
      if (size >= 500_000 && !TOPICAL && WITH_VECTORS && !flag('--no-record')) {
        // Vector figures at large sizes, keyed by the size measured (never a smaller size under a larger key).
        const label = size % 1_000_000 === 0 ? `${size / 1_000_000}m` : `${Math.round(size / 1000)}k`;
        const vectors = `${SCALE_DIMS}-dim ${VECTOR_DIST === 'clustered' ? 'embedding-like clustered' : 'benchmark (centroid + noise)'} vectors`;
        const semanticRow = result.latency.find((row) => row.label === 'semantic');
        const figures: Parameters<typeof recordFigures>[0] = {};
        if (hybridFilterRow) {
          figures[`retrieval.hybrid_filter_p95_${label}_ms`] = {
            value: round(hybridFilterRow.p95, 2),
            unit: `ms p95 (hybrid RRF + bucket filter 3 of 10, topK 10, sequential; ${vectors})`,
            command: COMMAND,
          };
          figures[`retrieval.hybrid_filter_qps_${label}`] = {
            value: Math.round(hybridFilterRow.qps),
            unit: `queries/s (hybrid + bucket filter, 8 concurrent; ${vectors})`,
            command: COMMAND,
          };
        }
        if (semanticRow)
          figures[`retrieval.semantic_p95_${label}_ms`] = {
            value: round(semanticRow.p95, 2),
            unit: `ms p95 (semantic, ANN nprobes 24 + refine, topK 10; ${vectors})`,
            command: COMMAND,
          };
        if (result.recall) {
          const suffix = VECTOR_DIST === 'clustered' ? '' : '_bench_vectors';
          figures[`retrieval.ann_recall10_${label}${suffix}`] = {
            value: round(result.recall.recall10, 3),
            unit: `recall@10 vs exact (index.search semantic vs flat scan, ${result.recall.queries} queries; ${vectors})`,
            command: COMMAND,
          };
        }
        recordFigures(figures);
      }
      if (size === 1_000_000 && !TOPICAL && !flag('--no-record')) {
        const keyword = result.latency.find((row) => row.label === 'keyword');
        const figures: Parameters<typeof recordFigures>[0] = {
          'retrieval.cold_start_1m_s': {
            value: round(result.coldStartS, 2),
            unit: 's (first keyword query after a restart)',
            command: COMMAND,
          },
          'retrieval.rss_1m_mb': {
            value: Math.round(result.rssMaxMb),
            unit: 'MB RSS (max while serving)',
            command: COMMAND,
          },
          'retrieval.keyword_p95_1m_ms': { value: round(keyword?.p95 ?? Number.NaN, 2), unit: 'ms', command: COMMAND },
          'retrieval.keyword_qps_1m': {
            value: Math.round(keyword?.qps ?? 0),
            unit: 'queries/s (8 concurrent)',
            command: COMMAND,
          },
          // What one free core does: the wall-clock figures above move with the shared machine's load.
          'retrieval.keyword_qps_per_cpu_second_1m': {
            value: Math.round(keyword?.cpuQps ?? 0),
            unit: 'queries per CPU-second (8 concurrent, one process)',
            command: COMMAND,
          },
          'retrieval.cold_start_1m_cpu_s': {
            value: round(result.coldStartCpuS, 2),
            unit: 's CPU (first keyword query after a restart)',
            command: COMMAND,
          },
        };
        recordFigures(figures);
      }
    } finally {
      if (!keepDir) await rm(dir, { recursive: true, force: true });
    }
  }
}

function round(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}

await main();
