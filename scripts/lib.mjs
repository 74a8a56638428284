// Small helpers shared by the start/test/dev scripts. Plain Node, no dependencies: they run before `npm install`.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');

export function log(message) {
  process.stdout.write(`\x1b[36m[docuchat]\x1b[0m ${message}\n`);
}

/** Runs a command, inheriting stdio; throws on a non-zero exit. */
export function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    ...options,
    env: { ...process.env, ...options.env },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    const error = new Error(`${command} ${args.join(' ')} exited with ${result.status ?? result.signal}`);
    error.exitCode = result.status ?? 1;
    throw error;
  }
}

/** Runs a command and resolves with its exit code (never throws on failure). */
export function runCode(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: 'inherit',
      ...options,
      env: { ...process.env, ...options.env },
    });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on('error', () => resolve(127));
  });
}

function newestMtime(paths) {
  let newest = 0;
  const visit = (p) => {
    let stat;
    try {
      stat = fs.statSync(p);
    } catch {
      return;
    }
    if (stat.isDirectory()) {
      const base = path.basename(p);
      if (
        [
          'node_modules',
          '.next',
          'data',
          '.git',
          'generated',
          'test-results',
          'playwright-report',
          '.pg-test',
        ].includes(base)
      )
        return;
      for (const entry of fs.readdirSync(p)) visit(path.join(p, entry));
    } else if (stat.mtimeMs > newest) newest = stat.mtimeMs;
  };
  for (const p of paths) visit(path.join(root, p));
  return newest;
}

/** Installs dependencies when node_modules is missing or older than package.json / package-lock.json. */
export function ensureInstalled() {
  const stamp = path.join(root, 'node_modules/.package-lock.json');
  const manifests = ['package.json', 'package-lock.json']
    .map((f) => path.join(root, f))
    .filter((f) => fs.existsSync(f));
  const stale =
    !fs.existsSync(stamp) || manifests.some((f) => fs.statSync(f).mtimeMs > fs.statSync(stamp).mtimeMs + 1000);
  if (!stale) return;
  log('installing dependencies (npm install; the first run compiles better-sqlite3 and takes a few minutes)…');
  // `npm ci` refuses lockfiles missing other platforms' optional packages; `npm install` honours the lockfile.
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { env: { NEXT_TELEMETRY_DISABLED: '1' } });
}

export function generateClients() {
  run(process.execPath, ['scripts/prisma-generate.mjs']);
}

export function migrate(env = {}) {
  run(process.execPath, ['--experimental-wasm-modules', '--no-warnings', 'scripts/migrate.mjs', 'deploy'], { env });
}

/** Builds the production bundle unless a build newer than every source file exists. */
export function buildIfStale({ force = false } = {}) {
  const buildId = path.join(root, '.next/BUILD_ID');
  const sources = [
    'app',
    'components',
    'lib',
    'prisma',
    'public',
    'proxy.ts',
    'next.config.ts',
    'package.json',
    'postcss.config.mjs',
  ];
  if (!force && fs.existsSync(buildId) && fs.statSync(buildId).mtimeMs > newestMtime(sources)) {
    log('production build is up to date');
    return;
  }
  log('building the production bundle (next build)…');
  run('npx', ['next', 'build'], { env: { NEXT_TELEMETRY_DISABLED: '1' } });
}
