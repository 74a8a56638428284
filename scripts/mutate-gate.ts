import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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
const survivors: string[] = [];
for (const [file, { source, mutants }] of Object.entries(json.files)) {
  const lines = source.split('\n');
  for (const m of mutants) {
    if (m.status === 'Killed') killed++;
    else if (m.status === 'Timeout') timeout++;
    else if (m.status === 'Survived' || m.status === 'NoCoverage') {
      if (m.status === 'Survived') survived++;
      else noCoverage++;
      const line = (lines[m.location.start.line - 1] ?? '').trim().slice(0, 90);
      const rel = path.relative(root, path.resolve(root, file));
      survivors.push(
        `| ${rel}:${m.location.start.line} | ${m.mutatorName} | ${m.status} | \`${line.replace(/\|/g, '\\|').replace(/`/g, "'")}\` → \`${(m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 50).replace(/\|/g, '\\|').replace(/`/g, "'")}\` |`,
      );
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

const doc = path.join(root, 'docs', 'benchmarks-agent.md');
const text = readFileSync(doc, 'utf8');
const section = [
  '<!-- mutation:start -->',
  `Measured ${new Date().toISOString().slice(0, 10)} with \`npm run mutate:gate\` (StrykerJS, vitest runner, files \`lib/agent/gate/*.ts\`, tests \`lib/agent/gate/*.test.ts\`): **${score}%** mutation score, ${detected} of ${total} mutants detected (${timeout} by timeout), ${survived} survived, ${noCoverage} not covered.`,
  '',
  '| where | mutator | status | original → mutant |',
  '| ----- | ------- | ------ | ----------------- |',
  ...survivors,
  '<!-- mutation:end -->',
].join('\n');
const next = text.includes('<!-- mutation:start -->')
  ? text.replace(/<!-- mutation:start -->[\s\S]*<!-- mutation:end -->/, section)
  : `${text.trimEnd()}\n\n## Trust gate mutation testing (\`npm run mutate:gate\`)\n\nSurviving mutants are listed so each can be judged: an equivalent mutant (same behaviour), or a gap in the tests.\n\n${section}\n`;
writeFileSync(doc, next);
