/**
 * `npm run bench:fairness`: one user's bulk upload must not stall everyone else (issue 14). In ONE process, as
 * the server runs it: the real route handlers (sign-up, upload, documents list, document) and the real ingest
 * worker (started as instrumentation.ts starts it) over a fresh SQLite database and embedded index, no model
 * (keyword-only indexing; embedding is network time, not event-loop time).
 *
 *   1. idle: user B lists their documents back to back for --idle seconds (latency, event-loop delay);
 *   2. user A (the neighbour) uploads --files text files holding about --chunks chunks in all;
 *   3. busy, once A's first job has run for a few seconds: B uploads a one-page document and polls it until
 *      INDEXED, while listing documents back to back, for --busy seconds (or until A's backlog is done).
 *
 * Prints the small document's time to INDEXED, GET p50/p99/max idle and busy, event-loop delay p99/max
 * (perf_hooks.monitorEventLoopDelay, in this process: the one doing the ingest work) idle and busy, and how many
 * of A's chunks were indexed meanwhile; records the headline figures in docs/figures.json. Bounded: A's backlog
 * is not waited for; the worker is stopped (A's running job handed back) and the temp folder removed.
 *
 *   npm run bench:fairness -- --chunks 100000 --files 20 --idle 10 --busy 60
 *   npm run bench:fairness -- --chunks 4000 --files 4 --dry-run     # a quick check, nothing recorded
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { parseArgs } from 'node:util';
import { recordFigures } from './figures';

const { values: args } = parseArgs({
  options: {
    chunks: { type: 'string', default: '100000' },
    files: { type: 'string', default: '20' },
    idle: { type: 'string', default: '10' },
    busy: { type: 'string', default: '60' },
    'dry-run': { type: 'boolean', default: false },
  },
});
const TOTAL_CHUNKS = Number(args.chunks);
const FILES = Number(args.files);
const IDLE_S = Number(args.idle);
const BUSY_S = Number(args.busy);
const COMMAND = 'npm run bench:fairness';
const ORIGIN = 'http://localhost:3000';
const ROOT = path.resolve(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A fresh data folder and database, no model server (a closed loopback port): set before any module reads them.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-fairness-'));
Object.assign(process.env, {
  DATA_DIR: dataDir,
  DATABASE_URL: `file:${path.join(dataDir, 'bench.db')}`,
  OLLAMA_BASE_URL: 'http://127.0.0.1:9',
  LLM_PROVIDER: 'ollama',
  APP_URL: ORIGIN,
  RATE_LIMIT_UPLOADS_PER_MINUTE: '100000',
});
execFileSync(process.execPath, ['--experimental-wasm-modules', '--no-warnings', 'scripts/migrate.mjs', 'deploy'], {
  cwd: ROOT,
  env: process.env,
  stdio: 'ignore',
});

const authRoute = await import('@/app/api/auth/[...all]/route');
const uploadRoute = await import('@/app/api/documents/upload/route');
const listRoute = await import('@/app/api/documents/route');
const documentRoute = await import('@/app/api/documents/[id]/route');
const { startIngestWorkerOnce } = await import('@/lib/services');
const { shutdownParseWorkers } = await import('@/lib/ingest/sandbox');
const { disconnectDb } = await import('@/lib/db/lifecycle');

function request(cookie: string, pathname: string, init: RequestInit & { headers?: Record<string, string> } = {}) {
  return new Request(`${ORIGIN}${pathname}`, {
    ...init,
    headers: { origin: ORIGIN, host: 'localhost:3000', cookie, ...init.headers },
    ...(init.body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

async function signUp(name: string, ip: string): Promise<string> {
  const response = await authRoute.POST(
    request('', '/api/auth/sign-up/email', {
      method: 'POST',
      body: JSON.stringify({ email: `${name}@example.test`, password: 'a-long-password-1', name }),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    }),
  );
  if (response.status !== 200) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  // Sign-up opens no session (it answers alike for a taken e-mail): the cookie comes from signing in.
  const signIn = await authRoute.POST(
    request('', '/api/auth/sign-in/email', {
      method: 'POST',
      body: JSON.stringify({ email: `${name}@example.test`, password: 'a-long-password-1' }),
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    }),
  );
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
  return signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

async function upload(cookie: string, file: string, name: string): Promise<string> {
  const size = fs.statSync(file).size;
  const body = Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>;
  const response = await uploadRoute.POST(
    request(cookie, '/api/documents/upload', {
      method: 'POST',
      body,
      headers: { 'content-type': 'text/plain', 'x-file-name': name, 'content-length': String(size) },
    }),
    { params: Promise.resolve({}) },
  );
  const json = (await response.json()) as { document?: { id: string }; error?: { message: string } };
  if (!json.document) throw new Error(`upload failed: ${response.status} ${json.error?.message}`);
  return json.document.id;
}

type Doc = { id: string; status: string; stage: string; chunkCount: number | null };

async function listDocuments(cookie: string): Promise<Doc[]> {
  const response = await listRoute.GET(request(cookie, '/api/documents'), { params: Promise.resolve({}) });
  if (response.status !== 200) throw new Error(`list failed: ${response.status}`);
  return ((await response.json()) as { documents: Doc[] }).documents;
}

async function readDocument(cookie: string, id: string): Promise<Doc> {
  const response = await documentRoute.GET(request(cookie, `/api/documents/${id}`), {
    params: Promise.resolve({ id }),
  });
  return ((await response.json()) as { document: Doc }).document;
}

/** Back-to-back authenticated GETs of the documents list until `until()`; latencies in ms. */
async function getLoop(cookie: string, until: () => boolean): Promise<number[]> {
  const latencies: number[] = [];
  while (!until()) {
    const t0 = performance.now();
    await listDocuments(cookie);
    latencies.push(performance.now() - t0);
    await sleep(20);
  }
  return latencies;
}

function pct(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

const round = (n: number) => Math.round(n * 10) / 10;

/** A neighbour's text file of about `chunks` chunks (~500 tokens each): varied prose paragraphs. */
function writeBulkFile(file: string, chunks: number, seed: number): void {
  const words =
    'shipment invoice pallet warehouse forklift inventory supplier customer order delivery route carrier freight customs tariff ledger audit quarter forecast budget'.split(
      ' ',
    );
  const out = fs.openSync(file, 'w');
  let x = seed;
  for (let c = 0; c < chunks; c++) {
    const paragraph: string[] = [];
    for (let w = 0; w < 360; w++) {
      x = (x * 1103515245 + 12345) >>> 0;
      paragraph.push(w % 12 === 0 ? String(x % 10_000) : (words[x % words.length] ?? 'item'));
    }
    fs.writeSync(out, `Section ${c} of file ${seed}. ${paragraph.join(' ')}.\n\n`);
  }
  fs.closeSync(out);
}

const histogram = monitorEventLoopDelay({ resolution: 10 });
const ms = (ns: number) => round(ns / 1e6);

try {
  const worker = await startIngestWorkerOnce();
  const neighbour = await signUp('neighbour', '10.250.0.1');
  const small = await signUp('small', '10.250.0.2');

  // 1. idle
  histogram.enable();
  const idleEnd = Date.now() + IDLE_S * 1000;
  const idleGets = await getLoop(small, () => Date.now() > idleEnd);
  histogram.disable();
  const idleLoop = { p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
  histogram.reset();
  console.log(
    `idle: ${idleGets.length} GETs p50 ${round(pct(idleGets, 50))} ms, p99 ${round(pct(idleGets, 99))} ms; event-loop delay p99 ${idleLoop.p99} ms, max ${idleLoop.max} ms`,
  );

  // 2. the neighbour's bulk upload
  const perFile = Math.ceil(TOTAL_CHUNKS / FILES);
  const files = Array.from({ length: FILES }, (_, i) => path.join(dataDir, `bulk-${i}.txt`));
  for (const [i, file] of files.entries()) writeBulkFile(file, perFile, i + 1);
  const bytes = files.reduce((sum, f) => sum + fs.statSync(f).size, 0);
  const uploadStart = performance.now();
  const bulkIds: string[] = [];
  for (const [i, file] of files.entries()) bulkIds.push(await upload(neighbour, file, `bulk-${i}.txt`));
  console.log(
    `neighbour: ${FILES} files, ${(bytes / 1024 / 1024).toFixed(0)} MB (~${perFile * FILES} chunks) uploaded in ${round((performance.now() - uploadStart) / 1000)} s`,
  );
  // busy: the worker is into the neighbour's first job
  const warm = Date.now() + 60_000;
  while (Date.now() < warm) {
    const docs = await listDocuments(neighbour);
    if (docs.some((d) => d.status === 'PROCESSING')) break;
    await sleep(200);
  }
  await sleep(3000);

  // 3. busy
  histogram.enable();
  const busyStart = Date.now();
  let smallIndexedS = Number.NaN;
  let neighbourDone = false;
  const busyEnd = busyStart + BUSY_S * 1000;
  const stopGets = () => Date.now() > busyEnd || (neighbourDone && !Number.isNaN(smallIndexedS));
  const gets = getLoop(small, stopGets);
  const smallFile = path.join(dataDir, 'one-page.txt');
  fs.writeFileSync(
    smallFile,
    'Quarterly review notes.\n\nThe review meets on Thursday at 10:00 in room 4. Bring the figures.\n',
  );
  const t0 = performance.now();
  const smallId = await upload(small, smallFile, 'one-page.txt');
  const stages: string[] = [];
  const smallWatch = (async () => {
    while (Date.now() < busyEnd + 60_000) {
      const doc = await readDocument(small, smallId);
      if (stages.at(-1)?.split(' ')[0] !== doc.stage)
        stages.push(`${doc.stage} ${round((performance.now() - t0) / 1000)} s`);
      if (doc.status === 'INDEXED' || doc.status === 'FAILED') {
        smallIndexedS = doc.status === 'INDEXED' ? round((performance.now() - t0) / 1000) : Number.NaN;
        console.log(`small document stages: ${stages.join(', ')}`);
        return doc.status;
      }
      await sleep(100);
    }
    return 'timeout';
  })();
  const neighbourWatch = (async () => {
    while (!stopGets()) {
      const docs = await listDocuments(neighbour);
      neighbourDone = docs.every((d) => d.status === 'INDEXED' || d.status === 'FAILED');
      if (neighbourDone) return;
      await sleep(1000);
    }
  })();
  const [busyGets, smallStatus] = await Promise.all([gets, smallWatch, neighbourWatch]);
  histogram.disable();
  const busyLoop = { p99: ms(histogram.percentile(99)), max: ms(histogram.max) };
  const busyS = round((Date.now() - busyStart) / 1000);
  const neighbourDocs = await listDocuments(neighbour);
  const indexedChunks = neighbourDocs.reduce((s, d) => s + (d.status === 'INDEXED' ? (d.chunkCount ?? 0) : 0), 0);
  const indexedFiles = neighbourDocs.filter((d) => d.status === 'INDEXED').length;
  console.log(
    `busy (${busyS} s): small document ${smallStatus} after ${smallIndexedS} s; ${busyGets.length} GETs p50 ${round(pct(busyGets, 50))} ms, p99 ${round(pct(busyGets, 99))} ms, max ${round(Math.max(...busyGets))} ms; event-loop delay p99 ${busyLoop.p99} ms, max ${busyLoop.max} ms`,
  );
  console.log(
    `neighbour meanwhile: ${indexedFiles} of ${FILES} files, ${indexedChunks} chunks indexed; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  if (!args['dry-run']) {
    recordFigures({
      'fairness.small_doc_indexed_s': { value: smallIndexedS, unit: 's', command: COMMAND },
      'fairness.get_p99_ms': { value: round(pct(busyGets, 99)), unit: 'ms', command: COMMAND },
      'fairness.get_p99_idle_ms': { value: round(pct(idleGets, 99)), unit: 'ms', command: COMMAND },
      'eventloop.delay_p99_busy_ms': { value: busyLoop.p99, unit: 'ms', command: COMMAND },
      'eventloop.delay_max_busy_ms': { value: busyLoop.max, unit: 'ms', command: COMMAND },
    });
    console.log('recorded in docs/figures.json');
  }
  await worker.stop();
} finally {
  await shutdownParseWorkers().catch(() => {});
  await disconnectDb().catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);
