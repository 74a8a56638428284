import crypto from 'node:crypto';
import {
  type ClaimPolicy,
  claimNextJob,
  countDocumentsAwaitingVectors,
  countQueuedJobs,
  deferJob,
  findJobOwner,
  handBackJob,
  heartbeatJob,
  markJobFailed,
  readJobControl,
  recoverStaleJobs as recoverStaleJobRows,
} from '@/lib/db/jobs';
import { backfillVectors } from '@/lib/ingest/backfill';
import { IngestError } from '@/lib/ingest/errors';
import { JobStopped, type PipelineDeps, processDocument } from '@/lib/ingest/pipeline';
import { isIndexUnavailable } from '@/lib/retrieval/errors';

/**
 * Ingestion jobs are rows of the Document table: PENDING → PROCESSING (claimed by one worker, heartbeat in
 * lockedAt) → INDEXED | FAILED. A worker that dies leaves a stale heartbeat; any worker later puts such a job
 * back to PENDING (or FAILED after MAX_ATTEMPTS), so nothing stays "processing" forever. On PostgreSQL several
 * app instances may run workers: a job is claimed with FOR UPDATE SKIP LOCKED and processed once.
 *
 * Fairness: the claim picks the owner first (fewest running jobs across every worker, then the one served least
 * recently), then that owner's oldest job, so one user's bulk upload interleaves with everyone else's files
 * instead of queueing them behind it. An owner runs at most `ownerConcurrency` jobs while the claim would take
 * this worker's last free slot: that slot stays for owners below the cap, so a newcomer's one-page file starts
 * within one poll even while a neighbour's large files keep the other slots busy.
 */

export const HEARTBEAT_STALE_MS = 30_000;
export const MAX_ATTEMPTS = 3;
/** How often an idle worker looks for documents still waiting for vectors. */
export const BACKFILL_EVERY_MS = 30_000;
/** A job whose search index was unreachable waits this long before it is tried again. */
export const INDEX_RETRY_MS = 15_000;

export interface WorkerDeps extends Omit<PipelineDeps, 'shouldStop' | 'embedder'> {
  concurrency: number;
  /** Jobs one owner may run while others wait (default 1); see the fairness note above. */
  ownerConcurrency?: number;
  /** Resolves the embedder for a job (probed when the job starts); null = keyword-only. */
  resolveEmbedder: () => Promise<PipelineDeps['embedder']>;
  pollMs?: number;
  log?: (message: string) => void;
}

/** The claim policy of a worker running `running` jobs: past the owner cap only while a slot stays free after. */
export function claimPolicy(deps: Pick<WorkerDeps, 'concurrency' | 'ownerConcurrency'>, running: number): ClaimPolicy {
  return { ownerCap: deps.ownerConcurrency ?? 1, overCapAllowed: running + 1 < deps.concurrency };
}

/** Returns stale PROCESSING jobs (dead worker) to PENDING, or FAILED once they have used their attempts. */
export async function recoverStaleJobs(now = new Date()): Promise<{ requeued: number; failed: number }> {
  return recoverStaleJobRows({ staleBefore: new Date(now.getTime() - HEARTBEAT_STALE_MS), maxAttempts: MAX_ATTEMPTS });
}

/** Marks a job failed with a reason the user can read, and removes whatever of it was stored or indexed. */
async function failJob(deps: WorkerDeps, documentId: string, reason: string): Promise<void> {
  const ownerId = await findJobOwner(documentId);
  if (!ownerId) return;
  await deps.index.deleteDocument(ownerId, documentId).catch(() => {});
  await markJobFailed({ documentId, reason });
}

/** Runs one claimed job to its end state; never throws. */
export async function runJob(
  deps: WorkerDeps,
  documentId: string,
  stopping: () => boolean,
): Promise<'indexed' | 'failed' | 'stopped'> {
  const log = deps.log ?? (() => {});
  const shouldStop = async () => {
    if (stopping()) return true;
    const row = await readJobControl(documentId);
    return !row || row.cancelRequested || row.status !== 'PROCESSING';
  };
  try {
    const embedder = await deps.resolveEmbedder().catch(() => null);
    const result = await processDocument(documentId, { ...deps, embedder, shouldStop });
    log(`indexed ${documentId}: ${result.pageCount} pages, ${result.chunkCount} chunks`);
    return 'indexed';
  } catch (error) {
    if (error instanceof JobStopped) {
      const row = await readJobControl(documentId);
      if (row?.cancelRequested) {
        await failJob(deps, documentId, 'Cancelled. Retry to process this file again.');
        return 'failed';
      }
      if (row && stopping()) {
        // shutting down: hand the job back for the next start
        await handBackJob(documentId);
      }
      return 'stopped';
    }
    if (isIndexUnavailable(error)) {
      // Keep the document: it waits (PENDING, not claimed before retryAt) and resumes when the index answers.
      await deferJob({
        documentId,
        retryAt: new Date(Date.now() + INDEX_RETRY_MS),
        message: 'Waiting for the search index to be reachable again; processing resumes automatically.',
      });
      log(`waiting for the index: ${documentId}`);
      return 'stopped';
    }
    const reason =
      error instanceof IngestError
        ? error.message
        : 'An unexpected error stopped processing. Retry, or contact the operator if it persists.';
    if (!(error instanceof IngestError)) console.error(`[ingest] job ${documentId} failed`, error);
    await failJob(deps, documentId, reason).catch((e) => console.error('[ingest] could not record failure', e));
    log(`failed ${documentId}: ${reason}`);
    return 'failed';
  }
}

export interface IngestWorker {
  /** Wakes the worker now (e.g. right after an upload). */
  kick(): void;
  /** Stops claiming, asks running jobs to stop, and waits for them. */
  stop(): Promise<void>;
  /** Resolves when no job is waiting or running (for the CLI and tests). */
  idle(): Promise<void>;
}

/** Starts a polling worker with bounded concurrency. */
export function startIngestWorker(deps: WorkerDeps): IngestWorker {
  const workerId = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  const pollMs = deps.pollMs ?? 1000;
  let stopping = false;
  let running = 0;
  let timer: NodeJS.Timeout | undefined;
  let pumping = false;
  let lastRecovery = 0;
  const inFlight = new Set<Promise<unknown>>();
  let idleWaiters: (() => void)[] = [];

  const checkIdle = async () => {
    if (running > 0 || idleWaiters.length === 0) return;
    const waiting = await countQueuedJobs();
    if (waiting === 0 && running === 0) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const w of waiters) w();
    }
  };

  let lastBackfill = 0;
  const backfill = async () => {
    if (running > 0 || stopping || Date.now() - lastBackfill < BACKFILL_EVERY_MS) return;
    lastBackfill = Date.now();
    const pendingVectors = await countDocumentsAwaitingVectors();
    if (pendingVectors === 0) return;
    const embedder = await deps.resolveEmbedder().catch(() => null);
    if (!embedder) return;
    const done = await backfillVectors({ index: deps.index, embedder });
    if (done) deps.log?.(`back-filled vectors of ${done} document(s)`);
  };

  const pump = async () => {
    if (pumping || stopping) return;
    pumping = true;
    try {
      if (Date.now() - lastRecovery > HEARTBEAT_STALE_MS / 3) {
        lastRecovery = Date.now();
        await recoverStaleJobs();
      }
      while (!stopping && running < deps.concurrency) {
        const id = await claimNextJob(workerId, claimPolicy(deps, running));
        if (!id) break;
        running++;
        const heartbeat = setInterval(() => {
          void heartbeatJob(id).catch(() => {});
        }, HEARTBEAT_STALE_MS / 4);
        const job = runJob(deps, id, () => stopping).finally(() => {
          clearInterval(heartbeat);
          running--;
          inFlight.delete(job);
          void pump();
        });
        inFlight.add(job);
      }
      await backfill();
    } catch (error) {
      console.error('[ingest] worker error', error);
    } finally {
      pumping = false;
      await checkIdle().catch(() => {});
    }
  };

  const schedule = () => {
    if (stopping) return;
    timer = setTimeout(async () => {
      await pump();
      schedule();
    }, pollMs);
    timer.unref?.();
  };
  schedule();
  void pump();

  return {
    kick: () => void pump(),
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await Promise.allSettled([...inFlight]);
    },
    idle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        void checkIdle();
      });
    },
  };
}
