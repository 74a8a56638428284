/**
 * What a research run costs without a model, measured end to end through the service and a real SQLite database:
 * start (guard + clarifying questions), answering (the plan), and the approved run (each task a bounded agent run,
 * the quality check, the synthesis, the saved answer), over the small operations corpus of the agent tests.
 * Prints the numbers and records them in docs/figures.json. Run: npm run bench:research
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { recordFigures } from './figures';

const RUNS = 5;
const dir = mkdtempSync(path.join(tmpdir(), 'bench-research-'));
process.env.DATABASE_URL = `file:${path.join(dir, 'bench.db')}`;
process.env.DATA_DIR = dir;
execFileSync(process.execPath, ['--experimental-wasm-modules', '--no-warnings', 'scripts/migrate.mjs', 'deploy'], {
  env: process.env,
  stdio: 'ignore',
});

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

async function main() {
  const { runAgent } = await import('@/lib/agent/run-agent');
  const { createTestUser } = await import('@/test/factories');
  const { createResearchService } = await import('@/lib/research/service');
  const { makeChunk, makeDocument, NO_MODELS, TEXT } = await import('@/test/support/agent/fixtures');
  const { createMemoryCatalog } = await import('@/test/support/agent/memory-catalog');
  const { createMemoryChunkIndex } = await import('@/test/support/agent/memory-chunk-index');

  const ownerId = (await createTestUser('bench-research')).id;
  const docs = Object.entries(TEXT).map(([name, text]) => ({
    doc: makeDocument({ filename: `${name}.md`, ownerId }),
    text,
  }));
  const index = createMemoryChunkIndex();
  await index.upsert(docs.map(({ doc, text }) => makeChunk(doc, 0, text)));
  const deps = {
    index,
    catalog: createMemoryCatalog(
      docs.map((d) => d.doc),
      [
        { id: 'b1', name: 'manuals', ownerId },
        { id: 'b2', name: 'api', ownerId },
      ],
    ),
    embedder: null,
    models: NO_MODELS,
  };
  const service = createResearchService({ agentDeps: async () => deps, runAgent });

  const start: number[] = [];
  const plan: number[] = [];
  const run: number[] = [];
  const perTask: number[] = [];
  let tasks = 0;
  for (let i = 0; i < RUNS; i++) {
    let t = performance.now();
    const created = await service.start(ownerId, {
      question: 'Tell me about deployments and rollbacks',
      style: 'concise',
      skipClarification: false,
    });
    start.push(performance.now() - t);
    t = performance.now();
    const planned = await service.answer(ownerId, created.id, { skip: true });
    plan.push(performance.now() - t);
    tasks = planned.tasks.length;
    t = performance.now();
    const { done } = await service.approve(ownerId, created.id);
    const final = await done;
    const ms = performance.now() - t;
    if (final.status !== 'done') throw new Error(`run ended ${final.status}`);
    run.push(ms);
    perTask.push(ms / tasks);
  }
  const figures = {
    'research.extractive_start_ms': { value: Math.round(median(start)), unit: 'ms' },
    'research.extractive_plan_ms': { value: Math.round(median(plan)), unit: 'ms' },
    'research.extractive_run_ms': { value: Math.round(median(run)), unit: 'ms' },
    'research.extractive_per_task_ms': { value: Math.round(median(perTask)), unit: 'ms' },
  };
  console.log(`research without a model, ${RUNS} runs of ${tasks} tasks (median):`);
  for (const [k, v] of Object.entries(figures)) console.log(`  ${k}: ${v.value} ${v.unit}`);
  recordFigures(
    Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, { ...v, command: 'npm run bench:research' }])),
  );
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => rmSync(dir, { recursive: true, force: true }));
