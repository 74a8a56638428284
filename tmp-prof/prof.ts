import { readFileSync } from 'node:fs';
import { createEmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';

const dir = process.argv[2] as string;
const rounds = Number(process.argv[3] ?? 3);
const filter = process.argv[4] === 'filter';
const queries = readFileSync('/work/shared/data/beir-scifact/queries.jsonl', 'utf8')
  .trim().split('\n').slice(0, 300).map((l) => (JSON.parse(l) as { text: string }).text);
async function main() {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const index = await createEmbeddedChunkIndex({ dir });
  await index.search({ ownerId: 'big-owner', query: queries[0] as string, mode: 'keyword', topK: 10 });
  const cc = process.cpuUsage(c0);
  console.log(`cold ${((performance.now() - t0) / 1000).toFixed(2)} s wall, ${((cc.user + cc.system) / 1e6).toFixed(2)} s cpu, rss ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`);
  const filters = filter ? { bucketIds: ['bucket-0', 'bucket-1', 'bucket-2'] } : undefined;
  for (let r = 0; r < rounds; r++) {
    const c = process.cpuUsage();
    const t = performance.now();
    const times: number[] = [];
    for (const q of queries) {
      const s = performance.now();
      await index.search({ ownerId: 'big-owner', query: q, mode: 'keyword', topK: 10, filters });
      times.push(performance.now() - s);
    }
    const u = process.cpuUsage(c);
    times.sort((a, b) => a - b);
    console.log(`round ${r}: ${(queries.length / ((u.user + u.system) / 1e6)).toFixed(0)} q/cpu-s, wall ${((performance.now() - t)).toFixed(0)} ms, p50 ${times[150]?.toFixed(2)} p95 ${times[285]?.toFixed(2)}`);
  }
  await index.close();
}
void main();
process.on('exit', () => console.log(JSON.stringify((globalThis as any).__st)));
