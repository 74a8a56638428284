/**
 * Runs parse + chunk off the main thread, in a worker thread with V8 heap limits and a wall-clock limit, so a
 * hostile or huge file can time out, run out of memory or be cancelled without touching the server's event loop.
 * Workers are reused between files (loading the parsers costs ~0.3 s) and replaced after any failure that
 * terminates one.
 */

import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { IngestErrorCode } from './errors';
import type { OcrOptions } from './ocr';
import type { ParseAndChunkOutput } from './parse-and-chunk';
import type { ChunkerOptions, IngestChunk, ParsedDocument, ProgressCallback } from './types';
import type { ZipLimits } from './zip-guard';

export interface SandboxLimits {
  /** Wall-clock limit for one file, worker start included (default 120 s). */
  timeoutMs?: number;
  /** V8 old-generation heap of the worker, in MB (default 1024). */
  maxMemoryMb?: number;
  /** V8 young-generation heap of the worker, in MB (default 64). */
  maxYoungGenerationSizeMb?: number;
  /** Worker stack, in MB (default 8). */
  stackSizeMb?: number;
  /** Files larger than this are refused before they are read (default 256 MiB). */
  maxFileBytes?: number;
}

export interface ParseAndChunkFileInput {
  path: string;
  filename: string;
  declaredMime?: string | null;
  limits?: SandboxLimits;
  signal?: AbortSignal;
  onProgress?: ProgressCallback;
  chunker?: ChunkerOptions;
  zipLimits?: Partial<ZipLimits>;
  ocr?: OcrOptions;
  /** Return attachments and archive members as `parsed.children` (default true). */
  extractChildren?: boolean;
  /** Flag PDF pages for the visual_interpretation tool (default true; see ParseOptions.visualFlags). */
  visualFlags?: boolean;
  /** Compute extractive section summaries in the worker (default true; see ParseAndChunkOptions). */
  extractiveSummaries?: boolean;
  /** Absolute path of parse-worker.mjs when it is not found beside this module or under <cwd>/lib/ingest. */
  workerPath?: string;
}

export type ParseAndChunkFileResult =
  | {
      ok: true;
      parsed: ParsedDocument;
      /** The same object as `parsed` (the name the pipeline reads). */
      document: ParsedDocument;
      chunks: IngestChunk[];
      /** Extractive section summaries and chunk languages, computed in the worker (see ParseAndChunkOutput). */
      derived: ParseAndChunkOutput['derived'];
      timings: { parseMs: number; chunkMs: number; totalMs: number };
    }
  | { ok: false; code: IngestErrorCode; reason: string };

const DEFAULTS = {
  timeoutMs: 120_000,
  maxMemoryMb: 1024,
  maxYoungGenerationSizeMb: 64,
  stackSizeMb: 8,
  maxFileBytes: 256 * 1024 * 1024,
} as const;

/** Idle workers kept per limits key, and how long an idle worker lives. */
const MAX_IDLE_PER_KEY = 4;
const IDLE_TTL_MS = 30_000;

interface PooledWorker {
  worker: Worker;
  key: string;
  idleTimer: NodeJS.Timeout | null;
}

const idleWorkers = new Map<string, PooledWorker[]>();
let nextJobId = 1;
let workersStarted = 0;
let keepWarmSpare = true;
/** Most jobs parsing at once (a worker each); further jobs wait in FIFO order. Infinity = one worker per job. */
let maxBusy = Number.POSITIVE_INFINITY;
let busy = 0;
const waitingForWorker: (() => void)[] = [];

/**
 * Whether a warm spare worker is kept beside the busy ones (default: yes). The server wants one: a new job, often
 * another user's small file, should not wait for a worker start. A process that runs a fixed number of lanes until
 * its queue is empty (the bulk CLI) does not: the spare would only rotate with the busy workers, and each extra
 * worker costs a start (1-3 CPU-seconds: tsx, its loader thread, the parsers) and its own pdf.js JIT warm-up.
 */
export function configureParseWorkerPool(options: { warmSpare: boolean; maxBusy?: number }): void {
  keepWarmSpare = options.warmSpare;
  maxBusy = Math.max(1, options.maxBusy ?? Number.POSITIVE_INFINITY);
}

/**
 * Waits for a parse slot while `maxBusy` workers are busy (the bulk CLI runs more jobs than workers, so a job's
 * database and index writes on the main thread overlap the next job's parse instead of leaving its worker idle).
 * Resolves false when `signal` aborts first. The caller takes a free slot itself (synchronously: `busy++`).
 */
function waitForSlot(signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const onAbort = () => {
      const at = waitingForWorker.indexOf(wake);
      if (at >= 0) waitingForWorker.splice(at, 1);
      resolve(false);
    };
    // The slot passes straight from the job that frees it (busy stays counted).
    const wake = () => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    };
    waitingForWorker.push(wake);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function freeSlot(): void {
  const next = waitingForWorker.shift();
  if (next) next();
  else busy--;
}

/**
 * Starts parse workers ahead of the first job (the bulk CLI does while it stores the files), so their start-up
 * (tsx, the parsers: 1-3 CPU-seconds each) overlaps other work. They join the idle pool for jobs with the same
 * limits.
 */
export function prestartParseWorkers(count: number, limits: Pick<SandboxLimits, 'maxMemoryMb'> = {}): void {
  const full = resolveLimits(limits);
  const workerPath = resolveWorkerPath();
  const key = poolKey(workerPath, full);
  const have = idleWorkers.get(key)?.length ?? 0;
  for (let i = have; i < Math.min(count, MAX_IDLE_PER_KEY); i++) release(spawnWorker(workerPath, full, key));
}

function resolveLimits(limits: SandboxLimits | undefined): Required<SandboxLimits> {
  return {
    timeoutMs: limits?.timeoutMs ?? DEFAULTS.timeoutMs,
    maxMemoryMb: limits?.maxMemoryMb ?? DEFAULTS.maxMemoryMb,
    maxYoungGenerationSizeMb: limits?.maxYoungGenerationSizeMb ?? DEFAULTS.maxYoungGenerationSizeMb,
    stackSizeMb: limits?.stackSizeMb ?? DEFAULTS.stackSizeMb,
    maxFileBytes: limits?.maxFileBytes ?? DEFAULTS.maxFileBytes,
  };
}

function poolKey(workerPath: string, limits: Required<SandboxLimits>): string {
  return `${workerPath}|${limits.maxMemoryMb}|${limits.maxYoungGenerationSizeMb}|${limits.stackSizeMb}`;
}

/** Parse workers started by this process so far (diagnostics: the ingest CLI's --profile prints it). */
export function countParseWorkersStarted(): number {
  return workersStarted;
}

/**
 * Finds parse-worker.mjs: an explicit path, else beside this module (plain Node, tsx, vitest), else under
 * <cwd>/lib/ingest (the Next.js server, where this module is bundled into .next and its own URL points there).
 */
export function resolveWorkerPath(explicit?: string): string {
  const candidates: string[] = [];
  if (explicit) candidates.push(explicit);
  try {
    candidates.push(path.join(path.dirname(fileURLToPath(import.meta.url)), 'parse-worker.mjs'));
  } catch {
    // import.meta.url is not a file: URL in some bundles.
  }
  candidates.push(path.join(process.cwd(), 'lib', 'ingest', 'parse-worker.mjs'));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`parse worker not found (looked in: ${candidates.join(', ')})`);
  return found;
}

/**
 * Node options a parse worker starts with: this process's, less tsx's loader (`--import`/`--require` of a file in
 * the tsx package), which `tsx` puts on the command line of the CLI and the scripts. parse-worker.mjs registers tsx
 * itself, so the inherited copy only loaded it a second time, in the parse worker and again in every thread the
 * worker starts (each Tesseract worker: ~0.2 CPU-s; docs/benchmarks-ingest.md, "fifth pass").
 */
export function parseWorkerExecArgv(execArgv: readonly string[]): string[] {
  const tsxFile = /[\\/]tsx[\\/]/;
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const arg = execArgv[i] ?? '';
    if ((arg === '--import' || arg === '--require' || arg === '-r') && tsxFile.test(execArgv[i + 1] ?? '')) {
      i++;
      continue;
    }
    if (/^--(import|require)=/.test(arg) && tsxFile.test(arg)) continue;
    out.push(arg);
  }
  return out;
}

function spawnWorker(workerPath: string, limits: Required<SandboxLimits>, key: string): PooledWorker {
  // The worker is started from a one-line module so bundlers do not try to resolve or rewrite the entry file.
  workersStarted++;
  const bootstrap = `import(${JSON.stringify(pathToFileURL(workerPath).href)});`;
  const options = {
    eval: true,
    resourceLimits: {
      maxOldGenerationSizeMb: limits.maxMemoryMb,
      maxYoungGenerationSizeMb: limits.maxYoungGenerationSizeMb,
      stackSizeMb: limits.stackSizeMb,
    },
    stdout: false,
    stderr: false,
  };
  const execArgv = parseWorkerExecArgv(process.execArgv);
  let worker: Worker;
  try {
    // only when there is a loader to leave out; otherwise the worker inherits the options as Node passes them
    worker = new Worker(bootstrap, execArgv.length < process.execArgv.length ? { ...options, execArgv } : options);
  } catch (error) {
    // an option Node does not accept in a worker's explicit list (ERR_WORKER_INVALID_EXEC_ARGV): inherit them all
    if ((error as { code?: unknown }).code !== 'ERR_WORKER_INVALID_EXEC_ARGV') throw error;
    worker = new Worker(bootstrap, options);
  }
  const pooled: PooledWorker = { worker, key, idleTimer: null };
  // An idle worker that dies leaves the pool; its 'error' is reported to the running job's listener, if any.
  worker.on('error', () => undefined);
  worker.once('exit', () => {
    const list = idleWorkers.get(key);
    const at = list?.indexOf(pooled) ?? -1;
    if (list && at >= 0) list.splice(at, 1);
    if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
  });
  return pooled;
}

function acquire(workerPath: string, limits: Required<SandboxLimits>): PooledWorker {
  const key = poolKey(workerPath, limits);
  const pool = idleWorkers.get(key);
  // The oldest idle worker first: under steady load every pooled worker is used in turn, so none sits idle past
  // IDLE_TTL_MS at the bottom of the pool, expires, and is replaced by a new spare that again goes unused (a
  // worker start costs 1-3 CPU-seconds: tsx, its loader thread and the parsers).
  const pooled = pool?.shift();
  if (pooled) {
    if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
    pooled.idleTimer = null;
    pooled.worker.ref();
  }
  // Keep one warm spare: starting a worker (loading the parsers) takes ~0.3 s idle and seconds on a busy machine,
  // and the next job is often another user's small file, which should not wait for that (issue 14).
  if (keepWarmSpare && !idleWorkers.get(key)?.length) release(spawnWorker(workerPath, limits, key));
  return pooled ?? spawnWorker(workerPath, limits, key);
}

function release(pooled: PooledWorker): void {
  const pool = idleWorkers.get(pooled.key) ?? [];
  if (pool.length >= MAX_IDLE_PER_KEY) {
    void pooled.worker.terminate();
    return;
  }
  pooled.worker.unref();
  pooled.idleTimer = setTimeout(() => {
    const list = idleWorkers.get(pooled.key);
    const at = list?.indexOf(pooled) ?? -1;
    if (list && at >= 0) list.splice(at, 1);
    void pooled.worker.terminate();
  }, IDLE_TTL_MS);
  pooled.idleTimer.unref();
  pool.push(pooled);
  idleWorkers.set(pooled.key, pool);
}

/** Idle (warm) parse workers ready for the next file, across every limits setting (diagnostics and tests). */
export function countIdleParseWorkers(): number {
  return [...idleWorkers.values()].reduce((sum, list) => sum + list.length, 0);
}

/** Terminates every idle parse worker (for shutdown and tests); running jobs are not affected. */
export async function shutdownParseWorkers(): Promise<void> {
  const all = [...idleWorkers.values()].flat();
  idleWorkers.clear();
  await Promise.all(
    all.map((pooled) => {
      if (pooled.idleTimer) clearTimeout(pooled.idleTimer);
      return pooled.worker.terminate();
    }),
  );
}

interface WorkerResultMessage {
  type: 'result';
  id: number;
  ok: boolean;
  parsed?: ParsedDocument;
  chunks?: IngestChunk[];
  derived?: ParseAndChunkOutput['derived'];
  timings?: { parseMs: number; chunkMs: number };
  code?: IngestErrorCode;
  reason?: string;
}

interface WorkerProgressMessage {
  type: 'progress';
  id: number;
  stage: 'parsing' | 'chunking';
  fraction: number;
}

function isResult(message: unknown, id: number): message is WorkerResultMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    'type' in message &&
    message.type === 'result' &&
    'id' in message &&
    message.id === id
  );
}

function isProgress(message: unknown, id: number): message is WorkerProgressMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    'type' in message &&
    message.type === 'progress' &&
    'id' in message &&
    message.id === id
  );
}

/**
 * Parses and chunks one stored file in a sandboxed worker thread. Resolves (never rejects) with the parsed
 * document and its chunks, or with `{ ok: false, code, reason }`: the parser's own reason (password-protected,
 * empty file, no extractable text (scanned?), malformed ..., zip bomb ...), "parsing timed out after Ns", "file
 * too large to parse within the memory limit", or "cancelled" when `signal` aborts. Progress arrives via
 * `onProgress` (stage parsing | chunking, fraction 0..1).
 */
export async function parseAndChunkFile(input: ParseAndChunkFileInput): Promise<ParseAndChunkFileResult> {
  const limits = resolveLimits(input.limits);
  if (input.signal?.aborted) return { ok: false, code: 'aborted', reason: 'cancelled' };
  let workerPath: string;
  try {
    workerPath = resolveWorkerPath(input.workerPath);
  } catch (error) {
    return { ok: false, code: 'internal', reason: error instanceof Error ? error.message : String(error) };
  }
  // The time limit starts once a worker is free: waiting behind other jobs is not this file's parse time.
  // (a free slot is taken synchronously, so a caller sees the worker acquired as soon as this returns its promise)
  if (busy < maxBusy) busy++;
  else if (!(await waitForSlot(input.signal))) return { ok: false, code: 'aborted', reason: 'cancelled' };
  const started = performance.now();
  let pooled: PooledWorker;
  try {
    pooled = acquire(workerPath, limits);
  } catch (error) {
    freeSlot();
    return { ok: false, code: 'internal', reason: `parser could not start: ${String(error).slice(0, 300)}` };
  }
  const { worker } = pooled;
  const id = nextJobId++;

  return new Promise<ParseAndChunkFileResult>((resolve) => {
    let settled = false;
    const finish = (result: ParseAndChunkFileResult, keepWorker: boolean) => {
      if (settled) return;
      settled = true;
      freeSlot();
      clearTimeout(timer);
      input.signal?.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (keepWorker) release(pooled);
      else void worker.terminate();
      resolve(result);
    };
    const onMessage = (message: unknown) => {
      if (isProgress(message, id)) {
        try {
          input.onProgress?.({ stage: message.stage, fraction: message.fraction });
        } catch {
          // A failing progress listener must not break the job.
        }
        return;
      }
      if (!isResult(message, id)) return;
      if (message.ok && message.parsed && message.chunks && message.derived) {
        const timings = message.timings ?? { parseMs: 0, chunkMs: 0 };
        finish(
          {
            ok: true,
            parsed: message.parsed,
            document: message.parsed,
            chunks: message.chunks,
            derived: message.derived,
            timings: { ...timings, totalMs: performance.now() - started },
          },
          true,
        );
      } else {
        finish({ ok: false, code: message.code ?? 'internal', reason: message.reason ?? 'parser failed' }, true);
      }
    };
    const onError = (error: Error & { code?: string }) => {
      if (error.code === 'ERR_WORKER_OUT_OF_MEMORY' || /out of memory|heap limit/i.test(error.message)) {
        finish({ ok: false, code: 'out-of-memory', reason: 'file too large to parse within the memory limit' }, false);
      } else {
        finish({ ok: false, code: 'internal', reason: `parser crashed: ${error.message.slice(0, 300)}` }, false);
      }
    };
    const onExit = (exitCode: number) => {
      finish({ ok: false, code: 'internal', reason: `parser exited unexpectedly (code ${exitCode})` }, false);
    };
    const onAbort = () => finish({ ok: false, code: 'aborted', reason: 'cancelled' }, false);
    const timer = setTimeout(() => {
      finish(
        {
          ok: false,
          code: 'timeout',
          reason: `parsing timed out after ${Number((limits.timeoutMs / 1000).toFixed(1))}s`,
        },
        false,
      );
    }, limits.timeoutMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    input.signal?.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({
      type: 'job',
      id,
      path: path.resolve(input.path),
      filename: input.filename,
      declaredMime: input.declaredMime ?? null,
      chunker: input.chunker,
      zipLimits: input.zipLimits,
      maxFileBytes: limits.maxFileBytes,
      ocr: input.ocr,
      extractChildren: input.extractChildren,
      visualFlags: input.visualFlags,
      extractiveSummaries: input.extractiveSummaries,
    });
  });
}
