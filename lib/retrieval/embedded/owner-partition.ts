import { createTimeSlicer, yieldToEventLoop } from '@/lib/event-loop';
import { analyze } from '@/lib/retrieval/analyzer';
import { Bm25Index, type Bm25Params, DEFAULT_BM25_PARAMS, type ScoredSlot } from '@/lib/retrieval/embedded/bm25-index';
import type { ChunkTable } from '@/lib/retrieval/embedded/chunk-table';
import { type ChunkPredicate, compileFilters } from '@/lib/retrieval/embedded/filter-predicate';
import { filtersToSql } from '@/lib/retrieval/embedded/filter-sql';
import { chunkToRow, rowToStoredChunk, type StoredChunk } from '@/lib/retrieval/embedded/lance-rows';
import { SerialQueue } from '@/lib/retrieval/embedded/serial-queue';
import type { ChunkDocumentAttributes, ChunkVectorUpdate, IndexedChunk, SearchFilters } from '@/lib/retrieval/types';

/** Compaction runs when tombstoned slots exceed this share of all slots (and at least COMPACT_MIN_DEAD). */
const COMPACT_DEAD_RATIO = 0.25;
const COMPACT_MIN_DEAD = 1_000;
/** Chunks written and swapped in per step of a large upsert (a few tens of ms of work each). */
const UPSERT_SLICE = 256;

/** A chunk's analysed fields (body text, context prefix), computed before the in-memory state changes. */
interface AnalysedChunk {
  chunk: StoredChunk;
  body: string[];
  context: string[];
}

/** Analyses chunks in time slices, yielding to the event loop between slices (analysis is the costly part). */
async function analyseSliced(chunks: Iterable<StoredChunk>): Promise<AnalysedChunk[]> {
  const slice = createTimeSlicer();
  const out: AnalysedChunk[] = [];
  for (const chunk of chunks) {
    await slice();
    out.push({ chunk, body: analyze(chunk.text), context: analyze(chunk.contextPrefix) });
  }
  return out;
}

export interface KeywordMatch {
  chunk: StoredChunk;
  score: number;
}

export interface SemanticMatch {
  chunk: StoredChunk;
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
  };
}

/**
 * Everything the embedded index holds for ONE owner: its LanceDB table (durable copy, vectors) and, in memory,
 * its chunks and BM25 index. Another owner's data is simply not in any structure this object searches.
 * Writes are serialised; reads never wait for them and see either the state before or after a write.
 */
export class OwnerPartition {
  private readonly writes = new SerialQueue();
  private bm25: Bm25Index;
  /** Stored chunk by BM25 slot (undefined for tombstoned slots). Records are replaced, never mutated. */
  private records: (StoredChunk | undefined)[] = [];
  private readonly slotById = new Map<string, number>();
  private readonly chunksByDocument = new Map<string, Set<string>>();
  private vectorCount = 0;

  private constructor(
    readonly ownerId: string,
    private readonly table: ChunkTable,
    private readonly params: Bm25Params,
  ) {
    this.bm25 = new Bm25Index(params);
  }

  /**
   * Loads an owner's partition from its table (rebuilding the in-memory BM25 index from the stored text), in time
   * slices: a large partition (100k chunks, seconds of work) never holds the event loop for more than a slice.
   */
  static async load(
    ownerId: string,
    table: ChunkTable,
    params: Bm25Params = DEFAULT_BM25_PARAMS,
  ): Promise<OwnerPartition> {
    const partition = new OwnerPartition(ownerId, table, params);
    const slice = createTimeSlicer();
    for await (const rows of table.scanRows()) {
      for (const row of rows) {
        await slice();
        const chunk = rowToStoredChunk(row);
        // Defence in depth: a row of another owner (corruption, hash collision) is never loaded.
        if (chunk.ownerId !== ownerId) continue;
        partition.putInMemory(chunk);
      }
    }
    return partition;
  }

  get size(): number {
    return this.slotById.size;
  }

  /**
   * Inserts or overwrites this owner's chunks (all must carry this owner's id). A large call is written in slices
   * of UPSERT_SLICE chunks with an event-loop turn between them; each slice's in-memory swap is one synchronous
   * step (readers see a slice entirely or not at all).
   */
  upsert(chunks: IndexedChunk[]): Promise<void> {
    return this.writes.run(async () => {
      const latest = new Map<string, IndexedChunk>();
      for (const chunk of chunks) latest.set(chunk.chunkId, chunk);
      const batch = [...latest.values()];
      const dims = new Set(batch.flatMap((chunk) => (chunk.vector ? [chunk.vector.length] : [])));
      if (dims.size > 1) throw new Error('upsert: vectors of different dimensions in one batch');
      const [dim] = [...dims];
      if (dim !== undefined && (await this.table.ensureVectorColumn(dim))) this.forgetAllVectors();
      const withVectorColumn = this.table.dimensions !== null;
      for (let start = 0; start < batch.length; start += UPSERT_SLICE) {
        if (start > 0) await yieldToEventLoop();
        const slice = batch.slice(start, start + UPSERT_SLICE);
        const rows = slice.map((chunk) => chunkToRow(toStored(chunk), chunk.vector, withVectorColumn));
        // analysed before the write (the costly part, itself in time slices); the swap below is cheap
        const analysed = await analyseSliced(slice.map(toStored));
        if (slice.some((chunk) => this.slotById.has(chunk.chunkId))) await this.table.upsert(rows);
        else await this.table.add(rows);
        for (const item of analysed) {
          this.removeFromMemory(item.chunk.chunkId);
          this.putInMemory(item.chunk, item);
        }
      }
      this.afterWrite();
    });
  }

  deleteDocument(documentId: string): Promise<void> {
    return this.writes.run(async () => {
      const doomed = [...(this.chunksByDocument.get(documentId) ?? [])].flatMap((id) => this.chunk(id) ?? []);
      const analysed = await analyseSliced(doomed);
      await this.table.deleteDocument(documentId);
      for (const item of analysed) this.removeFromMemory(item.chunk.chunkId, item);
      this.afterWrite();
    });
  }

  /** Attaches vectors to this owner's chunks; ids this owner does not have are ignored. */
  setVectors(model: string, updates: ChunkVectorUpdate[]): Promise<void> {
    return this.writes.run(async () => {
      const latest = new Map<string, number[]>();
      for (const update of updates) if (this.slotById.has(update.chunkId)) latest.set(update.chunkId, update.vector);
      if (latest.size === 0) return;
      const dims = new Set([...latest.values()].map((vector) => vector.length));
      if (dims.size > 1) throw new Error('setVectors: vectors of different dimensions in one call');
      const [dim] = [...dims];
      if (dim !== undefined && (await this.table.ensureVectorColumn(dim))) this.forgetAllVectors();
      await this.table.setVectors(
        [...latest].map(([chunkId, vector]) => ({ chunkId, vector })),
        model,
      );
      for (const chunkId of latest.keys()) {
        const slot = this.slotById.get(chunkId);
        const record = slot === undefined ? undefined : this.records[slot];
        if (slot === undefined || !record) continue;
        if (record.embeddingModel === null) this.vectorCount++;
        this.records[slot] = { ...record, embeddingModel: model };
      }
      this.afterWrite();
    });
  }

  updateDocumentAttributes(documentId: string, attributes: ChunkDocumentAttributes): Promise<void> {
    return this.writes.run(async () => {
      const chunkIds = this.chunksByDocument.get(documentId);
      if (!chunkIds || chunkIds.size === 0) return;
      await this.table.updateDocumentAttributes(documentId, attributes);
      for (const chunkId of chunkIds) {
        const slot = this.slotById.get(chunkId);
        const record = slot === undefined ? undefined : this.records[slot];
        if (slot !== undefined && record) this.records[slot] = withAttributes(record, attributes);
      }
    });
  }

  /** The chunk with this id, if this owner has it. */
  chunk(chunkId: string): StoredChunk | undefined {
    const slot = this.slotById.get(chunkId);
    return slot === undefined ? undefined : this.records[slot];
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

  /** Best BM25 matches passing the filters (synchronous: one consistent in-memory state). */
  searchKeyword(terms: string[], limit: number, filters: SearchFilters | undefined): KeywordMatch[] {
    const predicate = compileFilters(filters);
    const accept = predicate ? this.slotPredicate(predicate) : undefined;
    const hits: ScoredSlot[] = this.bm25.search(terms, limit, accept);
    const matches: KeywordMatch[] = [];
    for (const hit of hits) {
      const chunk = this.records[hit.slot];
      if (chunk) matches.push({ chunk, score: hit.score });
    }
    return matches;
  }

  /**
   * Nearest chunks with a vector passing the filters. The engine pre-filters; every match is then re-checked
   * against the current in-memory chunk, so a chunk deleted or re-filed meanwhile is never returned.
   */
  async searchSemantic(
    queryVector: number[],
    limit: number,
    filters: SearchFilters | undefined,
  ): Promise<SemanticMatch[]> {
    if (this.vectorCount === 0) return [];
    const predicate = compileFilters(filters);
    const matches = await this.table.searchVectors(queryVector, limit, filtersToSql(filters));
    const out: SemanticMatch[] = [];
    for (const match of matches) {
      const chunk = this.chunk(match.chunkId);
      if (!chunk || chunk.embeddingModel === null) continue;
      if (predicate && !predicate(chunk)) continue;
      out.push({ chunk, similarity: match.similarity });
    }
    return out;
  }

  /** Brings the ANN index up to date with every vector written so far (after pending writes). */
  optimize(): Promise<void> {
    return this.writes.run(() => this.table.optimize(this.vectorCount));
  }

  /** Waits for pending writes and background index jobs. */
  async settle(): Promise<void> {
    await this.writes.idle();
    await this.table.settle();
  }

  close(): void {
    this.table.close();
  }

  private slotPredicate(predicate: ChunkPredicate): (slot: number) => boolean {
    return (slot) => {
      const chunk = this.records[slot];
      return chunk !== undefined && predicate(chunk);
    };
  }

  private putInMemory(chunk: StoredChunk, analysed?: Pick<AnalysedChunk, 'body' | 'context'>): void {
    const slot = this.bm25.add(
      analysed?.body ?? analyze(chunk.text),
      analysed?.context ?? analyze(chunk.contextPrefix),
    );
    this.records[slot] = chunk;
    this.slotById.set(chunk.chunkId, slot);
    let chunkIds = this.chunksByDocument.get(chunk.documentId);
    if (!chunkIds) {
      chunkIds = new Set();
      this.chunksByDocument.set(chunk.documentId, chunkIds);
    }
    chunkIds.add(chunk.chunkId);
    if (chunk.embeddingModel !== null) this.vectorCount++;
  }

  private removeFromMemory(chunkId: string, analysed?: AnalysedChunk): void {
    const slot = this.slotById.get(chunkId);
    if (slot === undefined) return;
    const chunk = this.records[slot];
    this.slotById.delete(chunkId);
    this.records[slot] = undefined;
    if (!chunk) return;
    // precomputed terms only when they were computed from this very record
    const terms =
      analysed?.chunk === chunk ? analysed : { body: analyze(chunk.text), context: analyze(chunk.contextPrefix) };
    this.bm25.remove(slot, terms.body, terms.context);
    const chunkIds = this.chunksByDocument.get(chunk.documentId);
    chunkIds?.delete(chunkId);
    if (chunkIds?.size === 0) this.chunksByDocument.delete(chunk.documentId);
    if (chunk.embeddingModel !== null) this.vectorCount--;
  }

  /** After the vector column was replaced (new dimension): no chunk has a vector any more. */
  private forgetAllVectors(): void {
    this.records = this.records.map((record) => (record ? { ...record, embeddingModel: null } : record));
    this.vectorCount = 0;
  }

  private afterWrite(): void {
    const dead = this.bm25.deadSlots;
    if (dead >= COMPACT_MIN_DEAD && dead > this.bm25.slots * COMPACT_DEAD_RATIO) this.compact();
    this.table.maintainAnnIndex(this.vectorCount);
  }

  /** Reclaims tombstoned BM25 slots and renumbers the per-slot records in the same synchronous step. */
  private compact(): void {
    const remap = this.bm25.compact();
    const records: (StoredChunk | undefined)[] = [];
    for (let slot = 0; slot < remap.length; slot++) {
      const target = remap[slot] ?? -1;
      const record = this.records[slot];
      if (target < 0 || !record) continue;
      records[target] = record;
      this.slotById.set(record.chunkId, target);
    }
    this.records = records;
  }

  /** Parameters of this partition's BM25 index (for diagnostics). */
  get bm25Params(): Bm25Params {
    return this.params;
  }
}
