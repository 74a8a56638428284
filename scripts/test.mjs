// npm test: install what tests need (dependencies; Debian's Chromium when no browser is found and apt exists),
// then lint, typecheck, dead code (knip), unit tests, integration tests against SQLite and against a throwaway
// PostgreSQL cluster started on loopback (and removed after), then the Playwright suite against the production build.
// Ends with one line "N passed, N failed" (test counts over every suite).
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureInstalled, generateClients, log, root, run, runCode } from './lib.mjs';

const started = Date.now();
const stages = [];
const counts = { passed: 0, failed: 0, skipped: 0 };
/** Tests that failed, and tests that passed only when retried (CI retries a failed test once): named in the summary. */
const failedTests = [];
const flakyTests = [];

/** The first line of a failure message, for the summary (the full stack is in the suite's own output above). */
function firstLine(message) {
  return String(message ?? '')
    .replace(/\x1b\[[0-9;]*m/g, '')
    .split('\n')
    .find((line) => line.trim())
    ?.trim()
    .slice(0, 200);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-test-'));
fs.chmodSync(tmp, 0o755); // the PostgreSQL server runs as the postgres user and must reach its folder

function findBrowser() {
  const candidates = [
    process.env.CHROMIUM_PATH,
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
    '/usr/bin/google-chrome',
  ];
  return candidates.find((p) => p && fs.existsSync(p)) ?? null;
}

function ensureBrowser() {
  if (findBrowser()) return;
  const hasApt = fs.existsSync('/usr/bin/apt-get');
  if (!hasApt)
    throw new Error('No Chromium found and apt-get is not available: install Chromium and set CHROMIUM_PATH.');
  log('installing Debian chromium for the browser tests (apt-get)…');
  const sudo = process.getuid?.() === 0 ? [] : ['sudo'];
  const env = { DEBIAN_FRONTEND: 'noninteractive' };
  run(sudo[0] ?? 'apt-get', [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'update', '-qq'], { env });
  run(
    sudo[0] ?? 'apt-get',
    [...sudo.slice(1), ...(sudo.length ? ['apt-get'] : []), 'install', '-y', '-qq', 'chromium'],
    { env },
  );
  if (!findBrowser()) throw new Error('Chromium was installed but not found at /usr/bin/chromium.');
}

function readVitest(file) {
  try {
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    counts.passed += report.numPassedTests ?? 0;
    counts.failed += report.numFailedTests ?? 0;
    counts.skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
    for (const file of report.testResults ?? []) {
      const where = path.relative(root, file.name ?? '');
      for (const test of file.assertionResults ?? []) {
        const name = `${where} › ${test.fullName ?? test.title}`;
        const messages = test.failureMessages ?? [];
        if (test.status === 'failed') failedTests.push(`${name}: ${firstLine(messages[0])}`);
        else if (test.status === 'passed' && messages.length > 0) flakyTests.push(`${name}: ${firstLine(messages[0])}`);
      }
      // a file that failed to load has no tests to name
      if ((file.assertionResults ?? []).length === 0 && file.status === 'failed')
        failedTests.push(`${where}: ${firstLine(file.message)}`);
    }
  } catch {
    counts.failed += 1; // the runner did not even report
  }
}

/** Playwright's JSON report: specs nested in suites; a test's results are its attempts. */
function* playwrightTests(suite, titles = []) {
  const here = suite.title ? [...titles, suite.title] : titles;
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests ?? []) yield { name: [...here, spec.title].join(' › '), test };
  for (const child of suite.suites ?? []) yield* playwrightTests(child, here);
}

function readPlaywright(file) {
  try {
    const report = JSON.parse(fs.readFileSync(file, 'utf8'));
    counts.passed += (report.stats?.expected ?? 0) + (report.stats?.flaky ?? 0);
    counts.failed += report.stats?.unexpected ?? 0;
    counts.skipped += report.stats?.skipped ?? 0;
    for (const suite of report.suites ?? [])
      for (const { name, test } of playwrightTests(suite)) {
        const firstError = (test.results ?? []).find((r) => r.error)?.error?.message;
        if (test.status === 'unexpected') failedTests.push(`${name}: ${firstLine(firstError)}`);
        else if (test.status === 'flaky') flakyTests.push(`${name}: ${firstLine(firstError)}`);
      }
  } catch {
    counts.failed += 1;
  }
}

async function stage(name, fn) {
  const t0 = Date.now();
  log(`── ${name}`);
  let ok = false;
  try {
    ok = (await fn()) !== false;
  } catch (error) {
    console.error(`[docuchat] ${name}: ${error.message}`);
  }
  stages.push({ name, ok, seconds: Math.round((Date.now() - t0) / 100) / 10 });
  return ok;
}

async function vitest(name, project, env, extra = []) {
  const out = path.join(tmp, `${name.replace(/\W+/g, '-')}.json`);
  const code = await runCode(
    'npx',
    [
      'vitest',
      'run',
      '--project',
      project,
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${out}`,
      ...extra,
    ],
    { env },
  );
  readVitest(out);
  return code === 0;
}

/** A free loopback port for the throwaway PostgreSQL cluster. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

let pgUp = false;
try {
  await stage('install', () => {
    ensureInstalled();
    if (process.env.CI) {
      try {
        execSync('git diff --quiet -- package-lock.json', { cwd: root, stdio: 'ignore' });
      } catch {
        log('note: npm install changed package-lock.json on this machine');
      }
    }
    ensureBrowser();
    generateClients();
  });
  await stage('lint (biome)', async () => (await runCode('npx', ['biome', 'check', '.'])) === 0);
  await stage('typecheck (tsc)', async () => (await runCode('npx', ['tsc', '--noEmit', '-p', 'tsconfig.json'])) === 0);
  // dead files, exports and dependencies (knip.jsonc): any finding fails the run
  await stage('dead code (knip)', async () => (await runCode('npx', ['knip', '--no-progress'])) === 0);
  await stage('unit tests', () => vitest('unit', 'unit', {}));
  await stage('integration tests (SQLite)', () =>
    vitest('integration-sqlite', 'integration', {
      DATABASE_URL: `file:${path.join(tmp, 'sqlite', 'test.db')}`,
      DATA_DIR: path.join(tmp, 'sqlite'),
    }),
  );
  await stage('integration tests (PostgreSQL)', async () => {
    // a free loopback port, so a cluster already running on this machine (a developer's) is never in the way
    const pgPort = String(process.env.PGPORT || (await freePort()));
    const out = execSync('bash scripts/pg-up.sh', {
      cwd: root,
      env: { ...process.env, PGROOT: path.join(tmp, 'pg'), PGPORT: pgPort },
    }).toString();
    pgUp = true;
    const url = /DATABASE_URL=(\S+)/.exec(out)?.[1];
    if (!url) throw new Error('PostgreSQL did not start');
    return vitest('integration-pg', 'integration', { DATABASE_URL: url, DATA_DIR: path.join(tmp, 'pgdata') }, [
      'db.int',
    ]);
  });
  if (pgUp) {
    execSync('bash scripts/pg-down.sh', {
      cwd: root,
      env: { ...process.env, PGROOT: path.join(tmp, 'pg') },
      stdio: 'inherit',
    });
    pgUp = false;
  }
  await stage(
    'production build',
    async () => (await runCode('npx', ['next', 'build'], { env: { NEXT_TELEMETRY_DISABLED: '1' } })) === 0,
  );
  await stage('browser tests (Playwright, Chromium)', async () => {
    const out = path.join(tmp, 'playwright.json');
    const code = await runCode('npx', ['playwright', 'test', '--reporter=list,json'], {
      env: {
        PLAYWRIGHT_JSON_OUTPUT_NAME: out,
        E2E_DATA_DIR: path.join(tmp, 'e2e'),
        CHROMIUM_PATH: findBrowser() ?? '',
      },
    });
    readPlaywright(out);
    return code === 0;
  });
} finally {
  if (pgUp) {
    try {
      execSync('bash scripts/pg-down.sh', {
        cwd: root,
        env: { ...process.env, PGROOT: path.join(tmp, 'pg') },
        stdio: 'inherit',
      });
    } catch {
      // best effort
    }
  }
}

console.log('\nStage summary');
for (const s of stages) console.log(`  ${s.ok ? 'ok  ' : 'FAIL'}  ${s.name} (${s.seconds} s)`);
console.log(`  total ${Math.round((Date.now() - started) / 1000)} s`);
if (flakyTests.length > 0) {
  console.log(`\nPassed only when retried (${flakyTests.length}); each is a bug to fix:`);
  for (const t of flakyTests) console.log(`  ${t}`);
}
if (failedTests.length > 0) {
  console.log(`\nFailed (${failedTests.length}):`);
  for (const t of failedTests) console.log(`  ${t}`);
}
const failedStages = stages.filter((s) => !s.ok).length;
console.log(
  `\n${counts.passed} passed, ${counts.failed + (failedStages && counts.failed === 0 ? failedStages : 0)} failed, ${counts.skipped} skipped`,
);
fs.rmSync(tmp, { recursive: true, force: true });
process.exit(failedStages ? 1 : 0);
