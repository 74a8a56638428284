import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { createTimeSlicer } from '@/lib/event-loop';
import { ANALYZER_VERSION } from '@/lib/retrieval/analyzer';
import { type Bm25Params, DEFAULT_BM25_PARAMS } from '@/lib/retrieval/embedded/bm25-index';
import type { ChunkTable } from '@/lib/retrieval/embedded/chunk-table';
import { withFileLock } from '@/lib/retrieval/embedded/durable-files';
import { compileFilters } from '@/lib/retrieval/embedded/filter-predicate';
import { filtersToSql, sqlString } from '@/lib/retrieval/embedded/filter-sql';
import { nextGenerationDir } from '@/lib/retrieval/embedded/generation-journal';
import { type RebuildPacing, rebuildGeneration } from '@/lib/retrieval/embedded/keyword-rebuild';
import type { AttributeSet, SegmentDoc } from '@/lib/retrieval/embedded/keyword-segment';
import {
  clearIntent,
  hasManifest,
  type KeywordScoringPool,
  KeywordStore,
  readIntent,
  StaleIndexError,
  segmentDoc,
  segmentDocsSliced,
  type TermLookup,
  type WriteIntent,
  writeIntent,
} from '@/lib/retrieval/embedded/keyword-store';
import { chunkToRow, rowToStoredChunk, type StoredChunk } from '@/lib/retrieval/embedded/lance-rows';
import { metaCells } from '@/lib/retrieval/embedded/meta-columns';
import { SerialQueue } from '@/lib/retrieval/embedded/serial-queue';
import type { AnalysisLanguage } from '@/lib/retrieval/language';
import type { ChunkDocumentAttributes, ChunkVectorUpdate, IndexedChunk, SearchFilters } from '@/lib/retrieval/types';

/** Chunks analysed per segment when an index is rebuilt from the table. */
const REBUILD_BATCH = 20_000;
/** Ids per SQL IN list when rows are re-read for a repair. */
const ID_BATCH = 500;
/** Most chunks written by one group of upserts (bounds the memory and the length of one commit). */
const MAX_GROUP_CHUNKS = 5_000;
/** How long a partition waits before trying again to build a next generation another builder holds. */
const REBUILD_RETRY_MS = 5_000;

/** How a stale keyword index (older analyser version) is rebuilt in the background; see keyword-rebuild.ts. */
export interface BackgroundRebuildSettings {
  /** The index memory budget (bytes): a rebuild buffers at most a sixteenth of it in chunk text per batch. */
  memoryBudgetBytes: number;
  /** Share of one core the rebuild may use (default 0.5). */
  cpuShare?: number;
  /** Most chunks per batch (default REBUILD_BATCH). */
  batchChunks?: number;
  /** Called after each committed batch (tests, benchmarks). */
  afterBatch?: (done: number) => Promise<void> | void;
}

const DEFAULT_REBUILD: BackgroundRebuildSettings = { memoryBudgetBytes: 1024 * 2 ** 20 };

interface UpsertGroup {
  members: { chunks: IndexedChunk[]; resolve: () => void; reject: (error: unknown) => void }[];
  chunks: number;
}

/** Whether the vectors of `chunks` have the dimension the group's have (or either has none): one batch holds one. */
function sameDimensions(members: UpsertGroup['members'], chunks: readonly IndexedChunk[]): boolean {
  const dims = new Set<number>();
  for (const member of members) for (const chunk of member.chunks) if (chunk.vector) dims.add(chunk.vector.length);
  for (const chunk of chunks) if (chunk.vector) dims.add(chunk.vector.length);
  return dims.size <= 1;
}

export interface KeywordMatch {
  chunkId: string;
  score: number;
  /** The stored chunk, read from the state the search ran on (when asked for). */
  record?: StoredChunk;
}

export interface SemanticMatch {
  chunkId: string;
  similarity: number;
}

function toStored(chunk: IndexedChunk): StoredChunk {
  const { vector, ...rest } = chunk;
  return { ...rest, embeddingModel: vector ? chunk.embeddingModel : null };
}

function withAttributes(chunk: StoredChunk, attributes: ChunkDocumentAttributes): StoredChunk {
  return {
    ...chunk,
    bucketId: attributes.bucketId,
    mime: attributes.mime,
    filename: attributes.filename,
    title: attributes.title,
    documentDate: attributes.documentDate,
    tags: [...attributes.tags],
    fields: { ...attributes.fields },
    meta: { ...(attributes.meta ?? {}) },
  };
}

/**
 * Everything the embedded index holds for ONE owner: its LanceDB table (durable copy, vectors) and its persisted
 * keyword index (segments in `<table>.kw/`, postings in memory, chunk records read from disk). Another owner's
 * data is simply not in any structure this object searches.
 * Writes are serialised (and locked against other processes); each records its intent first, writes the table,
 * then commits the keyword index, so a crash at any point is repaired from the table on the next load.
 * Reads never wait for writes and see either the state before or after one.
 */
export class OwnerPartition {
  private readonly writes = new SerialQueue();
  /** The upsert group queued and not yet started, which later upserts may join (null: none, or closed). */
  private openGroup: UpsertGroup | null = null;
  private users = 0;
  lastUsed = Date.now();
  /** The background rebuild of a stale keyword index, while it runs (see keyword-rebuild.ts). */
  private rebuilding: Promise<void> | null = null;
  /** The background rewrite of segments of an older postings layout, while it runs (see startUpgrade()). */
  private upgrading: Promise<void> | null = null;
  /** Chunks in the generation being built, and that store (its memory counts against the budget). */
  private rebuildDone = 0;
  private building: KeywordStore | null = null;
  private closed = false;

  private constructor(
    readonly ownerId: string,
    private readonly table: ChunkTable,
    private readonly store: KeywordStore,
    private readonly params: Bm25Params,
    private readonly rebuildSettings: BackgroundRebuildSettings = DEFAULT_REBUILD,
  ) {}

  /**
   * Opens an owner's partition: its persisted keyword index, rebuilt from the table when missing or unreadable.
   * An index of an older analyser version serves at once while its next generation is built in the background.
   */
  static async load(
    ownerId: string,
    table: ChunkTable,
    keywordDir: string,
    params: Bm25Params = DEFAULT_BM25_PARAMS,
    pool: KeywordScoringPool | null = null,
    rebuildSettings: BackgroundRebuildSettings = DEFAULT_REBUILD,
  ): Promise<OwnerPartition> {
    let store: KeywordStore;
    if (!table.exists && !hasManifest(keywordDir)) {
      // Nobody wrote this owner yet: a read must not create anything on disk.
      const empty = KeywordStore.empty(keywordDir);
      empty.setScoringPool(pool);
      return new OwnerPartition(ownerId, table, empty, params, rebuildSettings);
    }
    try {
      store = await KeywordStore.openAnyAnalyzer(keywordDir);
    } catch (error) {
      if (!(error instanceof StaleIndexError) && !(error instanceof Error && /checksum|segment/.test(error.message)))
        throw error;
      store = await withFileLock(lockPath(keywordDir), async () => {
        // Another process may have rebuilt it while this one waited for the lock.
        try {
          return await KeywordStore.openAnyAnalyzer(keywordDir);
        } catch {
          return rebuild(ownerId, table, keywordDir);
        }
      });
    }
    store.setScoringPool(pool);
    const partition = new OwnerPartition(ownerId, table, store, params, rebuildSettings);
    if (await readIntent(keywordDir)) {
      // Re-read under the lock: the intent may belong to another process's write that has finished since.
      await partition.writes.run(() =>
        partition.locked(async () => {
          const intent = await readIntent(keywordDir);
          if (intent) await partition.repair(intent);
        }),
      );
    }
    await partition.startRebuildIfStale();
    return partition;
  }

  /**
   * Starts building the next generation of a keyword index made by an older analyser version (in the background:
   * the old index answers meanwhile). A current index with a next-generation folder left over (rebuilt in full by
   * a repair meanwhile) gets the folder removed, so writes stop journaling into it.
   */
  private async startRebuildIfStale(): Promise<void> {
    if (this.store.analyzerVersion === ANALYZER_VERSION) {
      const nextDir = nextGenerationDir(this.keywordDir);
      if (existsSync(nextDir))
        await this.serial(() => this.locked(() => rm(nextDir, { recursive: true, force: true })));
      this.startUpgrade();
      return;
    }
    // The next generation is written in the current segment layout.
    this.startRebuild();
  }

  /**
   * Rewrites the segments of an older postings layout (KeywordStore.upgradeSegment: postings transcoded, records
   * kept) one per turn of the write queue, in the background: searches read the old segments meanwhile, writes
   * wait for at most one segment (about a second of CPU per 150k chunks). A crash leaves the committed segments.
   */
  private startUpgrade(): void {
    if (this.upgrading || this.closed || !this.store.hasOldSegments) return;
    const step = () =>
      this.serial(() => (this.closed ? Promise.resolve(false) : this.locked(() => this.store.upgradeSegment())));
    this.upgrading = (async () => {
      while (await step()) {
        // One segment per turn: queued writes run between them.
      }
    })()
      .catch((error: unknown) => {
        if (!this.closed) console.warn(`keyword index ${this.keywordDir}: segment upgrade failed: ${String(error)}`);
      })
      .finally(() => {
        this.upgrading = null;
      });
  }

  private startRebuild(): void {
    if (this.rebuilding || this.closed) return;
    const settings = this.rebuildSettings;
    const pacing: RebuildPacing = {
      bufferBytes: Math.max(1, Math.floor(settings.memoryBudgetBytes / 16)),
      batchChunks: settings.batchChunks ?? REBUILD_BATCH,
      cpuShare: Math.min(1, Math.max(0.05, settings.cpuShare ?? 0.5)),
      afterBatch: settings.afterBatch,
    };
    const task = rebuildGeneration(
      {
        ownerId: this.ownerId,
        table: this.table,
        live: this.store,
        exclusive: (work) =>
          this.serial(() => (this.closed ? Promise.reject(new Error('partition closed')) : this.locked(work))),
        stopped: () => this.closed,
        onProgress: (done, building) => {
          this.rebuildDone = done;
          this.building = building;
        },
      },
      pacing,
    ).then(
      (outcome) => {
        if (outcome === 'adopted') {
          console.info(`keyword index ${this.keywordDir}: rebuilt for analyser version ${ANALYZER_VERSION}`);
        } else if (outcome === 'busy') {
          this.retryRebuildLater();
        }
      },
      (error: unknown) => {
        if (this.closed) return; // closing mid-batch: resumed by the next open
        console.warn(`keyword index ${this.keywordDir}: background rebuild failed, retrying: ${String(error)}`);
        this.retryRebuildLater();
      },
    );
    this.rebuilding = task.finally(() => {
      this.rebuilding = null;
      this.building = null;
    });
  }

  /** Another builder holds the claim (or this attempt failed): try again later, while still stale and open. */
  private retryRebuildLater(): void {
    setTimeout(() => {
      if (!this.closed && this.store.analyzerVersion !== ANALYZER_VERSION) this.startRebuild();
    }, REBUILD_RETRY_MS).unref();
  }

  /**
   * Whether the keyword index is being rebuilt for the current analyser (queries are answered from the old one
   * meanwhile: exact for text without the scripts the upgrade changed), and how many chunks the new one holds.
   */
  rebuildState(): { rebuilding: boolean; done?: number } {
    if (this.store.analyzerVersion === ANALYZER_VERSION && !this.rebuilding) return { rebuilding: false };
    return { rebuilding: true, done: this.rebuildDone };
  }

  /** Resolves when no background rebuild or segment upgrade runs (tests, benchmarks). */
  async rebuildSettled(): Promise<void> {
    await this.rebuilding;
    await this.upgrading;
  }

  get size(): number {
    return this.store.size;
  }

  /** Bytes this partition keeps in memory (for the memory budget), with a generation being rebuilt. */
  get memoryBytes(): number {
    return this.store.memoryBytes + (this.building?.memoryBytes ?? 0);
  }

  /** True when no read holds the partition and no write is queued: it may be evicted. */
  get idle(): boolean {
    return this.users === 0 && this.writes.pending === 0;
  }

  /** Marks a read in progress (eviction waits for it). */
  async use<T>(work: () => Promise<T>): Promise<T> {
    this.users++;
    this.lastUsed = Date.now();
    try {
      return await work();
    } finally {
      this.users--;
    }
  }

  /**
   * Inserts or overwrites this owner's chunks (all must carry this owner's id). Upserts that arrive while another
   * write of this owner runs are written together when their turn comes: one intent, one table commit and one
   * keyword commit (with their fsyncs) for all of them, instead of one each (the ingest lanes each upsert a document
   * at a time). Each caller's promise still resolves only once its chunks are committed, so nothing acknowledged is
   * lost to a crash; the group fails as a whole. An upsert joins a waiting group only when no other write was
   * queued after that group, so writes keep their order.
   */
  upsert(chunks: IndexedChunk[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const open = this.openGroup;
      if (open && open.chunks + chunks.length <= MAX_GROUP_CHUNKS && sameDimensions(open.members, chunks)) {
        open.members.push({ chunks, resolve, reject });
        open.chunks += chunks.length;
        return;
      }
      const group: UpsertGroup = { members: [{ chunks, resolve, reject }], chunks: chunks.length };
      this.openGroup = group;
      void this.writes.run(async () => {
        if (this.openGroup === group) this.openGroup = null;
        try {
          await this.locked(() => this.writeUpsert(group.members.flatMap((member) => member.chunks)));
          for (const member of group.members) member.resolve();
        } catch (error) {
          for (const member of group.members) member.reject(error);
        }
      });
    });
  }

  /** Queues a write that is not an upsert: later upserts must not join a group queued before it. */
  private serial<T>(task: () => Promise<T>): Promise<T> {
    this.openGroup = null;
    return this.writes.run(task);
  }

  private async writeUpsert(chunks: IndexedChunk[]): Promise<void> {
    const latest = new Map<string, IndexedChunk>();
    for (const chunk of chunks) latest.set(chunk.chunkId, chunk);
    const batch = [...latest.values()];
    const dims = new Set(batch.flatMap((chunk) => (chunk.vector ? [chunk.vector.length] : [])));
    if (dims.size > 1) throw new Error('upsert: vectors of different dimensions in one batch');
    const [dim] = [...dims];
    await writeIntent(this.keywordDir, { chunkIds: batch.map((chunk) => chunk.chunkId), documentIds: [] });
    if (dim !== undefined && (await this.ensureVectorColumn(dim))) await this.forgetAllVectors();
    await this.table.ensureMetaColumns(batch.flatMap((chunk) => [...metaCells(chunk.meta ?? {}).keys()]));
    const withVectorColumn = this.table.dimensions !== null;
    const metaColumns = this.table.metaColumns;
    // In time slices: 12k chunks are ~0.1 s of conversion.
    const slice = createTimeSlicer();
    const stored: StoredChunk[] = [];
    const rows: ReturnType<typeof chunkToRow>[] = [];
    for (const chunk of batch) {
      await slice();
      const record = toStored(chunk);
      stored.push(record);
      rows.push(chunkToRow(record, chunk.vector, withVectorColumn, metaColumns));
    }
    if (batch.some((chunk) => this.store.has(chunk.chunkId))) await this.table.upsert(rows);
    else await this.table.add(rows);
    await this.commitKeyword(await segmentDocsSliced(stored), []);
  }

  deleteDocument(documentId: string): Promise<void> {
    return this.serial(() =>
      this.locked(async () => {
        // Nothing to delete (the usual case: the ingest pipeline clears a document before its first upsert):
        // skip the table commit and the fsyncs. The table can only hold chunks the committed keyword state
        // lacks while a crashed write's intent file is present, so the shortcut is taken only without one.
        if (this.store.chunkIdsOfDocument(documentId).length === 0 && !(await readIntent(this.keywordDir))) return;
        await writeIntent(this.keywordDir, { chunkIds: [], documentIds: [documentId] });
        await this.table.deleteDocument(documentId);
        await this.commitKeyword([], this.store.chunkIdsOfDocument(documentId));
      }),
    );
  }

  /** Attaches vectors to this owner's chunks; ids this owner does not have are ignored. */
  setVectors(model: string, updates: ChunkVectorUpdate[]): Promise<void> {
    return this.serial(() =>
      this.locked(async () => {
        const latest = new Map<string, number[]>();
        for (const update of updates) if (this.store.has(update.chunkId)) latest.set(update.chunkId, update.vector);
        if (latest.size === 0) return;
        const dims = new Set([...latest.values()].map((vector) => vector.length));
        if (dims.size > 1) throw new Error('setVectors: vectors of different dimensions in one call');
        const [dim] = [...dims];
        await writeIntent(this.keywordDir, { chunkIds: [...latest.keys()], documentIds: [] });
        if (dim !== undefined && (await this.ensureVectorColumn(dim))) await this.forgetAllVectors();
        await this.table.setVectors(
          [...latest].map(([chunkId, vector]) => ({ chunkId, vector })),
          model,
        );
        const rewritten: SegmentDoc[] = [];
        for (const chunkId of latest.keys()) {
          const record = this.chunk(chunkId);
          if (record) rewritten.push(segmentDoc({ ...record, embeddingModel: model }));
        }
        await this.commitKeyword(rewritten, []);
      }),
    );
  }

  updateDocumentAttributes(documentId: string, attributes: ChunkDocumentAttributes): Promise<void> {
    return this.serial(() =>
      this.locked(async () => {
        const chunkIds = this.store.chunkIdsOfDocument(documentId);
        if (chunkIds.length === 0) return;
        await writeIntent(this.keywordDir, { chunkIds: [], documentIds: [documentId] });
        await this.table.ensureMetaColumns(metaCells(attributes.meta ?? {}).keys());
        await this.table.updateDocumentAttributes(documentId, attributes);
        const rewritten: SegmentDoc[] = [];
        for (const chunkId of chunkIds) {
          const record = this.chunk(chunkId);
          if (record) rewritten.push(segmentDoc(withAttributes(record, attributes)));
        }
        await this.commitKeyword(rewritten, []);
      }),
    );
  }

  /** The chunk with this id, if this owner has it (read from the doc store). */
  chunk(chunkId: string): StoredChunk | undefined {
    const slot = this.store.slotOf(chunkId);
    return slot === undefined ? undefined : this.store.record(slot);
  }

  /** The filterable attributes of a chunk, if this owner has it (from memory). */
  attributes(chunkId: string): AttributeSet | undefined {
    const slot = this.store.slotOf(chunkId);
    return slot === undefined ? undefined : this.store.attributes(slot);
  }

  /** This owner's chunks for the given ids, in the order asked, each id once; vectors read from disk. */
  async get(chunkIds: string[]): Promise<IndexedChunk[]> {
    const found: StoredChunk[] = [];
    const seen = new Set<string>();
    for (const chunkId of chunkIds) {
      if (seen.has(chunkId)) continue;
      seen.add(chunkId);
      const chunk = this.chunk(chunkId);
      if (chunk) found.push(chunk);
    }
    const withVectors = found.filter((chunk) => chunk.embeddingModel !== null).map((chunk) => chunk.chunkId);
    const vectors = await this.table.fetchVectors(withVectors);
    return found.map((chunk) => {
      const vector = vectors.get(chunk.chunkId) ?? null;
      return { ...chunk, vector, embeddingModel: vector ? chunk.embeddingModel : null };
    });
  }

  /**
   * A memo of term lookups in the current keyword state, for one search: `hasAnyTerm` and `searchKeyword` given
   * the same one look each term up once.
   */
  termLookup(): TermLookup {
    return this.store.termLookup();
  }

  /** True when at least one of the terms occurs in this owner's live chunks. */
  hasAnyTerm(terms: readonly string[], lookup: TermLookup = this.store.termLookup()): boolean {
    return terms.some((term) => lookup.documentFrequency(term) > 0);
  }

  /** The analysis languages of the owner's live chunks (what a query is analysed in). */
  languages(): readonly AnalysisLanguage[] {
    return this.store.languages();
  }

  /**
   * Best BM25F matches passing the filters, all from one committed state (scored in a search worker when the
   * index has a pool and the query is large, else in this thread); with `records`, each match carries its chunk
   * read from that same state. `lookup` (from `termLookup()`) saves looking up again the terms it already did.
   */
  searchKeyword(
    terms: string[],
    limit: number,
    filters: SearchFilters | undefined,
    options: { records?: boolean; lookup?: TermLookup } = {},
  ): Promise<KeywordMatch[]> {
    const query = new Map<string, number>();
    for (const term of terms) query.set(term, (query.get(term) ?? 0) + 1);
    return this.store.searchWith(
      query,
      limit,
      this.params,
      filters,
      (hits, state) =>
        hits.flatMap((hit) => {
          const chunkId = state.chunkIdOf(hit.slot);
          if (chunkId === undefined) return [];
          const match: KeywordMatch = { chunkId, score: hit.score };
          if (options.records) match.record = state.record(hit.slot);
          return [match];
        }),
      options.lookup,
    );
  }

  /**
   * Nearest chunks with a vector passing the filters. The engine pre-filters; every match is then re-checked
   * against the current keyword state, so a chunk deleted or re-filed meanwhile is never returned.
   */
  async searchSemantic(
    queryVector: number[],
    limit: number,
    filters: SearchFilters | undefined,
  ): Promise<SemanticMatch[]> {
    if (this.store.vectorCount === 0) return [];
    const predicate = compileFilters(filters);
    const matches = await this.table.searchVectors(queryVector, limit, filtersToSql(filters, this.table.metaColumns));
    const out: SemanticMatch[] = [];
    for (const match of matches) {
      const slot = this.store.slotOf(match.chunkId);
      if (slot === undefined || !this.store.hasVector(slot)) continue;
      if (predicate && !predicate(this.store.attributes(slot))) continue;
      out.push({ chunkId: match.chunkId, similarity: match.similarity });
    }
    return out;
  }

  /** Brings the ANN index up to date with every vector written so far (after pending writes). */
  optimize(): Promise<void> {
    return this.serial(() => this.table.optimize(this.store.vectorCount));
  }

  /** Waits for pending writes and background index jobs. */
  async settle(): Promise<void> {
    await this.writes.idle();
    await this.table.settle();
  }

  /** Closes the files; a background rebuild stops at its next batch boundary (the next open resumes it). */
  close(): void {
    this.closed = true;
    this.store.close();
    this.table.close();
  }

  private get keywordDir(): string {
    return this.store.dir;
  }

  /** Runs a write under the owner's cross-process lock, on the newest committed keyword state. */
  private async locked<T>(work: () => Promise<T>): Promise<T> {
    await mkdir(this.keywordDir, { recursive: true });
    return withFileLock(lockPath(this.keywordDir), async () => {
      await this.store.refresh();
      return work();
    });
  }

  private async commitKeyword(add: SegmentDoc[], remove: string[]): Promise<void> {
    await this.store.apply(add, remove);
    while (await this.store.maybeMerge()) {
      // Tiered merging: one merge can make the next level full.
    }
    await clearIntent(this.keywordDir);
    await this.table.compactIfDue();
    this.table.maintainAnnIndex(this.store.vectorCount);
  }

  private async ensureVectorColumn(dims: number): Promise<boolean> {
    if (this.table.dimensions === null || this.table.dimensions === dims) return this.table.ensureVectorColumn(dims);
    // A new dimension discards every stored vector: record that every chunk changes.
    await writeIntent(this.keywordDir, { chunkIds: [], documentIds: [], all: true });
    return this.table.ensureVectorColumn(dims);
  }

  /** After the vector column was replaced (new dimension): no chunk has a vector any more. */
  private async forgetAllVectors(): Promise<void> {
    const rewritten: SegmentDoc[] = [];
    for (const chunkId of this.store.allChunkIds()) {
      const record = this.chunk(chunkId);
      if (record && record.embeddingModel !== null) rewritten.push(segmentDoc({ ...record, embeddingModel: null }));
    }
    if (rewritten.length > 0) await this.store.apply(rewritten, []);
  }

  /** Re-reads from the table the chunks a crashed write touched and makes the keyword index agree. */
  private async repair(intent: WriteIntent): Promise<void> {
    if (intent.all) {
      const fresh = await rebuild(this.ownerId, this.table, this.keywordDir);
      fresh.close();
      await this.store.refresh();
      await clearIntent(this.keywordDir);
      return;
    }
    const remove = new Set(intent.chunkIds);
    const rows: StoredChunk[] = [];
    for (let i = 0; i < intent.chunkIds.length; i += ID_BATCH) {
      const ids = intent.chunkIds.slice(i, i + ID_BATCH);
      const found = await this.table.rowsWhere(`chunkId IN (${ids.map(sqlString).join(', ')})`);
      rows.push(...found.map(rowToStoredChunk));
    }
    for (const documentId of intent.documentIds) {
      for (const chunkId of this.store.chunkIdsOfDocument(documentId)) remove.add(chunkId);
      const found = await this.table.rowsWhere(`documentId = ${sqlString(documentId)}`);
      rows.push(...found.map(rowToStoredChunk));
    }
    const mine = rows.filter((row) => row.ownerId === this.ownerId);
    await this.commitKeyword(mine.map(segmentDoc), [...remove]);
  }
}

function lockPath(keywordDir: string): string {
  return path.join(keywordDir, 'LOCK');
}

/** Builds an owner's keyword index from its table (first use after an upgrade, or a lost/stale index). */
async function rebuild(ownerId: string, table: ChunkTable, keywordDir: string): Promise<KeywordStore> {
  await mkdir(keywordDir, { recursive: true });
  // Until the rebuild completes, a crash must not leave a partial index that looks complete.
  await writeIntent(keywordDir, { chunkIds: [], documentIds: [], all: true });
  const store = await KeywordStore.create(keywordDir);
  let pending: SegmentDoc[] = [];
  const flush = async () => {
    if (pending.length === 0) return;
    await store.apply(pending, []);
    while (await store.maybeMerge()) {
      // Tiered merging.
    }
    pending = [];
  };
  for await (const rows of table.scanRows()) {
    for (const row of rows) {
      const chunk = rowToStoredChunk(row);
      // Defence in depth: a row of another owner (corruption, hash collision) is never indexed.
      if (chunk.ownerId !== ownerId) continue;
      pending.push(segmentDoc(chunk));
      if (pending.length >= REBUILD_BATCH) await flush();
    }
  }
  await flush();
  await clearIntent(keywordDir);
  return store;
}

/** Folder of an owner's keyword index, beside its LanceDB table. */
export function keywordDirOf(indexDir: string, tableName: string): string {
  return path.join(indexDir, `${tableName}.kw`);
}
