// npm run isolation:report – runs the isolation matrix (e2e/isolation.spec.ts, Playwright, against the production
// build on loopback) and records the API-key matrix's counts as isolation.key_probes / isolation.key_leaks in
// docs/figures.json. The build folder is NEXT_DIST_DIR (default .next-rel, built when missing); E2E_PORT picks the
// server's port (default 3291; Playwright's config starts the servers, see playwright.config.ts).
// Exits with Playwright's code; the counts are recorded whenever this run wrote them (leaks are a count too).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { ensureBuild } from '@/test/reliability/server-process';
import { recordFigures } from './figures';

const COMMAND = 'npm run isolation:report';
const root = path.resolve(import.meta.dirname, '..');
const distDir = process.env.NEXT_DIST_DIR || '.next-rel';
const port = process.env.E2E_PORT || '3291';
const resultsFile = path.join(root, 'e2e/.results/isolation-keys.json');

ensureBuild(distDir);
fs.rmSync(resultsFile, { force: true });
const run = spawnSync('npx', ['playwright', 'test', 'e2e/isolation.spec.ts', '--project', 'chromium'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NEXT_DIST_DIR: distDir, E2E_PORT: port, NEXT_TELEMETRY_DISABLED: '1' },
});
const code = run.status ?? 1;

if (!fs.existsSync(resultsFile)) {
  console.error(`[isolation] the key matrix wrote no ${path.relative(root, resultsFile)}: nothing recorded`);
  process.exit(code || 1);
}
const counts = z
  .object({ keyProbes: z.number().int().nonnegative(), keyLeaks: z.number().int().nonnegative(), at: z.string() })
  .parse(JSON.parse(fs.readFileSync(resultsFile, 'utf8')));
console.log(`[isolation] API-key matrix (run ${counts.at}): ${counts.keyProbes} probes, ${counts.keyLeaks} leaks`);
recordFigures({
  'isolation.key_probes': { value: counts.keyProbes, unit: 'requests', command: COMMAND },
  'isolation.key_leaks': { value: counts.keyLeaks, unit: 'leaks', command: COMMAND },
});
process.exit(code);
