import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { markdownTable, recordSection } from './agent-report';
import { recordFigures } from './figures';
import { equivalentReason, type MutantKey } from './mutate-gate-equivalent';

/**
 * Mutation testing of the trust gate (lib/agent/gate) with StrykerJS and the vitest runner, then: the mutation
 * score into docs/figures.json (`gate.mutation_score_pct`), the surviving mutants, each with why it survives, into
 * docs/gate.md and the score into docs/benchmarks-agent.md (between the mutation markers of each).
 * `MUTATE_SKIP_RUN=1` only re-reads the last report. Stryker runs incrementally (stryker.config.mjs): a mutant whose
 * code and covering tests did not change since the last run on this machine keeps its result.
 */

const root = path.resolve(import.meta.dirname, '..');
const report = path.join(root, 'reports', 'mutation', 'gate.json');

let minutes: number | null = null;
if (!process.env.MUTATE_SKIP_RUN) {
  const began = Date.now();
  const run = spawnSync('npx', ['stryker', 'run', 'stryker.config.mjs'], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exit(run.status ?? 1);
  minutes = Math.round((Date.now() - began) / 60_000);
}

interface Position {
  line: number;
  column: number;
}
interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: Position; end: Position };
}
const json = JSON.parse(readFileSync(report, 'utf8')) as {
  files: Record<string, { source: string; mutants: Mutant[] }>;
};

/** The source text a mutant replaces (Stryker's columns are 1-based, the end exclusive). */
function original(lines: readonly string[], { start, end }: Mutant['location']): string {
  if (start.line === end.line) return (lines[start.line - 1] ?? '').slice(start.column - 1, end.column - 1);
  return [
    (lines[start.line - 1] ?? '').slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    (lines[end.line - 1] ?? '').slice(0, end.column - 1),
  ].join('\n');
}

const oneLine = (t: string, max: number) => {
  const flat = t.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
const code = (t: string) => `\`${t.replace(/\|/g, '\\|').replace(/`/g, "'")}\``;

let killed = 0;
let survived = 0;
let noCoverage = 0;
let timeout = 0;
let ignored = 0;
let explained = 0;
const survivors: string[][] = [];
for (const [file, { source, mutants }] of Object.entries(json.files)) {
  const lines = source.split('\n');
  const rel = path.relative(root, path.resolve(root, file));
  for (const m of mutants) {
    if (m.status === 'Killed') killed++;
    else if (m.status === 'Timeout') timeout++;
    else if (m.status === 'Ignored') ignored++;
    else if (m.status === 'Survived' || m.status === 'NoCoverage') {
      if (m.status === 'Survived') survived++;
      else noCoverage++;
      const key: MutantKey = {
        file: rel,
        mutator: m.mutatorName,
        line: (lines[m.location.start.line - 1] ?? '').trim(),
        original: oneLine(original(lines, m.location), 1000),
        replacement: oneLine(m.replacement ?? '', 1000),
      };
      const why = equivalentReason(key);
      if (why) explained++;
      survivors.push([
        `${rel.replace('lib/agent/gate/', '')}:${m.location.start.line}`,
        m.mutatorName,
        m.status,
        `${code(oneLine(key.original, 60))} → ${code(oneLine(key.replacement, 40))}`,
        why ?? '**not explained: a gap in the tests**',
      ]);
    }
  }
}
const detected = killed + timeout;
const total = detected + survived + noCoverage;
const score = total === 0 ? 0 : Math.round((detected / total) * 1000) / 10;
console.log(
  `gate mutation score ${score}% (${detected} detected of ${total}; ${survived} survived, ${noCoverage} no coverage; ${explained} of them explained)`,
);
recordFigures({ 'gate.mutation_score_pct': { value: score, unit: '%', command: 'npm run mutate:gate' } });

const date = new Date().toISOString().slice(0, 10);
const took = minutes === null ? '' : ` The run took ${minutes} min.`;
const summary = `Measured ${date} with \`npm run mutate:gate\` (StrykerJS 9.6.1, vitest runner, files \`lib/agent/gate/*.ts\`, the gate's unit tests): **${score}%** mutation score, ${detected} of ${total} mutants detected (${timeout} by timeout), ${survived} survived, ${noCoverage} not covered; ${ignored} ignored (static mutants of module-level constants, which re-run every test, and the \`Regex\` mutator's; see docs/gate.md).${took}`;
recordSection(
  path.join(root, 'docs', 'gate.md'),
  'mutation',
  [
    `${summary} Every surviving mutant, with why it survives (${explained} of ${survived + noCoverage} are equivalent or out of the gate's scope, for the reason given; the others are gaps in the tests):`,
    '',
    markdownTable(['where', 'mutator', 'status', 'original → mutant', 'why it survives'], survivors),
  ].join('\n'),
);
recordSection(
  path.join(root, 'docs', 'benchmarks-agent.md'),
  'mutation',
  `${summary} The surviving mutants, each with why it survives, are listed in [gate.md](gate.md#mutation-testing).`,
);
// The formatter measures table cells by display width (arrows, ellipses): let it pad the tables it checks.
spawnSync('npx', ['biome', 'format', '--write', 'docs/gate.md', 'docs/benchmarks-agent.md'], {
  cwd: root,
  stdio: 'inherit',
});
