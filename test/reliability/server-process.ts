import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * The production server as a child process for the reliability scripts (load, SIGKILL): migrate a data folder,
 * `next start` on a loopback port from a given build folder, wait for /api/health, sample the resident memory
 * of its process tree, stop it gently or with SIGKILL.
 */

export const ROOT = path.resolve(import.meta.dirname, '..', '..');

export interface ServerOptions {
  port: number;
  dataDir: string;
  distDir: string;
  env?: Record<string, string>;
  log?: (line: string) => void;
}

export interface ServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  /** Resident memory of the server and its children, in MB (Linux /proc; 0 elsewhere). */
  rssMb(): number;
  kill(signal: NodeJS.Signals): Promise<void>;
}

/** Newest modification time (ms) of the files a build is made from. */
function newestSourceMtime(): number {
  let newest = 0;
  const visit = (p: string) => {
    const st = fs.statSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p))
        if (name !== 'generated' && !name.startsWith('.')) visit(path.join(p, name));
    } else newest = Math.max(newest, st.mtimeMs);
  };
  for (const entry of ['app', 'lib', 'components', 'next.config.ts', 'package-lock.json', 'prisma/schema.base.prisma'])
    visit(path.join(ROOT, entry));
  return newest;
}

/** Builds the app into `distDir` unless a build is there that is newer than every source file (a stale one is rebuilt). */
export function ensureBuild(distDir: string, force = false): void {
  const buildId = fs.statSync(path.join(ROOT, distDir, 'BUILD_ID'), { throwIfNoEntry: false });
  if (!force && buildId && buildId.mtimeMs >= newestSourceMtime()) return;
  console.log(`[server] building into ${distDir} (next build)…`);
  const r = spawnSync('npx', ['next', 'build'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: '1' },
  });
  if (r.status !== 0) throw new Error('next build failed');
}

export function serverEnv(o: ServerOptions): Record<string, string> {
  return {
    DATA_DIR: o.dataDir,
    DATABASE_URL: `file:${path.join(o.dataDir, 'docuchat.db')}`,
    APP_URL: `http://localhost:${o.port}`,
    NEXT_DIST_DIR: o.distDir,
    NEXT_TELEMETRY_DISABLED: '1',
    NODE_ENV: 'production',
    // the load and fault clients play a reverse proxy: their X-Forwarded-For gives each simulated user an address
    TRUSTED_PROXIES: '127.0.0.1,::1',
    ...o.env,
  };
}

/** Applies the migrations to the server's database (the same migrator `npm start` uses). */
export function migrateData(o: ServerOptions): void {
  fs.mkdirSync(o.dataDir, { recursive: true });
  const r = spawnSync(
    process.execPath,
    ['--experimental-wasm-modules', '--no-warnings', 'scripts/migrate.mjs', 'deploy'],
    {
      cwd: ROOT,
      env: { ...process.env, ...serverEnv(o) },
      stdio: 'pipe',
    },
  );
  if (r.status !== 0) throw new Error(`migrate failed: ${r.stderr.toString()}`);
}

function childPids(pid: number): number[] {
  try {
    const kids = fs
      .readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    return kids.flatMap((k) => [k, ...childPids(k)]);
  } catch {
    return [];
  }
}

function rssOf(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** Starts `next start` and resolves once /api/health answers (or throws after `timeoutMs`). */
export async function startServer(o: ServerOptions, timeoutMs = 60_000): Promise<ServerProcess> {
  const nextBin = path.join(ROOT, 'node_modules', 'next', 'dist', 'bin', 'next');
  const child = spawn(process.execPath, [nextBin, 'start', '-p', String(o.port), '-H', '127.0.0.1'], {
    cwd: ROOT,
    env: { ...process.env, ...serverEnv(o) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = o.log ?? (() => {});
  child.stdout?.on('data', (d: Buffer) => log(d.toString()));
  child.stderr?.on('data', (d: Buffer) => log(d.toString()));
  const url = `http://127.0.0.1:${o.port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (r.status === 200 || r.status === 503) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('server did not answer /api/health in time');
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const pid = child.pid ?? 0;
  return {
    url,
    pid,
    child,
    rssMb: () => [pid, ...childPids(pid)].reduce((sum, p) => sum + rssOf(p), 0),
    kill: (signal) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        // the whole tree: next start may fork a worker
        for (const p of [...childPids(pid), pid]) {
          try {
            process.kill(p, signal);
          } catch {
            // already gone
          }
        }
      }),
  };
}

/**
 * A signed-up user on a running server: the session cookie to send with every request. Sign-up opens no session
 * (it answers alike for a taken email), so this signs in next. `ip` is sent as X-Forwarded-For, which the server
 * believes because serverEnv() makes the loopback test client a trusted proxy.
 */
export async function signUp(url: string, email: string, ip: string): Promise<{ cookie: string; id: string }> {
  const post = (path: string, body: unknown) =>
    fetch(`${url}/api/auth${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        origin: url.replace('127.0.0.1', 'localhost'),
        'x-forwarded-for': ip,
      },
      body: JSON.stringify(body),
    });
  const password = 'a-long-password-1';
  const created = await post('/sign-up/email', { email, password, name: email.split('@')[0] });
  if (created.status !== 200) throw new Error(`sign-up ${created.status}: ${await created.text()}`);
  const r = await post('/sign-in/email', { email, password });
  if (r.status !== 200) throw new Error(`sign-in ${r.status}: ${await r.text()}`);
  const body = (await r.json()) as { user: { id: string } };
  const cookie = r.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { cookie, id: body.user.id };
}
