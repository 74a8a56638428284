// npx tsx scripts/bench-agent.ts – agent overhead per run (everything except model time), zero-latency mock models
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AgentModels } from '@/lib/agent/ports';
import { runAgent } from '@/lib/agent/run-agent';
import type { AgentMode } from '@/lib/agent/types';
import { clapnqCorpus, loadClapnq, openEvalIndex } from '@/test/support/agent/corpus';
import { NO_MODELS } from '@/test/support/agent/fixtures';
import { createMemoryCatalog } from '@/test/support/agent/memory-catalog';
import { scriptedModel } from '@/test/support/agent/mock-models';
import { NO_CONSTRAINTS, qaPlan, searchStep } from '@/test/support/agent/script-steps';
import { recordSection } from './agent-report';

const ROOT = path.resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 300);

function mockModels(question: string): AgentModels {
  const model = scriptedModel({
    json: [
      NO_CONSTRAINTS,
      qaPlan([question], ['search_docs', 'open_citation', 'answer']),
      searchStep(question),
      {
        action: 'tool_call',
        calls: [
          { tool: 'open_citation', handle: 'r1' },
          { tool: 'open_citation', handle: 'r2' },
        ],
      },
      { action: 'final', reason: 'enough' },
    ],
    texts: ['According to the opened passage, the answer is described there [1].'],
  });
  return { decision: model, synthesis: model, names: { decision: 'mock', synthesis: 'mock', embedding: null } };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

async function main() {
  const dir = mkdtempSync(path.join(tmpdir(), 'docuchat-bench-agent-'));
  try {
    const { index, engine } = await openEvalIndex(dir);
    const rows = loadClapnq(path.resolve(ROOT, '../shared/data/clapnq/clapnq_dev_flat.jsonl'));
    const owner = 'bench-agent';
    const { docs, chunks } = clapnqCorpus(rows, owner);
    await index.upsert(chunks);
    const catalog = createMemoryCatalog(docs);
    const questions = rows.map((r) => r.question);
    const configs: { name: string; mode: AgentMode; models: (q: string) => AgentModels }[] = [
      { name: 'agent, mock LLM (plan + 3 decisions + streamed synthesis)', mode: 'agent', models: mockModels },
      { name: 'agent, extractive (no LLM)', mode: 'agent', models: () => NO_MODELS },
      { name: 'quick, mock LLM', mode: 'quick', models: mockModels },
    ];
    // Warm-up: first searches load the owner's partition and JIT the code paths.
    for (const q of questions.slice(0, 20))
      await runAgent(
        { question: q, ownerId: owner, mode: 'agent', style: 'concise' },
        { index, catalog, embedder: null, models: mockModels(q) },
      );
    const lines = [
      `Measured ${new Date().toISOString().slice(0, 10)} with \`npx tsx scripts/bench-agent.ts\` (${RUNS} runs per row over ClapNQ questions, ${docs.length} passages; chunk index: ${engine}; Node ${process.version}, ${(await import('node:os')).cpus().length} cores). Overhead = total run time minus time inside model calls (the mock models answer instantly, so model time is the AI SDK's own cost). CPU = the process's user + system CPU time per run (what the run costs on a loaded machine, where wall time mostly measures waiting); validation = wall time in the validation gate.`,
      '',
      '| configuration | overhead p50 | overhead p95 | total p50 | total p95 | target p95 ≤ 50 ms | CPU p50 / p95 | validation p50 / p95 |',
      '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ];
    for (const cfg of configs) {
      const overhead: number[] = [];
      const total: number[] = [];
      const cpu: number[] = [];
      const validation: number[] = [];
      for (let i = 0; i < RUNS; i++) {
        const before = process.cpuUsage();
        const q = questions[i % questions.length] ?? '';
        const r = await runAgent(
          { question: q, ownerId: owner, mode: cfg.mode, style: 'concise' },
          { index, catalog, embedder: null, models: cfg.models(q) },
        );
        const used = process.cpuUsage(before);
        cpu.push((used.user + used.system) / 1000);
        validation.push(r.timings.validationMs);
        total.push(r.timings.totalMs);
        overhead.push(r.timings.totalMs - r.timings.modelMs);
      }
      for (const xs of [overhead, total, cpu, validation]) xs.sort((a, b) => a - b);
      const pair = (xs: number[]) => `${percentile(xs, 0.5).toFixed(1)} / ${percentile(xs, 0.95).toFixed(1)} ms`;
      const p95 = percentile(overhead, 0.95);
      lines.push(
        `| ${cfg.name} | ${percentile(overhead, 0.5).toFixed(1)} ms | ${p95.toFixed(1)} ms | ${percentile(total, 0.5).toFixed(1)} ms | ${percentile(total, 0.95).toFixed(1)} ms | ${p95 <= 50 ? 'met' : 'missed'} | ${pair(cpu)} | ${pair(validation)} |`,
      );
    }
    await index.close();
    const body = lines.join('\n');
    console.log(body);
    recordSection(path.join(ROOT, 'docs/benchmarks-agent.md'), 'bench', body);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
