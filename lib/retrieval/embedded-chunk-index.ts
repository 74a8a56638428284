import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { connect } from '@lancedb/lancedb';
import { z } from 'zod';
import { metaFilterSchema } from '@/lib/domain/typed-meta';
import type { Bm25Params } from '@/lib/retrieval/embedded/bm25-index';
import { ChunkTable } from '@/lib/retrieval/embedded/chunk-table';
import { KeywordPool } from '@/lib/retrieval/embedded/keyword-pool';
import { type BackgroundRebuildSettings, keywordDirOf, OwnerPartition } from '@/lib/retrieval/embedded/owner-partition';
import { MAX_CANDIDATES, searchPartition } from '@/lib/retrieval/embedded/search-partition';
import type {
  ChunkDocumentAttributes,
  ChunkIndex,
  ChunkIndexHealth,
  ChunkVectorUpdate,
  IndexedChunk,
  SearchHit,
  SearchRequest,
} from '@/lib/retrieval/types';

export const EMBEDDED_ENGINE = 'embedded (LanceDB + persisted BM25 segments)';
/** Memory for loaded owners' keyword indexes when the caller sets no budget. */
export const DEFAULT_MEMORY_BUDGET_MB = 1024;
/** How long an unloaded owner's files stay open for reads that obtained it just before. */
const RETIRE_GRACE_MS = 2_000;
/** How often a read checks an owner's table for versions written by another process. */
const FRESHNESS_CHECK_MS = 1000;

const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}/, 'expected an ISO date (YYYY-MM-DD)');
const finiteVector = z.array(z.number().finite()).min(1);

const searchRequestSchema = z.object({
  ownerId: z.string().min(1),
  query: z.string().max(10_000),
  mode: z.enum(['keyword', 'semantic', 'hybrid']),
  topK: z.number().int().min(1).max(1_000),
  filters: z
    .object({
      bucketIds: z.array(z.string()).optional(),
      documentIds: z.array(z.string()).optional(),
      mimeTypes: z.array(z.string()).optional(),
      dateFrom: isoDate.optional(),
      dateTo: isoDate.optional(),
      tags: z.array(z.string()).optional(),
      fields: z.record(z.string(), z.string()).optional(),
      meta: z.array(metaFilterSchema).max(30).optional(),
    })
    .optional(),
  queryVector: finiteVector.nullable().optional(),
  candidates: z.number().int().min(1).max(MAX_CANDIDATES).optional(),
  includeText: z.boolean().optional(),
});

const vectorUpdatesSchema = z.array(z.object({ chunkId: z.string().min(1), vector: finiteVector }));

/** Table name of an owner: a hash, so any owner id string is safe and names reveal nothing. */
export function ownerTableName(ownerId: string): string {
  return `owner_${createHash('sha256').update(ownerId).digest('hex').slice(0, 40)}`;
}

function assertOwner(ownerId: string): void {
  if (typeof ownerId !== 'string' || ownerId.length === 0) throw new Error('ownerId is required');
}

function assertChunk(chunk: IndexedChunk): void {
  assertOwner(chunk.ownerId);
  if (!chunk.chunkId || !chunk.documentId) throw new Error('chunkId and documentId are required');
  if (chunk.vector && !chunk.vector.every(Number.isFinite))
    throw new Error(`chunk ${chunk.chunkId}: non-finite vector`);
  if (chunk.vector?.length === 0) throw new Error(`chunk ${chunk.chunkId}: empty vector`);
}

/** The embedded ChunkIndex plus maintenance the bulk ingester and benchmarks use. */
export interface EmbeddedChunkIndex extends ChunkIndex {
  /** Waits for background work and brings every loaded owner's ANN index up to date (end of a bulk ingest). */
  optimize(): Promise<void>;
  /** Bytes the loaded owners' keyword indexes hold in memory (what the memory budget bounds). */
  loadedBytes(): Promise<number>;
}

export interface EmbeddedChunkIndexOptions {
  /** Folder holding the LanceDB tables (one per owner). Created when missing. */
  dir: string;
  /** BM25F parameters (defaults tuned on SciFact train). */
  bm25?: Bm25Params;
  /**
   * Bound on the memory of loaded owners' keyword indexes (postings, dictionaries, per-chunk columns), in MB.
   * Past it, the least recently used idle owners are unloaded; they reload from disk on their next use.
   */
  memoryBudgetMb?: number;
  /**
   * Bulk load (a one-off ingester, benchmarks): no ANN index builds or refreshes in the background while writing;
   * the writer calls `optimize()` at the end, which builds each large owner's index once. Without it a large load
   * retrains the index at every doubling of the owner and compacts the table every 20,000 rows. Until `optimize()`
   * vector searches of this process are exact (slow on a large owner).
   */
  bulkLoad?: boolean;
  /**
   * Worker threads scoring keyword queries of large owners (sharing the loaded segments' memory, keyword-pool.ts).
   * Default: the number of CPUs; 0 or 1 scores every query in the calling thread.
   */
  keywordThreads?: number;
  /** Queries whose term lists hold fewer postings are scored in the calling thread (keyword-pool.ts default). */
  keywordPoolMinPostings?: number;
  /**
   * A pool to score with instead of one made from `keywordThreads` (tests, benchmarks: the caller starts, shares
   * and closes it); null: none.
   */
  keywordPool?: KeywordPool | null;
  /**
   * Pacing of the background rebuild of a keyword index written by an older analyser version (default: half a
   * core, batches of 20,000 chunks or a sixteenth of the memory budget in text, whichever is smaller).
   */
  rebuild?: Omit<BackgroundRebuildSettings, 'memoryBudgetBytes'>;
}

/** The keyword search pool for these options, or null (in-thread scoring; also when the worker file is missing). */
function keywordPoolFor(options: EmbeddedChunkIndexOptions): KeywordPool | null {
  if (options.keywordPool !== undefined) return options.keywordPool;
  const threads = options.keywordThreads ?? availableParallelism();
  if (threads <= 1) return null;
  try {
    return new KeywordPool({ threads, minPostings: options.keywordPoolMinPostings });
  } catch (error) {
    console.warn('[chunk-index] keyword search workers unavailable; scoring in the calling thread', error);
    return null;
  }
}

/**
 * The embedded (no server) ChunkIndex. Each owner is a partition of its own: a LanceDB table in `dir` (durable
 * copy of the chunks and their vectors, ANN index once large) plus a persisted BM25 keyword index beside it
 * (`<table>.kw/`: segments written at ingest, loaded in seconds). Nothing ever searches across owners.
 * Loaded owners share a memory budget; the least recently used idle owner is unloaded first.
 * Another process may write the same folder (the bulk ingester next to the app): every read checks, at most once
 * a second per owner, whether the owner's table has versions this process did not write, and reloads the owner's
 * in-memory state from the table when it has.
 */
export async function createEmbeddedChunkIndex(options: EmbeddedChunkIndexOptions): Promise<EmbeddedChunkIndex> {
  await mkdir(options.dir, { recursive: true });
  const db = await connect(options.dir);
  const partitions = new Map<string, Promise<OwnerPartition>>();
  const keywordPool = keywordPoolFor(options);
  let closed = false;

  // Freshness against writers in other processes: every write leaves a random token in a small marker file beside
  // the owner's table; a read that finds a token this process did not see last reloads the owner's in-memory state
  // (the old state keeps serving until the new one is loaded). Background index builds do not touch the marker.
  const seenToken = new Map<string, string>();
  const lastCheck = new Map<string, number>();
  const writesInFlight = new Map<string, number>();
  const reloading = new Set<string>();
  const markerPath = (ownerId: string) => path.join(options.dir, `${ownerTableName(ownerId)}.writer`);

  async function readMarker(ownerId: string): Promise<string> {
    try {
      return (await readFile(markerPath(ownerId), 'utf8')).trim();
    } catch {
      return '';
    }
  }

  async function readPartition(ownerId: string): Promise<OwnerPartition> {
    const current = partitions.get(ownerId);
    const now = Date.now();
    if (
      current &&
      !reloading.has(ownerId) &&
      !writesInFlight.get(ownerId) &&
      now - (lastCheck.get(ownerId) ?? 0) >= FRESHNESS_CHECK_MS
    ) {
      lastCheck.set(ownerId, now);
      const token = await readMarker(ownerId);
      if (token !== (seenToken.get(ownerId) ?? '') && !writesInFlight.get(ownerId)) {
        reloading.add(ownerId);
        seenToken.set(ownerId, token);
        const fresh = loadPartition(ownerId);
        fresh.then(
          async (partition) => {
            // Swap only if no write of ours went to the old state meanwhile (else reload again on the next read).
            if (partitions.get(ownerId) === current && !writesInFlight.get(ownerId)) {
              partitions.set(ownerId, Promise.resolve(partition));
              const old = await current;
              await old.settle();
              old.close();
            } else {
              seenToken.set(ownerId, '');
              partition.close();
            }
            reloading.delete(ownerId);
          },
          () => reloading.delete(ownerId),
        );
      }
    }
    return partitionOf(ownerId);
  }

  async function write<T>(ownerId: string, work: (partition: OwnerPartition) => Promise<T>): Promise<T> {
    writesInFlight.set(ownerId, (writesInFlight.get(ownerId) ?? 0) + 1);
    try {
      const result = await work(await partitionOf(ownerId));
      const token = randomUUID();
      await writeFile(markerPath(ownerId), token).catch(() => {});
      seenToken.set(ownerId, token);
      return result;
    } finally {
      writesInFlight.set(ownerId, (writesInFlight.get(ownerId) ?? 1) - 1);
    }
  }

  const budgetBytes = (options.memoryBudgetMb ?? DEFAULT_MEMORY_BUDGET_MB) * 2 ** 20;

  function loadPartition(ownerId: string): Promise<OwnerPartition> {
    const name = ownerTableName(ownerId);
    return ChunkTable.open(db, name, { deferAnnIndex: options.bulkLoad ?? false }).then((table) =>
      OwnerPartition.load(ownerId, table, keywordDirOf(options.dir, name), options.bm25, keywordPool, {
        ...options.rebuild,
        memoryBudgetBytes: budgetBytes,
      }),
    );
  }

  /** Unloads least recently used idle owners (never `keep`) while loaded owners exceed the memory budget. */
  async function enforceBudget(keep: string): Promise<void> {
    const loaded: { ownerId: string; partition: OwnerPartition }[] = [];
    for (const [ownerId, promise] of partitions) {
      const partition = await promise.catch(() => null);
      if (partition && partitions.get(ownerId) === promise) loaded.push({ ownerId, partition });
    }
    let total = loaded.reduce((sum, entry) => sum + entry.partition.memoryBytes, 0);
    loaded.sort((a, b) => a.partition.lastUsed - b.partition.lastUsed);
    for (const { ownerId, partition } of loaded) {
      if (total <= budgetBytes) break;
      if (ownerId === keep || !partition.idle || writesInFlight.get(ownerId) || reloading.has(ownerId)) continue;
      partitions.delete(ownerId);
      total -= partition.memoryBytes;
      retire(partition);
    }
  }

  /**
   * Closes an unloaded partition once no read holds it. A read that obtained it just before it was unloaded
   * (its continuation not yet run) still finds it open: closing waits a grace period and for the reads to end.
   */
  const retired = new Set<OwnerPartition>();
  function retire(partition: OwnerPartition): void {
    retired.add(partition);
    const attempt = () => {
      if (!retired.has(partition)) return;
      if (!partition.idle) {
        setTimeout(attempt, RETIRE_GRACE_MS).unref();
        return;
      }
      retired.delete(partition);
      void partition.settle().then(() => partition.close());
    };
    setTimeout(attempt, RETIRE_GRACE_MS).unref();
  }

  /** Memory held by loaded owners (bytes), for tests and benchmarks. */
  async function loadedBytes(): Promise<number> {
    const loaded = await Promise.allSettled(partitions.values());
    return loaded.reduce((sum, result) => sum + (result.status === 'fulfilled' ? result.value.memoryBytes : 0), 0);
  }

  function partitionOf(ownerId: string): Promise<OwnerPartition> {
    if (closed) return Promise.reject(new Error('chunk index is closed'));
    assertOwner(ownerId);
    let partition = partitions.get(ownerId);
    if (!partition) {
      partition = loadPartition(ownerId);
      partitions.set(ownerId, partition);
      void partition.then(() => enforceBudget(ownerId)).catch(() => undefined);
      lastCheck.set(ownerId, Date.now());
      // The marker is read before loading: a write committed while the load runs shows up as a new token.
      void readMarker(ownerId).then((token) => {
        if (!seenToken.has(ownerId)) seenToken.set(ownerId, token);
      });
      partition.catch(() => partitions.delete(ownerId));
    }
    return partition;
  }

  return {
    engine: EMBEDDED_ENGINE,

    async upsert(chunks: IndexedChunk[]): Promise<void> {
      const byOwner = new Map<string, IndexedChunk[]>();
      for (const chunk of chunks) {
        assertChunk(chunk);
        const list = byOwner.get(chunk.ownerId) ?? [];
        list.push(chunk);
        byOwner.set(chunk.ownerId, list);
      }
      await Promise.all([...byOwner].map(([ownerId, list]) => write(ownerId, (p) => p.upsert(list))));
    },

    async deleteDocument(ownerId: string, documentId: string): Promise<void> {
      await write(ownerId, (p) => p.deleteDocument(documentId));
    },

    async search(request: SearchRequest): Promise<SearchHit[]> {
      const parsed = searchRequestSchema.parse(request);
      const partition = await readPartition(parsed.ownerId);
      return partition.use(() => searchPartition(partition, parsed));
    },

    async get(ownerId: string, chunkIds: string[]): Promise<IndexedChunk[]> {
      if (chunkIds.length === 0) return [];
      const partition = await readPartition(ownerId);
      return partition.use(() => partition.get(chunkIds));
    },

    async setVectors(ownerId: string, model: string, updates: ChunkVectorUpdate[]): Promise<void> {
      const parsed = vectorUpdatesSchema.parse(updates);
      await write(ownerId, (p) => p.setVectors(model, parsed));
    },

    async updateDocumentAttributes(ownerId: string, documentId: string, attributes: ChunkDocumentAttributes) {
      await write(ownerId, (p) => p.updateDocumentAttributes(documentId, attributes));
    },

    async countChunks(ownerId: string): Promise<number> {
      return (await readPartition(ownerId)).size;
    },

    async keywordIndexState(ownerId: string) {
      return (await readPartition(ownerId)).rebuildState();
    },

    async health(): Promise<ChunkIndexHealth> {
      try {
        await db.tableNames();
        // no table or partition counts: they would tell any reader how many owners the server has
        return { ok: true, engine: EMBEDDED_ENGINE, detail: `${options.dir}: open` };
      } catch (error) {
        return { ok: false, engine: EMBEDDED_ENGINE, detail: error instanceof Error ? error.message : String(error) };
      }
    },

    loadedBytes,

    async optimize(): Promise<void> {
      const loaded = await Promise.all(partitions.values());
      for (const partition of loaded) await partition.optimize();
    },

    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      for (const partition of retired) {
        await partition.settle();
        partition.close();
      }
      retired.clear();
      const loaded = await Promise.allSettled(partitions.values());
      for (const result of loaded) {
        if (result.status !== 'fulfilled') continue;
        await result.value.settle();
        result.value.close();
        // A background rebuild stops at its next batch boundary (resumed by the next open).
        await result.value.rebuildSettled();
      }
      partitions.clear();
      if (options.keywordPool === undefined) await keywordPool?.close();
      db.close();
    },
  };
}
