import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { ANALYZER_VERSION } from '@/lib/retrieval/analyzer';
import type { ChunkTable } from '@/lib/retrieval/embedded/chunk-table';
import { sqlString } from '@/lib/retrieval/embedded/filter-sql';
import {
  claimBuilder,
  clearJournal,
  type JournalEntry,
  nextGenerationDir,
  readJournal,
} from '@/lib/retrieval/embedded/generation-journal';
import { KeywordStore, segmentDocsSliced } from '@/lib/retrieval/embedded/keyword-store';
import { rowToStoredChunk, type StoredChunk } from '@/lib/retrieval/embedded/lance-rows';

/**
 * Rebuilding a stale keyword index (written by an older analyser version) in the background while the old one
 * keeps serving. The new generation is built in `<table>.kw-next/store` from the owner's table, streamed in
 * batches; writes made meanwhile go to the old index as usual (queries see them at once) and are journaled
 * (generation-journal.ts); the journal is replayed into the new generation, the tail of it under the owner's write
 * lock, and the new generation is adopted by the live store in one manifest commit (KeywordStore.adoptGeneration).
 *
 * Crash safety: the new generation is an ordinary keyword store, committed batch by batch with the same durable
 * writes. A process killed mid-rebuild leaves it (and the journal) behind; the next open resumes it: the table is
 * scanned again and only the chunks the new generation lacks are analysed, then the whole journal is replayed.
 * Until the adoption commits, the old manifest stays in force.
 */

/** How the rebuild paces itself. */
export interface RebuildPacing {
  /** Bytes of chunk text buffered before a batch is analysed and written as a segment (bounds the rebuild's heap). */
  bufferBytes: number;
  /** Most chunks in one batch. */
  batchChunks: number;
  /** Share of one core the rebuild may use, in (0, 1]: after each batch it rests for the rest of the time. */
  cpuShare: number;
  /** Called after each batch is committed to the new generation (progress; tests pause or stop here). */
  afterBatch?: (done: number) => Promise<void> | void;
}

export interface RebuildContext {
  ownerId: string;
  table: ChunkTable;
  /** The store serving queries (opened with KeywordStore.openAnyAnalyzer). */
  live: KeywordStore;
  /** Runs work after the owner's queued writes, under its cross-process write lock, with `live` refreshed. */
  exclusive: <T>(work: () => Promise<T>) => Promise<T>;
  /** True once the partition is closing: the rebuild stops between batches (resumed by the next open). */
  stopped: () => boolean;
  /** Chunks in the new generation so far, and the store being built (null when it is closed). */
  onProgress: (done: number, building: KeywordStore | null) => void;
}

/** adopted: the live store serves the new generation; stopped: closing; busy: another builder holds the claim. */
export type RebuildOutcome = 'adopted' | 'stopped' | 'busy';

/** Ids re-read from the table per query when the journal is replayed. */
const REPLAY_BATCH = 500;
/** Documents re-read per query when the journal is replayed. */
const REPLAY_DOCUMENTS = 50;

function storeDirOf(nextDir: string): string {
  return path.join(nextDir, 'store');
}

/** Builds the next generation of `ctx.live` and swaps it in; see the module comment. */
export async function rebuildGeneration(ctx: RebuildContext, pacing: RebuildPacing): Promise<RebuildOutcome> {
  for (;;) {
    const outcome = await attempt(ctx, pacing);
    if (outcome !== 'restart') return outcome;
  }
}

/** One attempt; 'restart' when a write replaced every chunk's vectors meanwhile (journal entry `all`). */
async function attempt(ctx: RebuildContext, pacing: RebuildPacing): Promise<RebuildOutcome | 'restart'> {
  const nextDir = nextGenerationDir(ctx.live.dir);
  const claimed = await ctx.exclusive(async () => {
    if (ctx.live.analyzerVersion === ANALYZER_VERSION) {
      // Another process adopted its generation meanwhile (refreshed by exclusive()).
      await rm(nextDir, { recursive: true, force: true });
      return 'current' as const;
    }
    await mkdir(nextDir, { recursive: true });
    const release = claimBuilder(nextDir);
    if (!release) return null;
    try {
      return { release, next: await openOrCreate(nextDir) };
    } catch (error) {
      release();
      throw error;
    }
  });
  if (claimed === 'current') return 'adopted';
  if (claimed === null) return 'busy';
  const { release, next } = claimed;
  let adopted = false;
  try {
    const scanned = await scanInto(ctx, next, pacing);
    if (scanned === 'stopped') return 'stopped';
    // Most of the journal outside the lock (writes go on meanwhile), the rest under it, then the swap.
    const early = await readJournal(nextDir);
    if (early.some((entry) => entry.all)) return await discard(next, nextDir);
    await replay(ctx, next, early);
    if (ctx.stopped()) return 'stopped';
    const outcome = await ctx.exclusive(async () => {
      const late = await readJournal(nextDir, early.length);
      if (late.some((entry) => entry.all)) return discard(next, nextDir);
      await replay(ctx, next, late);
      await ctx.live.adoptGeneration(next);
      adopted = true;
      await rm(nextDir, { recursive: true, force: true });
      return 'adopted' as const;
    });
    return outcome;
  } finally {
    if (!adopted) next.close();
    ctx.onProgress(next.size, null);
    release();
  }
}

/**
 * The new generation left by an earlier attempt (resumed), or a fresh one. Called under the write lock: a fresh
 * one empties the journal, since every write committed so far is in the table the scan reads.
 */
async function openOrCreate(nextDir: string): Promise<KeywordStore> {
  const storeDir = storeDirOf(nextDir);
  try {
    return await KeywordStore.open(storeDir);
  } catch {
    await rm(storeDir, { recursive: true, force: true });
    clearJournal(nextDir);
    return KeywordStore.create(storeDir);
  }
}

/** Drops the new generation (every chunk's vector column was replaced meanwhile): the next attempt starts over. */
async function discard(next: KeywordStore, nextDir: string): Promise<'restart'> {
  next.close();
  await rm(storeDirOf(nextDir), { recursive: true, force: true });
  return 'restart';
}

/** Streams the owner's table into `next` in batches, skipping chunks it already holds (a resumed rebuild). */
async function scanInto(ctx: RebuildContext, next: KeywordStore, pacing: RebuildPacing): Promise<'done' | 'stopped'> {
  const resumed = next.size > 0;
  let done = next.size;
  ctx.onProgress(done, next);
  let pending: StoredChunk[] = [];
  let pendingBytes = 0;
  let busySince = performance.now();
  const flush = async () => {
    if (pending.length === 0) return;
    const docs = await segmentDocsSliced(pending);
    pending = [];
    pendingBytes = 0;
    // A fresh build sees each chunk once; a resumed one may meet chunks written since (apply replaces them).
    if (resumed) await next.apply(docs, []);
    else await next.appendSegment(docs);
    while (await next.maybeMerge()) {
      // Tiered merging.
    }
    done += docs.length;
    ctx.onProgress(done, next);
    await pacing.afterBatch?.(done);
    // Lower priority than queries: rest so the rebuild's share of the core stays at cpuShare.
    const busy = performance.now() - busySince;
    if (pacing.cpuShare < 1) await sleep((busy * (1 - pacing.cpuShare)) / pacing.cpuShare);
    busySince = performance.now();
  };
  for await (const rows of ctx.table.scanRows()) {
    if (ctx.stopped()) return 'stopped';
    for (const row of rows) {
      const chunk = rowToStoredChunk(row);
      // Defence in depth: a row of another owner (corruption, hash collision) is never indexed.
      if (chunk.ownerId !== ctx.ownerId) continue;
      if (resumed && next.has(chunk.chunkId)) continue;
      pending.push(chunk);
      // UTF-16 strings: two bytes a character.
      pendingBytes += 2 * (chunk.text.length + chunk.contextPrefix.length);
      if (pending.length >= pacing.batchChunks || pendingBytes >= pacing.bufferBytes) {
        await flush();
        if (ctx.stopped()) return 'stopped';
      }
    }
  }
  await flush();
  return ctx.stopped() ? 'stopped' : 'done';
}

/**
 * Makes `next` agree with the table for every chunk and document the journaled writes touched: their chunks are
 * removed and those the table still holds re-analysed from it (idempotent: replaying an entry twice is harmless).
 */
async function replay(ctx: RebuildContext, next: KeywordStore, entries: readonly JournalEntry[]): Promise<void> {
  const chunkIds = [...new Set(entries.flatMap((entry) => entry.chunkIds))];
  const documentIds = [...new Set(entries.flatMap((entry) => entry.documentIds))];
  const update = async (where: string, remove: string[]) => {
    const rows = mine(ctx, (await ctx.table.rowsWhere(where)).map(rowToStoredChunk));
    if (rows.length > 0 || remove.length > 0) await next.apply(await segmentDocsSliced(rows), remove);
  };
  for (let i = 0; i < chunkIds.length; i += REPLAY_BATCH) {
    const ids = chunkIds.slice(i, i + REPLAY_BATCH);
    await update(`chunkId IN (${ids.map(sqlString).join(', ')})`, ids);
  }
  for (let i = 0; i < documentIds.length; i += REPLAY_DOCUMENTS) {
    const ids = documentIds.slice(i, i + REPLAY_DOCUMENTS);
    const remove = ids.flatMap((documentId) => next.chunkIdsOfDocument(documentId));
    await update(`documentId IN (${ids.map(sqlString).join(', ')})`, remove);
  }
  while (await next.maybeMerge()) {
    // Tiered merging.
  }
}

function mine(ctx: RebuildContext, chunks: StoredChunk[]): StoredChunk[] {
  return chunks.filter((chunk) => chunk.ownerId === ctx.ownerId);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
