import { type DbHandle, getDbHandle } from '@/lib/db/client';

/**
 * Ingestion jobs as rows of the Document table: PENDING → PROCESSING (claimed by one worker, heartbeat in
 * lockedAt) → INDEXED | FAILED. These functions are the worker's view: they address a document by id across
 * owners (the worker serves every owner), so none of them may be reachable from a request handler. The policy
 * (when to retry, how often to beat) lives in lib/ingest/jobs.ts.
 */

/** How the next job is chosen among owners (see lib/ingest/jobs.ts for the policy). */
export interface ClaimPolicy {
  /** Jobs one owner may run (across every worker) before other owners with waiting jobs come first. */
  ownerCap: number;
  /**
   * Whether an owner already at `ownerCap` may still be served by this claim (the worker would keep a slot free
   * after it). False keeps the worker's last slot for owners below their cap, so a newcomer never waits behind
   * a neighbour's long jobs.
   */
  overCapAllowed: boolean;
}

/** One owner at most one job at a time while others wait; the worker's last slot kept for owners below the cap. */
export const DEFAULT_CLAIM_POLICY: ClaimPolicy = { ownerCap: 1, overCapAllowed: false };

/**
 * The fair pick, as one SQL expression yielding the id of the job to claim (or nothing): among owners with a
 * ready job (PENDING, retry time come), those below the cap (or any when over-cap is allowed); first the owner
 * with the fewest running jobs, then the one served least recently (latest claimedAt, never served first), then
 * the one whose oldest ready job is oldest; of that owner, the oldest ready job. `p` names the placeholders:
 * now (a timestamp), cap (an integer), over (0/1).
 */
function fairPickSql(p: { now: string; cap: string; over: string }, status: (s: string) => string): string {
  return `WITH "ready" AS (
      SELECT "ownerId", MIN("createdAt") AS "oldest" FROM "Document"
      WHERE "status" = ${status('PENDING')} AND ("retryAt" IS NULL OR "retryAt" <= ${p.now})
      GROUP BY "ownerId"
    ), "load" AS (
      SELECT r."ownerId", r."oldest",
        (SELECT COUNT(*) FROM "Document" d WHERE d."ownerId" = r."ownerId"
           AND d."status" = ${status('PROCESSING')}) AS "running",
        (SELECT MAX(d."claimedAt") FROM "Document" d WHERE d."ownerId" = r."ownerId") AS "served"
      FROM "ready" r
    ), "owner" AS (
      SELECT "ownerId" FROM "load" WHERE "running" < ${p.cap} OR ${p.over} = 1
      ORDER BY "running", "served" IS NOT NULL, "served", "oldest" LIMIT 1
    )
    SELECT d."id" FROM "Document" d JOIN "owner" o ON d."ownerId" = o."ownerId"
    WHERE d."status" = ${status('PENDING')} AND (d."retryAt" IS NULL OR d."retryAt" <= ${p.now})
    ORDER BY d."createdAt", d."id" LIMIT 1`;
}

/** Serialises claims across app instances on PostgreSQL (held until the claiming transaction ends). */
const CLAIM_LOCK_KEY = 0x64_6f_63_63; // "docc"

/**
 * Atomically claims the next job, chosen fairly across owners (see fairPickSql); null when none may start.
 * PostgreSQL: in one transaction, an advisory lock serialises claimers of every app instance (so the owner's
 * running count the pick reads cannot change under it), then UPDATE … WHERE id = (pick … FOR UPDATE SKIP
 * LOCKED). SQLite: one UPDATE … WHERE id = (pick) statement; SQLite takes its write lock before the statement
 * reads, so concurrent claimers (other connections included) run one after the other.
 */
export async function claimNextJob(
  workerId: string,
  policy: ClaimPolicy = DEFAULT_CLAIM_POLICY,
  handle: DbHandle = getDbHandle(),
): Promise<string | null> {
  const { db, provider } = handle;
  const now = new Date();
  const over = policy.overCapAllowed ? 1 : 0;
  if (provider === 'postgresql') {
    const pick = fairPickSql({ now: '$2', cap: '$3', over: '$4' }, (s) => `'${s}'::"DocumentStatus"`);
    const [, rows] = await db.$transaction([
      db.$queryRawUnsafe(`SELECT 1 AS "locked" FROM pg_advisory_xact_lock(${CLAIM_LOCK_KEY})`),
      db.$queryRawUnsafe<{ id: string }[]>(
        `UPDATE "Document" SET "status" = 'PROCESSING'::"DocumentStatus", "stage" = 'parsing', "lockedBy" = $1,
           "lockedAt" = $2, "claimedAt" = $2, "attempts" = "attempts" + 1, "updatedAt" = $2
         WHERE "id" = (SELECT "id" FROM "Document" WHERE "id" = (${pick}) AND "status" = 'PENDING'::"DocumentStatus"
                       FOR UPDATE SKIP LOCKED)
         RETURNING "id"`,
        workerId,
        now,
        policy.ownerCap,
        over,
      ),
    ]);
    return rows[0]?.id ?? null;
  }
  const pick = fairPickSql({ now: '?', cap: '?', over: '?' }, (s) => `'${s}'`);
  // placeholders in order of appearance: SET (worker, now ×3), pick (now, cap, over, now)
  const rows = await db.$queryRawUnsafe<{ id: string }[]>(
    `UPDATE "Document" SET "status" = 'PROCESSING', "stage" = 'parsing', "lockedBy" = ?, "lockedAt" = ?,
       "claimedAt" = ?, "attempts" = "attempts" + 1, "updatedAt" = ?
     WHERE "id" = (${pick}) AND "status" = 'PENDING'
     RETURNING "id"`,
    workerId,
    now,
    now,
    now,
    now,
    policy.ownerCap,
    over,
    now,
  );
  return rows[0]?.id ?? null;
}

/** Returns PROCESSING jobs whose heartbeat is older than `staleBefore` to PENDING, or FAILED past `maxAttempts`. */
export async function recoverStaleJobs({
  staleBefore,
  maxAttempts,
}: {
  staleBefore: Date;
  maxAttempts: number;
}): Promise<{ requeued: number; failed: number }> {
  const db = getDbHandle().db;
  const stale = { status: 'PROCESSING' as const, OR: [{ lockedAt: { lt: staleBefore } }, { lockedAt: null }] };
  const failed = await db.document.updateMany({
    where: { ...stale, attempts: { gte: maxAttempts } },
    data: {
      status: 'FAILED',
      stage: 'failed',
      error:
        'Processing was interrupted repeatedly (the server stopped while working on this file). Retry to try again.',
      lockedBy: null,
      lockedAt: null,
    },
  });
  const requeued = await db.document.updateMany({
    where: { ...stale, attempts: { lt: maxAttempts } },
    data: { status: 'PENDING', stage: 'queued', progress: 0, lockedBy: null, lockedAt: null },
  });
  return { requeued: requeued.count, failed: failed.count };
}

/** The claimed document as the pipeline needs it, or null once it was deleted. */
export async function loadJobDocument(documentId: string) {
  return getDbHandle().db.document.findUnique({
    where: { id: documentId },
    select: {
      id: true,
      ownerId: true,
      parentId: true,
      storedName: true,
      filename: true,
      mime: true,
      bucketId: true,
      metadata: true,
    },
  });
}

/** Stage, progress and heartbeat of a running job (no effect once it left PROCESSING). */
export async function recordJobProgress({
  documentId,
  stage,
  progress,
}: {
  documentId: string;
  stage: string;
  progress: number;
}): Promise<void> {
  await getDbHandle().db.document.updateMany({
    where: { id: documentId, status: 'PROCESSING' },
    data: { stage, progress, lockedAt: new Date() },
  });
}

/** Refreshes a running job's heartbeat so no other worker takes it for dead. */
export async function heartbeatJob(documentId: string): Promise<void> {
  await getDbHandle().db.document.updateMany({
    where: { id: documentId, status: 'PROCESSING' },
    data: { lockedAt: new Date() },
  });
}

/** Stores the title the parser found when the owner has not set one. */
export async function saveExtractedTitle({
  documentId,
  title,
  metadata,
}: {
  documentId: string;
  title: string;
  metadata: Record<string, unknown>;
}): Promise<void> {
  await getDbHandle().db.document.update({
    where: { id: documentId },
    data: { title, metadata: { ...metadata, title } },
  });
}

/** Marks a running job INDEXED; false when it is no longer PROCESSING (deleted, cancelled or handed back). */
export async function markJobIndexed({
  documentId,
  pageCount,
  chunkCount,
  embeddingModel,
  warnings,
}: {
  documentId: string;
  pageCount: number;
  chunkCount: number;
  embeddingModel: string | null;
  /** What the parse left out or doubted (unreadable OCR pages, attachments not ingested), shown on the document. */
  warnings: string[];
}): Promise<boolean> {
  const finished = await getDbHandle().db.document.updateMany({
    where: { id: documentId, status: 'PROCESSING' },
    data: {
      status: 'INDEXED',
      stage: 'done',
      progress: 1,
      error: null,
      retryAt: null,
      pageCount,
      chunkCount,
      warnings,
      embeddingModel,
      vectorsPending: embeddingModel === null,
      indexedAt: new Date(),
      lockedBy: null,
      lockedAt: null,
      cancelRequested: false,
    },
  });
  return finished.count > 0;
}

/** What a running job must know to decide whether to stop; null once the document was deleted. */
export async function readJobControl(
  documentId: string,
): Promise<{ cancelRequested: boolean; status: 'PENDING' | 'PROCESSING' | 'INDEXED' | 'FAILED' } | null> {
  return getDbHandle().db.document.findUnique({
    where: { id: documentId },
    select: { cancelRequested: true, status: true },
  });
}

/** The owner of a job's document (to clean its index partition), or null once it was deleted. */
export async function findJobOwner(documentId: string): Promise<string | null> {
  const doc = await getDbHandle().db.document.findUnique({ where: { id: documentId }, select: { ownerId: true } });
  return doc?.ownerId ?? null;
}

/** Marks a job FAILED with the user-readable reason and drops its stored pages and chunks, in one transaction. */
export async function markJobFailed({ documentId, reason }: { documentId: string; reason: string }): Promise<void> {
  const { db } = getDbHandle();
  await db.$transaction([
    db.chunk.deleteMany({ where: { documentId } }),
    db.documentPage.deleteMany({ where: { documentId } }),
    db.document.updateMany({
      where: { id: documentId },
      data: {
        status: 'FAILED',
        stage: 'failed',
        error: reason,
        lockedBy: null,
        lockedAt: null,
        cancelRequested: false,
        chunkCount: 0,
      },
    }),
  ]);
}

/** Shutting down: hands a running job back to the queue without counting the attempt. */
export async function handBackJob(documentId: string): Promise<void> {
  await getDbHandle().db.document.updateMany({
    where: { id: documentId, status: 'PROCESSING' },
    data: {
      status: 'PENDING',
      stage: 'queued',
      progress: 0,
      lockedBy: null,
      lockedAt: null,
      attempts: { decrement: 1 },
    },
  });
}

/** Puts a running job back to wait (not claimed before `retryAt`), with a message for the user. */
export async function deferJob({
  documentId,
  retryAt,
  message,
}: {
  documentId: string;
  retryAt: Date;
  message: string;
}): Promise<void> {
  await getDbHandle().db.document.updateMany({
    where: { id: documentId, status: 'PROCESSING' },
    data: {
      status: 'PENDING',
      stage: 'waiting',
      progress: 0,
      error: message,
      retryAt,
      lockedBy: null,
      lockedAt: null,
      attempts: { decrement: 1 },
    },
  });
}

/** How many documents wait in the queue (all owners). */
export async function countQueuedJobs(): Promise<number> {
  return getDbHandle().db.document.count({ where: { status: 'PENDING' } });
}

/** How many indexed documents still wait for vectors (all owners). */
export async function countDocumentsAwaitingVectors(): Promise<number> {
  return getDbHandle().db.document.count({ where: { status: 'INDEXED', vectorsPending: true } });
}

/** Indexed documents still waiting for vectors, oldest first; only `ownerId`'s when given. */
export async function listDocumentsAwaitingVectors({
  ownerId,
  limit,
}: {
  ownerId?: string;
  limit: number;
}): Promise<{ id: string; ownerId: string }[]> {
  return getDbHandle().db.document.findMany({
    where: { status: 'INDEXED', vectorsPending: true, ...(ownerId ? { ownerId } : {}) },
    orderBy: { indexedAt: 'asc' },
    select: { id: true, ownerId: true },
    take: limit,
  });
}

/** Queues an indexed document to run through the whole pipeline again (its index copy was lost). */
export async function requeueIndexedDocument(documentId: string): Promise<void> {
  await getDbHandle().db.document.updateMany({
    where: { id: documentId, status: 'INDEXED' },
    data: { status: 'PENDING', stage: 'queued', progress: 0, attempts: 0 },
  });
}

/** Records that a document's vectors are complete; false when it was re-queued or deleted meanwhile. */
export async function markVectorsComplete({
  documentId,
  embeddingModel,
}: {
  documentId: string;
  embeddingModel: string;
}): Promise<boolean> {
  const marked = await getDbHandle().db.document.updateMany({
    where: { id: documentId, status: 'INDEXED', vectorsPending: true },
    data: { vectorsPending: false, embeddingModel },
  });
  return marked.count === 1;
}
