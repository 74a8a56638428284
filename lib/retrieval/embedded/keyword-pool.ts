/**
 * Keyword scoring in a small pool of worker threads that share the owners' segment bytes.
 *
 * A loaded segment's .idx file lives in a SharedArrayBuffer (keyword-segment.ts), and a generation's liveness and
 * per-slot norms do too (keyword-store.ts), so a worker is sent a generation once (handles to shared memory,
 * no copy) and afterwards only each query's resolved terms, k, filters and the generation id. It runs the same
 * scoring functions as the owner's thread (keyword-scoring.ts → maxscore.ts) and answers slots and scores; the
 * owner reads the hits' records from the generation the query pinned. Memory is counted once: the workers hold
 * views, not copies (their parsed attribute sets, used by filters, are the exception and are counted).
 *
 * Failure: a worker that exits (crash, out of memory, terminate) is replaced, and its queries in flight are sent
 * once more to another worker; a query that fails twice, or finds no worker ready, is scored in the owner's
 * thread (the pool answers null). Workers that cannot even start (three in a row) disable the pool.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ResolvedTerm, ScoringGeneration } from '@/lib/retrieval/embedded/keyword-scoring';
import type { SegmentReader } from '@/lib/retrieval/embedded/keyword-segment';
import type { KeywordScoringPool } from '@/lib/retrieval/embedded/keyword-store';
import { type FromWorker, generationMessage, type ToWorker } from '@/lib/retrieval/embedded/keyword-worker-main';
import type { ScoredSlot } from '@/lib/retrieval/embedded/top-k';
import type { SearchFilters } from '@/lib/retrieval/types';

/**
 * Queries whose term lists hold fewer postings are scored in the caller's thread: the hand-off (two messages,
 * a thread switch) costs ~0.1-0.2 ms, which a query of this size (~1 ms of scoring) does not pay back.
 */
export const DEFAULT_MIN_POSTINGS = 50_000;
/** Consecutive workers that exited before becoming ready after which the pool gives up (in-thread scoring). */
const MAX_START_FAILURES = 3;
/** Parsed attribute sets cost about this many times their JSON bytes in a worker's heap. */
const PARSED_JSON_FACTOR = 3;

export interface KeywordPoolOptions {
  /** Worker threads (>= 1). */
  threads: number;
  /** Queries with fewer postings in their term lists stay in the caller's thread (default DEFAULT_MIN_POSTINGS). */
  minPostings?: number;
  /** Absolute path of keyword-worker.mjs when it is not found beside this module or under <cwd>. */
  workerPath?: string;
}

interface Pending {
  generation: ScoringGeneration;
  terms: readonly ResolvedTerm[];
  limit: number;
  filters: SearchFilters | undefined;
  /** Times this query was sent to a worker. */
  sent: number;
  resolve: (hits: ScoredSlot[] | null) => void;
}

interface PooledWorker {
  worker: Worker;
  ready: boolean;
  inFlight: Map<number, Pending>;
  /** Generations this worker was sent (and not told to release). */
  generations: Set<number>;
}

/**
 * Finds keyword-worker.mjs: an explicit path, else beside this module (plain Node, tsx, vitest), else under
 * <cwd>/lib/retrieval/embedded (the Next.js server, where this module is bundled into .next) — as the parse
 * worker is found (lib/ingest/sandbox.ts).
 */
function resolveWorkerPath(explicit?: string): string {
  const candidates: string[] = [];
  if (explicit) candidates.push(explicit);
  try {
    candidates.push(path.join(path.dirname(fileURLToPath(import.meta.url)), 'keyword-worker.mjs'));
  } catch {
    // import.meta.url is not a file: URL in some bundles.
  }
  candidates.push(path.join(process.cwd(), 'lib', 'retrieval', 'embedded', 'keyword-worker.mjs'));
  const found = candidates.find((candidate) => existsSync(candidate));
  if (!found) throw new Error(`keyword worker not found (looked in: ${candidates.join(', ')})`);
  return found;
}

/** Whether every array of the generation lives in shared memory (else it cannot be handed over without a copy). */
function shareable(generation: ScoringGeneration): boolean {
  const shared = (array: ArrayBufferView) => array.buffer instanceof SharedArrayBuffer;
  return (
    shared(generation.alive) &&
    shared(generation.bodyInverse) &&
    shared(generation.contextFactor) &&
    generation.readers.every((reader) => shared(reader.bytes))
  );
}

export class KeywordPool implements KeywordScoringPool {
  readonly threads: number;
  private readonly minPostings: number;
  private readonly workerPath: string;
  private readonly pool: PooledWorker[] = [];
  private started = false;
  private closed = false;
  private disabled = false;
  private startFailures = 0;
  private nextQuery = 1;
  private nextSegmentKey = 1;
  private readonly segmentKeys = new WeakMap<SegmentReader, number>();
  /** Segments whose attribute sets workers may have parsed (a filtered query was sent with them). */
  private readonly filteredSegments = new WeakSet<SegmentReader>();
  /** Diagnostics (tests, benchmarks): workers started (replacements included), queries a worker answered, queries
   * sent a second time after their worker exited, queries handed back to the caller's thread. */
  readonly stats = { workersStarted: 0, answered: 0, resent: 0, handedBack: 0 };

  constructor(options: KeywordPoolOptions) {
    if (!(options.threads >= 1)) throw new Error('keyword pool: threads must be >= 1');
    this.threads = Math.floor(options.threads);
    this.minPostings = options.minPostings ?? DEFAULT_MIN_POSTINGS;
    this.workerPath = resolveWorkerPath(options.workerPath);
  }

  /** The live workers (diagnostics, tests). */
  get workers(): readonly Worker[] {
    return this.pool.map((pooled) => pooled.worker);
  }

  /** Generations the workers hold, summed over workers (diagnostics, tests). */
  get generationsHeld(): number {
    return this.pool.reduce((sum, pooled) => sum + pooled.generations.size, 0);
  }

  takes(postings: number): boolean {
    return !this.closed && !this.disabled && postings >= this.minPostings;
  }

  /** Starts the workers now rather than at the first large query (which is scored in its own thread meanwhile). */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    console.info(`[chunk-index] keyword search: starting ${this.threads} worker threads (${this.workerPath})`);
    for (let i = 0; i < this.threads; i++) this.spawn();
  }

  /** Resolves once every worker is ready (or the pool gave up); for benchmarks and tests. */
  async whenReady(): Promise<void> {
    this.start();
    while (!this.closed && !this.disabled && this.pool.filter((pooled) => pooled.ready).length < this.threads)
      await new Promise((resolve) => setTimeout(resolve, 10));
  }

  search(
    generation: ScoringGeneration,
    terms: readonly ResolvedTerm[],
    limit: number,
    filters: SearchFilters | undefined,
  ): Promise<ScoredSlot[] | null> {
    if (this.closed || this.disabled || !shareable(generation)) return Promise.resolve(null);
    this.start();
    return new Promise((resolve) => {
      const pending: Pending = { generation, terms, limit, filters, sent: 0, resolve };
      if (!this.dispatch(pending)) {
        this.stats.handedBack++;
        resolve(null);
      }
    });
  }

  release(generationId: number): void {
    const message: ToWorker = { type: 'release', generation: generationId };
    for (const pooled of this.pool) {
      if (pooled.generations.delete(generationId)) pooled.worker.postMessage(message);
    }
  }

  extraBytes(reader: SegmentReader): number {
    return this.filteredSegments.has(reader) ? reader.attributeSetsJsonBytes * PARSED_JSON_FACTOR * this.threads : 0;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const workers = this.pool.splice(0);
    for (const pooled of workers) for (const pending of pooled.inFlight.values()) pending.resolve(null);
    await Promise.all(workers.map((pooled) => pooled.worker.terminate()));
  }

  private spawn(): void {
    this.stats.workersStarted++;
    // Started from a one-line module so bundlers do not try to resolve or rewrite the entry file.
    const bootstrap = `import(${JSON.stringify(pathToFileURL(this.workerPath).href)});`;
    const worker = new Worker(bootstrap, { eval: true, stdout: false, stderr: false });
    worker.unref();
    const pooled: PooledWorker = { worker, ready: false, inFlight: new Map(), generations: new Set() };
    this.pool.push(pooled);
    worker.on('message', (message: FromWorker) => this.receive(pooled, message));
    // Reported through 'exit' (which always follows): the worker is replaced there.
    worker.on('error', () => undefined);
    worker.once('exit', () => this.lost(pooled));
  }

  private receive(pooled: PooledWorker, message: FromWorker): void {
    if (message.type === 'ready') {
      pooled.ready = true;
      this.startFailures = 0;
      return;
    }
    const pending = pooled.inFlight.get(message.id);
    if (!pending) return;
    pooled.inFlight.delete(message.id);
    if (pooled.inFlight.size === 0) pooled.worker.unref();
    if (message.type === 'failed') {
      this.stats.handedBack++;
      pending.resolve(null);
      return;
    }
    this.stats.answered++;
    const hits: ScoredSlot[] = [];
    for (let i = 0; i < message.slots.length; i++)
      hits.push({ slot: message.slots[i] as number, score: message.scores[i] as number });
    pending.resolve(hits);
  }

  /** A worker exited: replace it, and send its queries in flight to another worker once (else score in-thread). */
  private lost(pooled: PooledWorker): void {
    const at = this.pool.indexOf(pooled);
    if (at < 0) return;
    this.pool.splice(at, 1);
    if (!pooled.ready && ++this.startFailures >= MAX_START_FAILURES && !this.disabled) {
      this.disabled = true;
      console.warn(
        `[chunk-index] keyword search workers failed to start ${MAX_START_FAILURES} times; scoring on the main thread`,
      );
    }
    if (!this.closed && !this.disabled) this.spawn();
    for (const pending of pooled.inFlight.values()) {
      if (pending.sent < 2 && this.dispatch(pending)) {
        this.stats.resent++;
      } else {
        this.stats.handedBack++;
        pending.resolve(null);
      }
    }
  }

  /** Sends a query to a ready worker with the fewest queries in flight; false when none is ready. */
  private dispatch(pending: Pending): boolean {
    // Ties go round the workers (so one query at a time still warms every worker's JIT, not only the first).
    let best: PooledWorker | null = null;
    const n = this.pool.length;
    const first = this.nextQuery % Math.max(n, 1);
    for (let k = 0; k < n; k++) {
      const pooled = this.pool[(first + k) % n] as PooledWorker;
      if (pooled.ready && (!best || pooled.inFlight.size < best.inFlight.size)) best = pooled;
    }
    if (!best) return false;
    const { generation } = pending;
    if (!best.generations.has(generation.id)) {
      best.worker.postMessage(this.generationMessage(generation));
      best.generations.add(generation.id);
    }
    if (pending.filters) for (const reader of generation.readers) this.filteredSegments.add(reader);
    const id = this.nextQuery++;
    pending.sent++;
    best.inFlight.set(id, pending);
    if (best.inFlight.size === 1) best.worker.ref();
    const message: ToWorker = {
      type: 'search',
      id,
      generation: generation.id,
      terms: pending.terms as ResolvedTerm[],
      limit: pending.limit,
      filters: pending.filters,
    };
    best.worker.postMessage(message);
    return true;
  }

  private generationMessage(generation: ScoringGeneration): ToWorker {
    return generationMessage(generation, (reader) => {
      let key = this.segmentKeys.get(reader);
      if (key === undefined) {
        key = this.nextSegmentKey++;
        this.segmentKeys.set(reader, key);
      }
      return key;
    });
  }
}
