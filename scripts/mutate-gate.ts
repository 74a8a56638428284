import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { markdownTable, recordSection } from './agent-report';
import { recordFigures } from './figures';

/**
 * Mutation testing of the trust gate (lib/agent/gate) with StrykerJS and the vitest runner, then: the mutation
 * score into docs/figures.json (`gate.mutation_score_pct`) and the surviving mutants into
 * docs/benchmarks-agent.md (between the mutation markers). `MUTATE_SKIP_RUN=1` only re-reads the last report.
 */

const root = path.resolve(import.meta.dirname, '..');
const report = path.join(root, 'reports', 'mutation', 'gate.json');

if (!process.env.MUTATE_SKIP_RUN) {
  const run = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs'], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
}
const json = JSON.parse(readFileSync(report, 'utf8')) as {
  files: Record<string, { source: string; mutants: Mutant[] }>;
};

let killed = 0;
let survived = 0;
let noCoverage = 0;
let timeout = 0;
let ignored = 0;
const survivors: string[][] = [];
for (const [file, { source, mutants }] of Object.entries(json.files)) {
  const lines = source.split('\n');
  for (const m of mutants) {
    if (m.status === 'Killed') killed++;
    else if (m.status === 'Timeout') timeout++;
    else if (m.status === 'Ignored') ignored++;
    else if (m.status === 'Survived' || m.status === 'NoCoverage') {
      if (m.status === 'Survived') survived++;
      else noCoverage++;
      const line = (lines[m.location.start.line - 1] ?? '').trim().slice(0, 90);
      const code = (t: string) => `\`${t.replace(/\s+/g, ' ').replace(/\|/g, '\\|').replace(/`/g, "'")}\``;
      survivors.push([
        `${path.relative(root, path.resolve(root, file))}:${m.location.start.line}`,
        m.mutatorName,
        m.status,
        `${code(line)} → ${code((m.replacement ?? '').slice(0, 50))}`,
      ]);
    }
  }
}
const detected = killed + timeout;
const total = detected + survived + noCoverage;
const score = total === 0 ? 0 : Math.round((detected / total) * 1000) / 10;
console.log(
  `gate mutation score ${score}% (${detected} detected of ${total}; ${survived} survived, ${noCoverage} no coverage)`,
);
recordFigures({ 'gate.mutation_score_pct': { value: score, unit: '%', command: 'npm run mutate:gate' } });

const section = [
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run mutate:gate\` (StrykerJS 9.6.1, vitest runner, files \`lib/agent/gate/*.ts\`, the gate's unit tests): **${score}%** mutation score, ${detected} of ${total} mutants detected (${timeout} by timeout), ${survived} survived, ${noCoverage} not covered; ${ignored} ignored (static mutants of module-level constants, which re-run every test, and the \`Regex\` mutator's; see docs/gate.md). Surviving mutants, each either equivalent (same behaviour) or a gap in the tests:`,
  '',
  markdownTable(['where', 'mutator', 'status', 'original → mutant'], survivors),
].join('\n');
recordSection(path.join(root, 'docs', 'benchmarks-agent.md'), 'mutation', section);
