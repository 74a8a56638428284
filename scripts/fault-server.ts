/**
 * Fault script for issue 8 (prints results, exits 1 when a check fails): the production server is killed with
 * SIGKILL while it ingests files and while an agent run streams; after a restart no document is stuck, no chunk
 * is duplicated, and the interrupted answer is marked `interrupted` with its partial trace. As root it also fills
 * the upload disk (a 1 MiB tmpfs mounted over the uploads folder) and makes the uploads folder immutable
 * (chattr +i): each upload must answer 503 with a clear message and leave no row.
 *
 *   npx tsx scripts/fault-server.ts            # builds into .next-rel when no build is there
 *   NEXT_DIST_DIR=.next-lead npx tsx scripts/fault-server.ts
 *   npx tsx scripts/fault-server.ts --only-disk   # the disk checks alone
 *
 * Loopback only; its own data folder under the system temp dir, removed at the end.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import {
  ensureBuild,
  migrateData,
  type ServerOptions,
  type ServerProcess,
  signUp,
  startServer,
} from '@/test/reliability/server-process';
import { buildTextPdf } from '@/test/support/ingest/minimal-pdf';
import { startFakeOllama } from '@/test/support/llm/fake-ollama';

const distDir = process.env.NEXT_DIST_DIR || '.next-rel';
const port = Number(process.env.FAULT_PORT ?? 3295);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-fault-'));
const checks: { name: string; ok: boolean; detail: string }[] = [];
const check = (name: string, ok: boolean, detail: string) => {
  checks.push({ name, ok, detail });
  console.log(`${ok ? 'ok  ' : 'FAIL'}  ${name}: ${detail}`);
};
/** A check that shows a bug already reported in docs/reliability.md: printed, not counted in the exit code. */
const knownBug = (name: string, ok: boolean, detail: string) => {
  console.log(
    `${ok ? 'ok  ' : 'BUG '}  ${name}: ${detail}${ok ? ' (the known bug seems fixed: make this a check)' : ''}`,
  );
};
let verbose = false;
const onlyDisk = process.argv.includes('--only-disk');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

ensureBuild(distDir);
const fake = await startFakeOllama({ tokenDelayMs: 150, searchQuery: 'turbine inspection interval' });
const options: ServerOptions = {
  port,
  dataDir,
  distDir,
  env: {
    OLLAMA_BASE_URL: fake.url,
    INGEST_CONCURRENCY: '2',
    PARSE_TIMEOUT_MS: '90000',
    RATE_LIMIT_SIGN_UP_PER_MINUTE: '100',
  },
  log: (line) => {
    if (verbose || /error|marked|interrupted/i.test(line))
      process.stdout.write(`    [server] ${line.trim().slice(0, 300)}\n`);
  },
};
migrateData(options);
let server: ServerProcess | null = null;

interface DocRow {
  id: string;
  status: string;
  error: string | null;
  filename: string;
  attempts: number;
}

function db(): Database.Database {
  return new Database(path.join(dataDir, 'docuchat.db'), { readonly: true, fileMustExist: true });
}

async function api(pathname: string, cookie: string, init: RequestInit = {}): Promise<Response> {
  if (!server) throw new Error('no server');
  return fetch(`${server.url}${pathname}`, { ...init, headers: { cookie, ...(init.headers ?? {}) } });
}

async function upload(cookie: string, name: string, data: Buffer | Uint8Array, type: string): Promise<Response> {
  return api('/api/documents/upload', cookie, {
    method: 'POST',
    body: Buffer.from(data),
    headers: { 'x-file-name': name, 'content-type': type },
  });
}

try {
  server = await startServer(options);
  const user = await signUp(server.url, `fault-${randomBytes(3).toString('hex')}@example.test`, '10.1.1.1');

  // a small document to ask about, indexed before anything is killed
  const base = await upload(
    user.cookie,
    'turbines.md',
    Buffer.from(
      '# Turbines\n\nThe turbine inspection interval is 4,000 operating hours. Blades are checked with a borescope.\n',
    ),
    'text/markdown',
  );
  const baseId = ((await base.json()) as { document: { id: string } }).document.id;
  for (let i = 0; i < 120; i++) {
    const d = (await (await api(`/api/documents/${baseId}`, user.cookie)).json()) as { document: { status: string } };
    if (d.document.status === 'INDEXED') break;
    await sleep(250);
  }

  if (!onlyDisk) {
    // ── SIGKILL during ingestion and during an agent run ──────────────────────────────────────────────────────
    const big = [
      {
        name: 'report-6000-pages.pdf',
        data: buildTextPdf(
          Array.from({ length: 6000 }, (_, i) => [`Turbine log page ${i + 1}.`, `Vibration ${i % 97} mm/s recorded.`]),
        ),
        type: 'application/pdf',
      },
      {
        name: 'log-30mb.txt',
        data: Buffer.from(
          'Inspection note: blade root cracks are measured in millimetres and logged.\n'.repeat(400_000),
        ),
        type: 'text/plain',
      },
      {
        name: 'manual-3000-pages.pdf',
        data: buildTextPdf(
          Array.from({ length: 3000 }, (_, i) => [`Manual page ${i + 1}.`, 'Torque the bolts to 90 Nm.']),
        ),
        type: 'application/pdf',
      },
    ];
    const ids: string[] = [];
    for (const f of big) {
      const r = await upload(user.cookie, f.name, f.data, f.type);
      ids.push(((await r.json()) as { document: { id: string } }).document.id);
    }
    // an agent run that is streaming when the server dies
    const controller = new AbortController();
    const stream = await api('/api/agent/stream', user.cookie, {
      method: 'POST',
      body: JSON.stringify({ question: 'What is the turbine inspection interval?', conversationId: 'fault-run' }),
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      signal: controller.signal,
    });
    const reader = stream.body?.getReader();
    let seen = '';
    const deadline = Date.now() + 30_000;
    while (reader && Date.now() < deadline && !seen.includes('"event":"token"')) {
      const { value, done } = await reader.read();
      if (done) break;
      seen += Buffer.from(value).toString('utf8');
    }
    const traceEventsStreamed = seen.split('\n').filter((l) => l.includes('"event":"trace"')).length;
    const processing = db().prepare("SELECT COUNT(*) AS n FROM Document WHERE status = 'PROCESSING'").get() as {
      n: number;
    };
    const running = db().prepare("SELECT COUNT(*) AS n FROM Answer WHERE status = 'running'").get() as { n: number };
    check(
      'state before the kill',
      processing.n > 0 && running.n === 1 && seen.includes('"event":"token"'),
      `${processing.n} document(s) PROCESSING, ${running.n} answer running, tokens streaming`,
    );
    const t0 = Date.now();
    await server.kill('SIGKILL');
    controller.abort();
    console.log(`    killed with SIGKILL after ${((Date.now() - t0) / 1000).toFixed(1)} s of waiting`);

    server = await startServer(options);
    const restartedAt = Date.now();
    // interrupted answer
    const answer = db()
      .prepare(
        'SELECT status, trace, text FROM Answer WHERE conversationId IS NOT NULL ORDER BY createdAt DESC LIMIT 1',
      )
      .get() as { status: string; trace: string; text: string };
    const trace = JSON.parse(answer.trace) as unknown[];
    check(
      'interrupted answer is marked',
      answer.status === 'interrupted',
      `status ${answer.status}, ${trace.length} trace events kept`,
    );
    check('partial trace kept', trace.length > 0, `${trace.length} events`);
    knownBug(
      'the saved trace holds what was streamed before the kill',
      trace.length >= traceEventsStreamed,
      `${traceEventsStreamed} trace events streamed before the kill, ${trace.length} saved`,
    );
    const stillRunning = db().prepare("SELECT COUNT(*) AS n FROM Answer WHERE status = 'running'").get() as {
      n: number;
    };
    check('no answer left running', stillRunning.n === 0, `${stillRunning.n}`);
    const conv = (await (await api('/api/conversations', user.cookie)).json()) as { conversations: { id: string }[] };
    const convId = conv.conversations[0]?.id ?? '';
    const detail = await api(`/api/conversations/${convId}`, user.cookie);
    check('the conversation still opens', detail.status === 200, `GET /api/conversations/:id → ${detail.status}`);

    // every document reaches a final state, none stays PROCESSING
    const finalDeadline = Date.now() + 6 * 60_000;
    let rows: DocRow[] = [];
    for (;;) {
      rows = db().prepare('SELECT id, status, error, filename, attempts FROM Document').all() as DocRow[];
      if (rows.every((r) => r.status === 'INDEXED' || r.status === 'FAILED') || Date.now() > finalDeadline) break;
      await sleep(1000);
    }
    const stuck = rows.filter((r) => r.status !== 'INDEXED' && r.status !== 'FAILED');
    check(
      'no document stuck after restart',
      stuck.length === 0,
      `${rows.map((r) => `${r.filename}: ${r.status}${r.error ? ` (${r.error})` : ''}, attempts ${r.attempts}`).join('; ')}; all final ${((Date.now() - restartedAt) / 1000).toFixed(0)} s after the restart`,
    );
    const dupes = db()
      .prepare('SELECT documentId, "index", COUNT(*) AS n FROM Chunk GROUP BY documentId, "index" HAVING COUNT(*) > 1')
      .all() as unknown[];
    check('no duplicate chunks', dupes.length === 0, `${dupes.length} duplicated (document, index) pairs`);
    const counts = db()
      .prepare(
        'SELECT d.filename AS f, d.chunkCount AS expected, (SELECT COUNT(*) FROM Chunk c WHERE c.documentId = d.id) AS actual FROM Document d',
      )
      .all() as { f: string; expected: number | null; actual: number }[];
    const mismatch = counts.filter((c) => (c.expected ?? 0) !== c.actual);
    check(
      'chunk counts match the rows',
      mismatch.length === 0,
      counts.map((c) => `${c.f}: ${c.actual}/${c.expected ?? 0}`).join(', '),
    );
    // the index agrees with the rows: a search finds the indexed documents once
    const ask = (await (
      await api('/api/agent/run', user.cookie, {
        method: 'POST',
        body: JSON.stringify({ question: 'What is the turbine inspection interval?' }),
        headers: { 'content-type': 'application/json' },
      })
    ).json()) as { answer: string; status: string };
    check(
      'answers after the restart',
      ask.status === 'complete' && /4,000/.test(ask.answer),
      `${ask.status}: ${ask.answer.slice(0, 100)}`,
    );
  }

  // ── disk faults, real (root only) ─────────────────────────────────────────────────────────────────────────
  const uploads = path.join(dataDir, 'uploads');
  const isRoot = process.getuid?.() === 0;
  if (!isRoot) {
    console.log('skip  disk faults: need root for mount/chattr');
  } else {
    fs.mkdirSync(uploads, { recursive: true });
    const before = (db().prepare('SELECT COUNT(*) AS n FROM Document').get() as { n: number }).n;
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', uploads]);
    if (mount.status === 0) {
      try {
        const r = await upload(
          user.cookie,
          'too-big-for-disk.txt',
          Buffer.from(`${'disk full test line\n'.repeat(200_000)}`),
          'text/plain',
        );
        const body = (await r.json()) as { error?: { message: string } };
        const after = (db().prepare('SELECT COUNT(*) AS n FROM Document').get() as { n: number }).n;
        const left = fs.readdirSync(uploads, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
        check(
          'disk full (1 MiB tmpfs): 503, clear message, no row, no partial file',
          r.status === 503 && after === before && left === 0,
          `${r.status} "${body.error?.message}"; rows ${before}→${after}; files left in uploads: ${left}`,
        );
      } finally {
        spawnSync('umount', [uploads]);
      }
    } else console.log(`skip  disk full: mount failed (${mount.stderr.toString().trim()})`);
    const chattr = spawnSync('chattr', ['-R', '+i', uploads]);
    if (chattr.status === 0) {
      try {
        verbose = true;
        let status = 0;
        let message = '';
        try {
          // the previous refused upload was answered before its body was read, so the server closed that
          // keep-alive socket; undici may hand the next request the dead socket (ECONNRESET): retry once
          const send = () => upload(user.cookie, 'read-only.txt', Buffer.from('read only folder test\n'), 'text/plain');
          const r = await send().catch(send);
          status = r.status;
          message = ((await r.json()) as { error?: { message: string } }).error?.message ?? '';
        } catch (error) {
          message = `request failed: ${error instanceof Error ? `${error.message} ${String(error.cause)}` : String(error)}`;
        }
        const alive = await fetch(`${server.url}/api/health`).then(
          (r) => r.status,
          () => 0,
        );
        const after = (db().prepare('SELECT COUNT(*) AS n FROM Document').get() as { n: number }).n;
        check(
          'unwritable uploads folder (chattr +i): 503, clear message, no row',
          status === 503 && after === before,
          `${status} "${message}"; rows ${before}→${after}; server health afterwards ${alive}`,
        );
        verbose = false;
      } finally {
        spawnSync('chattr', ['-R', '-i', uploads]);
      }
    } else console.log(`skip  unwritable folder: chattr failed (${chattr.stderr.toString().trim()})`);
  }
} catch (error) {
  check('script', false, error instanceof Error ? (error.stack ?? error.message) : String(error));
} finally {
  await server?.kill('SIGTERM');
  await fake.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

const failed = checks.filter((c) => !c.ok);
console.log(`\n${checks.length - failed.length} checks passed, ${failed.length} failed`);
process.exit(failed.length > 0 ? 1 : 0);
