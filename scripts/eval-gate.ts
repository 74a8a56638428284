import path from 'node:path';
import fc from 'fast-check';
import { GATE_CASES, judgeGateCase, runGateCase } from '@/test/support/agent/gate-cases';
import {
  answerOf,
  gatePasses,
  PERTURBATION_KINDS,
  type PerturbationKind,
  perturb,
  type World,
  worldArb,
} from '@/test/support/agent/gate-property';
import { markdownTable, recordSection } from './agent-report';
import { recordFigures } from './figures';

/**
 * The trust gate's evaluation: the adversarial set (every case through runAgent: must-block and must-accept) and
 * the property check (grounded answers perturbed by one digit, one letter inside a quote, a swapped marker or a
 * shifted date; the share caught, and the share of unperturbed answers accepted). Writes docs/figures.json keys
 * `gate.*` and the marked section of docs/benchmarks-agent.md. `GATE_SAMPLES` sets worlds sampled (default 1000).
 */

const root = path.resolve(import.meta.dirname, '..');
const samples = Number(process.env.GATE_SAMPLES ?? 1000);

async function main(): Promise<void> {
  const started = performance.now();
  const byKind = new Map<string, { block: [number, number]; accept: [number, number] }>();
  const failures: string[] = [];
  for (const c of GATE_CASES) {
    const verdict = judgeGateCase(c, await runGateCase(c));
    const row = byKind.get(c.kind) ?? { block: [0, 0], accept: [0, 0] };
    const cell = row[c.expect];
    cell[1]++;
    if (verdict.ok) cell[0]++;
    else failures.push(`${c.id}: ${verdict.why}`);
    byKind.set(c.kind, row);
  }
  const correct = GATE_CASES.length - failures.length;

  const worlds = fc.sample(fc.tuple(worldArb, fc.nat(), fc.nat()), { numRuns: samples, seed: 13 }) as [
    World,
    number,
    number,
  ][];
  const kinds: readonly PerturbationKind[] = PERTURBATION_KINDS;
  const perKind = new Map(kinds.map((k) => [k, { tried: 0, caught: 0 }]));
  let accepted = 0;
  for (const [world, pick, digit] of worlds) {
    if (gatePasses(world, answerOf(world))) accepted++;
    for (const kind of kinds) {
      const changed = perturb(world, kind, pick, digit);
      if (changed === null) continue;
      const s = perKind.get(kind) ?? { tried: 0, caught: 0 };
      s.tried++;
      if (!gatePasses(world, changed)) s.caught++;
    }
  }
  const tried = [...perKind.values()].reduce((a, s) => a + s.tried, 0);
  const caught = [...perKind.values()].reduce((a, s) => a + s.caught, 0);
  const pct = (a: number, b: number) => (b === 0 ? 0 : Math.round((a / b) * 1000) / 10);
  const caughtPct = pct(caught, tried);
  const acceptPct = pct(accepted, worlds.length);
  const seconds = Math.round((performance.now() - started) / 100) / 10;

  console.log(`adversarial cases: ${correct}/${GATE_CASES.length} as expected`);
  for (const f of failures) console.log(`  FAIL ${f}`);
  console.log(
    `property: ${caught}/${tried} perturbations caught (${caughtPct}%), ${accepted}/${worlds.length} unperturbed accepted (${acceptPct}%)`,
  );

  const command = 'npm run eval:gate';
  recordFigures({
    'gate.adversarial_cases': { value: GATE_CASES.length, unit: 'cases', command },
    'gate.adversarial_correct_pct': { value: pct(correct, GATE_CASES.length), unit: '%', command },
    'gate.property_caught_pct': { value: caughtPct, unit: '%', command },
    'gate.property_accepted_pct': { value: acceptPct, unit: '%', command },
  });

  const rows = [...byKind.entries()].map(([kind, r]) => [
    kind,
    r.block[1] > 0 ? `${r.block[0]}/${r.block[1]}` : '-',
    r.accept[1] > 0 ? `${r.accept[0]}/${r.accept[1]}` : '-',
  ]);
  const prop = kinds.map((k) => {
    const s = perKind.get(k) ?? { tried: 0, caught: 0 };
    return [k, String(s.tried), String(s.caught), `${pct(s.caught, s.tried)}%`];
  });
  const section = [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run eval:gate\` (${seconds} s; Node ${process.version}).`,
    '',
    `Adversarial set: **${correct}/${GATE_CASES.length}** cases as expected (through \`runAgent\`; agent mode with a scripted model, quick mode, extractive mode).`,
    '',
    markdownTable(['class', 'must block: blocked', 'must accept: accepted'], rows),
    '',
    `Property check (${worlds.length} generated worlds, seed 13): **${caughtPct}%** of ${tried} perturbations caught; **${acceptPct}%** of unperturbed grounded answers accepted.`,
    '',
    markdownTable(['perturbation', 'applied', 'caught', 'share'], prop),
    ...(failures.length > 0 ? ['', 'Cases not as expected:', ...failures.map((f) => `- ${f}`)] : []),
  ].join('\n');
  recordSection(path.join(root, 'docs', 'benchmarks-agent.md'), 'gate-eval', section);
  if (failures.length > 0) process.exitCode = 1;
}

await main();
