/**
 * ANN recall curve of the embedded index's vector search (issue #15, item 3): recall@10 against the exact answer
 * and latency, for the product's IVF index and a few alternatives, over nprobes x refine factor, on two vector
 * distributions:
 * - "bench": the retrieval benchmark's vectors (256 centroids + strong isotropic noise; within a cluster every
 *   point is about equally far, a hard case for any quantiser);
 * - "clustered": structured like real text embeddings (a shared direction, topics, sub-topics, weaker noise:
 *   random pairs ~0.3 cosine, near neighbours ~0.8).
 * A bare LanceDB table per size and distribution (id + vector), indexed with `annIndexOptions`, queried as
 * `ChunkTable.searchVectors` does. Ground truth: an exact dot-product scan in JS.
 *
 *   npm run bench:ann -- --size 100000 [--queries 100] [--dist bench,clustered] [--index ivf_pq,ivf_hnsw_sq]
 *   [--record] writes the product setting's recall into docs/figures.json (retrieval.ann_recall10_<size>).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { connect, Index, type Table } from '@lancedb/lancedb';
import { ANN_SEARCH, annIndexOptions, annRefineFactor } from '@/lib/retrieval/embedded/chunk-table';
import { recordFigures } from './figures';
import { benchSampler, clusteredSampler, prng } from './synthetic-vectors';

const argv = process.argv.slice(2);
const option = (name: string) => {
  const at = argv.indexOf(name);
  return at >= 0 ? argv[at + 1] : undefined;
};
const SIZES = (option('--size') ?? '100000').split(',').map(Number);
const QUERIES = Number(option('--queries') ?? 100);
const DISTS = (option('--dist') ?? 'bench,clustered').split(',');
const INDEXES = (option('--index') ?? 'ivf_pq,ivf_hnsw_sq').split(',');
const DIMS = Number(option('--dims') ?? 768);
const K = 10;

function exactTopK(all: Float32Array, count: number, query: Float32Array, k: number): Set<number> {
  const best: { i: number; s: number }[] = [];
  let floor = -Infinity;
  for (let i = 0; i < count; i++) {
    let s = 0;
    const offset = i * DIMS;
    for (let d = 0; d < DIMS; d++) s += (all[offset + d] as number) * (query[d] as number);
    if (best.length < k || s > floor) {
      best.push({ i, s });
      best.sort((a, b) => b.s - a.s);
      if (best.length > k) best.pop();
      floor = (best[best.length - 1] as { s: number }).s;
    }
  }
  return new Set(best.map((entry) => entry.i));
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

interface Point {
  nprobes: number;
  refine: number | null;
  ef?: number;
  recall: number;
  p50: number;
  p95: number;
  cpuMs: number;
}

async function sweep(
  table: Table,
  queries: Float32Array[],
  truth: Set<number>[],
  settings: { nprobes: number; refine: number | null; ef?: number }[],
): Promise<Point[]> {
  const points: Point[] = [];
  for (const setting of settings) {
    const run = async (q: Float32Array) => {
      let query = table
        .vectorSearch(Array.from(q))
        .column('vector')
        .distanceType('cosine')
        .limit(K)
        .select(['id', '_distance'])
        .nprobes(setting.nprobes);
      if (setting.refine !== null) query = query.refineFactor(setting.refine);
      if (setting.ef !== undefined) query = query.ef(setting.ef);
      return (await query.toArray()) as { id: number }[];
    };
    for (const q of queries.slice(0, 5)) await run(q);
    let hits = 0;
    const times: number[] = [];
    const cpu = process.cpuUsage();
    for (let i = 0; i < queries.length; i++) {
      const t0 = performance.now();
      const rows = await run(queries[i] as Float32Array);
      times.push(performance.now() - t0);
      const exact = truth[i] as Set<number>;
      hits += rows.filter((row) => exact.has(Number(row.id))).length;
    }
    const used = process.cpuUsage(cpu);
    points.push({
      ...setting,
      recall: hits / (queries.length * K),
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      cpuMs: (used.user + used.system) / 1000 / queries.length,
    });
  }
  return points;
}

function indexConfig(kind: string, rows: number): Index {
  if (kind === 'ivf_pq') return Index.ivfPq(annIndexOptions(DIMS, rows));
  const base = annIndexOptions(DIMS, rows);
  if (kind === 'ivf_pq_96') return Index.ivfPq({ ...base, numSubVectors: DIMS / 8 });
  if (kind === 'ivf_hnsw_sq')
    return Index.hnswSq({
      distanceType: 'cosine',
      numPartitions: Math.max(1, Math.round((base.numPartitions ?? 16) / 16)),
      sampleRate: base.sampleRate,
      maxIterations: base.maxIterations,
    });
  throw new Error(`unknown index ${kind}`);
}

async function main() {
  console.log(
    `# ANN recall curve (2 cores, Node ${process.version}, load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  console.log(`product default: nprobes ${ANN_SEARCH.nprobes}, refine factor ${annRefineFactor(K)}\n`);
  const figures: Parameters<typeof recordFigures>[0] = {};
  for (const size of SIZES) {
    for (const dist of DISTS) {
      const random = prng(dist === 'bench' ? 42 : 4242);
      const sample = dist === 'bench' ? benchSampler(random, DIMS) : clusteredSampler(random, DIMS);
      const all = new Float32Array(size * DIMS);
      for (let i = 0; i < size; i++) sample(all, i * DIMS);
      const queries = Array.from({ length: QUERIES }, () => {
        const q = new Float32Array(DIMS);
        sample(q, 0);
        return q;
      });
      let t0 = performance.now();
      const truth = queries.map((q) => exactTopK(all, size, q, K));
      const exactS = (performance.now() - t0) / 1000;
      const dir = await mkdtemp(path.join(tmpdir(), 'bench-ann-'));
      try {
        const db = await connect(dir);
        const batch = (start: number) =>
          Array.from({ length: Math.min(10_000, size - start) }, (_, j) => ({
            id: start + j,
            vector: Array.from(all.subarray((start + j) * DIMS, (start + j + 1) * DIMS)),
          }));
        t0 = performance.now();
        const table = await db.createTable('v', batch(0));
        for (let start = 10_000; start < size; start += 10_000) await table.add(batch(start));
        const writeS = (performance.now() - t0) / 1000;
        console.log(
          `## ${size.toLocaleString('en')} vectors, ${dist}: write ${writeS.toFixed(1)} s, exact truth (JS scan) ${exactS.toFixed(1)} s`,
        );
        for (const kind of INDEXES) {
          t0 = performance.now();
          await table.createIndex('vector', { config: indexConfig(kind, size), replace: true });
          const buildS = (performance.now() - t0) / 1000;
          const hnsw = kind.includes('hnsw');
          const settings = hnsw
            ? [10, 20, 40, 80].flatMap((ef) => [1, 2, 4].map((nprobes) => ({ nprobes, refine: null, ef })))
            : [8, 16, 24, 48].flatMap((nprobes) =>
                [null, 4, 10, 20, 30, 40, 60].map((refine) => ({ nprobes, refine })),
              );
          const points = await sweep(table, queries, truth, settings);
          console.log(`\n### ${kind}, build ${buildS.toFixed(1)} s (load ${loadavg()[0]?.toFixed(1)})\n`);
          console.log(`| nprobes | refine | ${hnsw ? 'ef | ' : ''}recall@10 | p50 ms | p95 ms | CPU ms/query |`);
          console.log(`| --- | --- | ${hnsw ? '--- | ' : ''}--- | --- | --- | --- |`);
          for (const p of points)
            console.log(
              `| ${p.nprobes} | ${p.refine ?? '-'} | ${hnsw ? `${p.ef} | ` : ''}${p.recall.toFixed(3)} | ${p.p50.toFixed(1)} | ${p.p95.toFixed(1)} | ${p.cpuMs.toFixed(1)} |`,
            );
          if (kind === 'ivf_pq') {
            const [product] = await sweep(table, queries, truth, [
              { nprobes: ANN_SEARCH.nprobes, refine: annRefineFactor(K) },
            ]);
            if (product) {
              console.log(
                `\nproduct default (nprobes ${ANN_SEARCH.nprobes}, refine ${annRefineFactor(K)}): recall@10 ${product.recall.toFixed(3)}, p50 ${product.p50.toFixed(1)} ms, p95 ${product.p95.toFixed(1)} ms`,
              );
              const label = size >= 1_000_000 ? `${size / 1_000_000}m` : `${size / 1000}k`;
              const suffix = dist === 'bench' ? '_bench_vectors' : '';
              const command = `npm run bench:ann -- --size ${size} --record`;
              figures[`retrieval.ann_recall10_${label}${suffix}`] = {
                value: Math.round(product.recall * 1000) / 1000,
                unit: 'recall@10 vs exact',
                command,
              };
              figures[`retrieval.ann_p95_${label}${suffix}_ms`] = {
                value: Math.round(product.p95 * 10) / 10,
                unit: 'ms',
                command,
              };
            }
          }
        }
        db.close();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }
  }
  if (argv.includes('--record') && Object.keys(figures).length > 0) recordFigures(figures);
}

void main();
