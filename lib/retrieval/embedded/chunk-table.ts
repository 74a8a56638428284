import type { Connection, Table } from '@lancedb/lancedb';
import { Index, type IvfPqOptions, makeArrowTable } from '@lancedb/lancedb';
import type { Table as ArrowTable, RecordBatch } from 'apache-arrow';
import { yieldToEventLoop } from '@/lib/event-loop';
import { sqlString } from '@/lib/retrieval/embedded/filter-sql';
import {
  attributesToSql,
  CHUNK_SCHEMA,
  type ChunkRow,
  LANGUAGE_COLUMN,
  META_JSON_COLUMN,
  STORED_COLUMNS,
  VECTOR_COLUMN,
  vectorFromCell,
} from '@/lib/retrieval/embedded/lance-rows';
import { isMetaColumn, META_COLUMN_ARROW, metaColumnKind } from '@/lib/retrieval/embedded/meta-columns';
import type { ChunkDocumentAttributes } from '@/lib/retrieval/types';

/** Vector rows above which an owner gets an ANN (IVF-PQ) index, built in the background. */
export const ANN_MIN_ROWS = 10_000;
/** Rows written since the last index build after which the index is refreshed (new rows are searched exactly). */
const ANN_REFRESH_ROWS = 20_000;
const ANN_RETRY_MS = 60_000;
/**
 * Table commits after which the table is compacted and versions older than a minute are removed, whatever the
 * vectors. Every LanceDB commit adds a fragment and a manifest listing all fragments: never compacted, a
 * keyword-only owner's table grew by O(commits) per commit. Measured with 2,000 appends of 100 rows
 * (`docs/benchmarks-ingest.md`): version manifests 165 MB beside 16 MB of data, CPU per append 3.6 → 8 ms; with
 * a compaction every 200 commits, 6 MB in all and a flat cost per append. LanceDB advises optimizing after more than
 * 20 modifications; each compaction rewrites the table's small fragments, so it is not run more often than this.
 */
const COMPACT_EVERY_COMMITS = 200;
const VECTOR_INDEX_NAME = `${VECTOR_COLUMN}_idx`;
/**
 * Rows converted to Arrow per event-loop turn. LanceDB converts plain rows to Arrow synchronously, ~60 µs a row:
 * a 12k-row write held the loop for ~0.7 s. The rows are converted here in slices (~8 ms each) and handed over as one table.
 */
const ARROW_SLICE_ROWS = 128;

/**
 * Query-time ANN setting: IVF partitions probed, and how many PQ candidates are re-ranked on the full vectors
 * (LanceDB's refine factor = candidates / limit, at least 4). Chosen from the recall curve of `npm run bench:ann`
 * (docs/benchmarks-retrieval.md): 400 candidates for a top 10 (refine factor 40) was exact on both distributions;
 * recall is set by the candidates, not by nprobes. A fixed budget keeps a hybrid search's 50-100 candidates per
 * mode from re-ranking 2,000-4,000 full vectors.
 */
export const ANN_SEARCH = { nprobes: 24, refineCandidates: 400, minRefineFactor: 4 } as const;

/** LanceDB refine factor for a vector search returning `limit` rows. */
export function annRefineFactor(limit: number): number {
  return Math.max(ANN_SEARCH.minRefineFactor, Math.ceil(ANN_SEARCH.refineCandidates / Math.max(1, limit)));
}

/** The IVF-PQ index an owner with `rows` vectors of `dims` dimensions gets (cosine). */
export function annIndexOptions(dims: number, rows: number): Partial<IvfPqOptions> {
  return {
    distanceType: 'cosine',
    numPartitions: Math.min(1_024, Math.max(16, Math.round(Math.sqrt(rows)))),
    numSubVectors: dims % 16 === 0 ? dims / 16 : dims % 8 === 0 ? dims / 8 : 1,
    // k-means cost grows with sample (sampleRate x partitions) x partitions: keep the training bounded.
    sampleRate: 128,
    maxIterations: 15,
  };
}

export interface VectorMatch {
  chunkId: string;
  /** Cosine similarity in [-1, 1]. */
  similarity: number;
}

/**
 * Adds nullable columns (all NULL) to a table: the language and typed-values JSON columns of a table created before
 * them, or a typed-value column the first time a value of its field and kind is written. Another process may add
 * them at the same moment: a failure is fine when the columns are there afterwards.
 */
async function addNullColumns(table: Table, columns: { name: string; arrowType: string }[]): Promise<void> {
  if (columns.length === 0) return;
  try {
    await table.addColumns(columns.map((c) => ({ name: c.name, valueSql: `arrow_cast(NULL, '${c.arrowType}')` })));
  } catch (error) {
    await table.checkoutLatest().catch(() => undefined);
    const names = new Set((await table.schema()).fields.map((field) => field.name));
    const missing = columns.filter((c) => !names.has(c.name));
    if (missing.length === columns.length) throw error;
    // Some were added by the other writer: add the rest.
    await addNullColumns(table, missing);
  }
}

/**
 * One owner's LanceDB table: the durable copy of its chunks (text, location, attributes, vector).
 * The table is created on the first write; the vector column on the first vector (its dimension fixed then).
 */
export class ChunkTable {
  private table: Table | null;
  private vectorDims: number | null;
  private annBuilding: Promise<void> | null = null;
  private annReady = false;
  private rowsSinceIndex = 0;
  /** Commits since the last compaction (see COMPACT_EVERY_COMMITS). */
  private commitsSinceCompaction = 0;
  /** Vector rows when the current index was trained (on open: the rows it covers; 0 = unknown). */
  private rowsAtBuild = 0;
  private lastAnnFailure = 0;
  /** The typed-value columns the table has (meta-columns.ts), and those of them with a scalar index. */
  private readonly typedColumns = new Set<string>();
  private readonly indexedTypedColumns = new Set<string>();

  private constructor(
    private readonly db: Connection,
    readonly name: string,
    table: Table | null,
    vectorDims: number | null,
    private readonly deferAnnIndex: boolean,
  ) {
    this.table = table;
    this.vectorDims = vectorDims;
  }

  /**
   * Opens the owner's table if it exists (without creating it). `deferAnnIndex` (bulk loads): no ANN build or
   * refresh in the background while writing; `optimize()` builds the index once at the end.
   */
  static async open(db: Connection, name: string, options: { deferAnnIndex?: boolean } = {}): Promise<ChunkTable> {
    const defer = options.deferAnnIndex ?? false;
    const names = await db.tableNames();
    if (!names.includes(name)) return new ChunkTable(db, name, null, null, defer);
    const table = await db.openTable(name);
    let schema = await table.schema();
    const missing = [LANGUAGE_COLUMN, META_JSON_COLUMN].filter(
      (name) => !schema.fields.some((field) => field.name === name),
    );
    if (missing.length > 0) {
      await addNullColumns(
        table,
        missing.map((name) => ({ name, arrowType: 'Utf8' })),
      );
      schema = await table.schema();
    }
    const vectorField = schema.fields.find((field) => field.name === VECTOR_COLUMN);
    const listSize: unknown = vectorField ? Reflect.get(vectorField.type, 'listSize') : undefined;
    const dims = typeof listSize === 'number' ? listSize : null;
    const chunkTable = new ChunkTable(db, name, table, dims, defer);
    for (const field of schema.fields) if (isMetaColumn(field.name)) chunkTable.typedColumns.add(field.name);
    const indices = await table.listIndices();
    for (const index of indices) {
      for (const column of index.columns) if (isMetaColumn(column)) chunkTable.indexedTypedColumns.add(column);
    }
    const vectorIndex = indices.find((index) => index.columns.includes(VECTOR_COLUMN));
    chunkTable.annReady = vectorIndex !== undefined;
    if (vectorIndex) {
      // The training size is not stored; the rows the index covers now stand for it, so an owner that doubles
      // after a restart is still retrained (before, a reopened owner only ever had new rows added to old partitions).
      const stats = await table.indexStats(vectorIndex.name).catch(() => undefined);
      chunkTable.rowsAtBuild = stats?.numIndexedRows ?? 0;
    }
    // Commits of earlier processes since the last compaction: each left a fragment.
    chunkTable.commitsSinceCompaction = await table
      .stats()
      .then((stats) => stats.fragmentStats.numSmallFragments)
      .catch(() => 0);
    return chunkTable;
  }

  /** Dimension of the stored vectors, null before the first vector. */
  get dimensions(): number | null {
    return this.vectorDims;
  }

  get exists(): boolean {
    return this.table !== null;
  }

  /** The typed-value columns the table has: what a typed filter can read (a missing one means "no value"). */
  get metaColumns(): ReadonlySet<string> {
    return this.typedColumns;
  }

  /** Adds the typed-value columns (meta-columns.ts) the table lacks, all NULL on existing rows. */
  async ensureMetaColumns(names: Iterable<string>): Promise<void> {
    const missing = [...new Set(names)].filter((name) => !this.typedColumns.has(name));
    if (missing.length === 0) return;
    const table = await this.ensureTable();
    await addNullColumns(
      table,
      missing.map((name) => ({ name, arrowType: META_COLUMN_ARROW[metaColumnKind(name)] })),
    );
    for (const name of missing) this.typedColumns.add(name);
  }

  /** Streams the stored chunks (all columns but the vector), batch by batch. */
  async *scanRows(): AsyncGenerator<ChunkRow[]> {
    if (!this.table) return;
    const query = this.table.query().select(STORED_COLUMNS);
    for await (const batch of query as AsyncIterable<RecordBatch>) {
      // Column by column: row proxies (batch rows' toJSON) cost ~100 µs a row.
      const rows: ChunkRow[] = Array.from({ length: batch.numRows }, () => ({}));
      for (const name of STORED_COLUMNS) {
        const column = batch.getChild(name);
        if (!column) continue;
        let i = 0;
        for (const value of column) {
          const row = rows[i++];
          if (row) row[name] = value;
        }
      }
      yield rows;
    }
  }

  /** Stored rows (no vector) matching a SQL condition. */
  async rowsWhere(where: string): Promise<ChunkRow[]> {
    if (!this.table) return [];
    const rows: ChunkRow[] = [];
    for await (const batch of this.table.query().where(where).select(STORED_COLUMNS) as AsyncIterable<RecordBatch>) {
      for (let i = 0; i < batch.numRows; i++) {
        const row: ChunkRow = {};
        for (const name of STORED_COLUMNS) row[name] = batch.getChild(name)?.get(i);
        rows.push(row);
      }
    }
    return rows;
  }

  /**
   * Makes sure the vector column exists with `dims` dimensions. A different dimension means the embedding model
   * changed: the old column is dropped (every stored vector is discarded) and true is returned.
   */
  async ensureVectorColumn(dims: number): Promise<boolean> {
    const table = await this.ensureTable();
    if (this.vectorDims === dims) return false;
    let reset = false;
    if (this.vectorDims !== null) {
      if (this.annReady) await table.dropIndex(VECTOR_INDEX_NAME).catch(() => undefined);
      await table.dropColumns([VECTOR_COLUMN]);
      await table.update({ values: { embeddingModel: null } });
      this.annReady = false;
      reset = true;
    }
    await table.addColumns([{ name: VECTOR_COLUMN, valueSql: `arrow_cast(NULL, 'FixedSizeList(${dims}, Float32)')` }]);
    this.vectorDims = dims;
    return reset;
  }

  /** Appends rows whose chunk ids are new. */
  async add(rows: ChunkRow[]): Promise<void> {
    if (rows.length === 0) return;
    const table = await this.ensureTable();
    await table.add(await toArrowSliced(table, rows));
    this.rowsSinceIndex += rows.length;
    this.commitsSinceCompaction++;
  }

  /** Inserts or overwrites rows by chunk id, atomically. */
  async upsert(rows: ChunkRow[]): Promise<void> {
    if (rows.length === 0) return;
    const table = await this.ensureTable();
    const data = await toArrowSliced(table, rows);
    await table.mergeInsert('chunkId').whenMatchedUpdateAll().whenNotMatchedInsertAll().execute(data);
    this.rowsSinceIndex += rows.length;
    this.commitsSinceCompaction++;
  }

  /** Sets vectors (and their model) on existing rows; unknown chunk ids are ignored. */
  async setVectors(updates: { chunkId: string; vector: number[] }[], model: string): Promise<void> {
    if (updates.length === 0 || !this.table) return;
    const rows = updates.map((update) => ({
      chunkId: update.chunkId,
      [VECTOR_COLUMN]: update.vector,
      embeddingModel: model,
    }));
    await this.table.mergeInsert('chunkId').whenMatchedUpdateAll().execute(rows);
    this.rowsSinceIndex += rows.length;
    this.commitsSinceCompaction++;
  }

  async deleteDocument(documentId: string): Promise<void> {
    if (!this.table) return;
    await this.table.delete(`documentId = ${sqlString(documentId)}`);
    this.commitsSinceCompaction++;
  }

  async updateDocumentAttributes(documentId: string, attributes: ChunkDocumentAttributes): Promise<void> {
    if (!this.table) return;
    await this.table.update({
      where: `documentId = ${sqlString(documentId)}`,
      valuesSql: attributesToSql(attributes, sqlString, this.typedColumns),
    });
    this.commitsSinceCompaction++;
  }

  /** Stored vectors of the given chunk ids (ids without a vector are absent from the map). */
  async fetchVectors(chunkIds: string[]): Promise<Map<string, number[]>> {
    const vectors = new Map<string, number[]>();
    if (!this.table || this.vectorDims === null || chunkIds.length === 0) return vectors;
    const rows = await this.table
      .query()
      .where(`chunkId IN (${chunkIds.map(sqlString).join(', ')}) AND ${VECTOR_COLUMN} IS NOT NULL`)
      .select(['chunkId', VECTOR_COLUMN])
      .toArray();
    for (const row of rows as ChunkRow[]) {
      const vector = vectorFromCell(row[VECTOR_COLUMN]);
      if (vector) vectors.set(String(row.chunkId), vector);
    }
    return vectors;
  }

  /**
   * Nearest chunks by cosine similarity among rows passing `where` (pre-filtered, so the limit is not eaten by
   * rows the filter drops). Exact below ANN_MIN_ROWS; above it IVF-PQ with refinement on full vectors, plus an
   * exact scan of rows written since the last index build. A query of another dimension matches nothing.
   */
  async searchVectors(queryVector: number[], limit: number, where: string | null): Promise<VectorMatch[]> {
    if (!this.table || this.vectorDims === null || queryVector.length !== this.vectorDims || limit <= 0) return [];
    const table = this.table;
    const search = async (exact: boolean) => {
      let query = table
        .vectorSearch(queryVector)
        .column(VECTOR_COLUMN)
        .distanceType('cosine')
        .limit(limit)
        .select(['chunkId', '_distance']);
      if (exact) query = query.bypassVectorIndex();
      else if (this.annReady) query = query.nprobes(ANN_SEARCH.nprobes).refineFactor(annRefineFactor(limit));
      if (where) query = query.where(where);
      return (await query.toArray()) as ChunkRow[];
    };
    let rows = await search(false);
    // The ANN index pre-filters within the partitions it probes: a selective filter (a few documents, a rare typed
    // value) can leave it short of `limit` although more rows match. Few rows match then, so an exact search over
    // the filtered rows is cheap and finds them all.
    if (this.annReady && where && rows.length < limit) rows = await search(true);
    return rows.map((row) => ({ chunkId: String(row.chunkId), similarity: 1 - Number(row._distance) }));
  }

  /**
   * Starts (without awaiting) an ANN index build or refresh when the owner's vector rows warrant one.
   * Searches keep working meanwhile (exactly, or on the previous index plus an exact scan of new rows).
   */
  maintainAnnIndex(vectorRows: number): void {
    if (!this.table || this.vectorDims === null || this.annBuilding || this.deferAnnIndex) return;
    if (Date.now() - this.lastAnnFailure < ANN_RETRY_MS) return;
    const table = this.table;
    const dims = this.vectorDims;
    // Retrain when the owner has doubled since training (partitions sized for the old size get too big).
    const outgrown = this.annReady && this.rowsAtBuild > 0 && vectorRows >= 2 * this.rowsAtBuild;
    if ((!this.annReady && vectorRows >= ANN_MIN_ROWS) || outgrown) {
      this.annBuilding = this.buildAnnIndex(table, dims, vectorRows);
    } else if (this.annReady && this.rowsSinceIndex >= ANN_REFRESH_ROWS) {
      this.annBuilding = this.refreshAnnIndex(table);
    }
  }

  /**
   * Compacts the table and removes old versions once COMPACT_EVERY_COMMITS commits piled up (keyword-only owners
   * included; an owner with an ANN index is compacted by its refreshes too). Awaited by the write that crosses the
   * mark, under the owner's write lock, so no write of this or another process races the compaction's commit.
   */
  async compactIfDue(): Promise<void> {
    if (!this.table || this.annBuilding || this.commitsSinceCompaction < COMPACT_EVERY_COMMITS) return;
    if (Date.now() - this.lastAnnFailure < ANN_RETRY_MS) return;
    await this.refreshAnnIndex(this.table);
  }

  /** Waits for a running background index job, if any. */
  async settle(): Promise<void> {
    await this.annBuilding;
  }

  /**
   * Waits for background work, then builds or refreshes the ANN index now if the owner warrants one
   * (end of a bulk ingest: afterwards every vector row is covered by the index).
   */
  async optimize(vectorRows: number): Promise<void> {
    await this.settle();
    if (!this.table) return;
    if (this.vectorDims === null || vectorRows < ANN_MIN_ROWS) {
      if (this.commitsSinceCompaction > 0) await this.refreshAnnIndex(this.table);
      return;
    }
    const stale = !this.annReady || (this.rowsAtBuild > 0 && vectorRows >= 2 * this.rowsAtBuild);
    if (stale) await this.buildAnnIndex(this.table, this.vectorDims, vectorRows);
    else if (this.rowsSinceIndex > 0) await this.refreshAnnIndex(this.table);
  }

  close(): void {
    this.table?.close();
  }

  private async buildAnnIndex(table: Table, dims: number, vectorRows: number): Promise<void> {
    this.rowsSinceIndex = 0;
    this.rowsAtBuild = vectorRows;
    try {
      await table.createIndex(VECTOR_COLUMN, {
        config: Index.ivfPq(annIndexOptions(dims, vectorRows)),
        name: VECTOR_INDEX_NAME,
        replace: true,
      });
      this.annReady = true;
      // A large owner also gets key indexes, so get() and deleteDocument() stop scanning the table...
      await table.createIndex('chunkId', { config: Index.btree(), replace: true });
      await table.createIndex('documentId', { config: Index.btree(), replace: true });
      // ...and the columns filters pre-filter on, so a filtered vector search does not scan every row.
      await table.createIndex('bucketId', { config: Index.bitmap(), replace: true });
      await table.createIndex('mime', { config: Index.bitmap(), replace: true });
      await table.createIndex('documentDay', { config: Index.btree(), replace: true });
      // ...and the typed-value columns typed filters pre-filter on.
      await this.indexTypedColumns(table, true);
    } catch (error) {
      this.lastAnnFailure = Date.now();
      console.warn(`[chunk-index] ANN index build for ${this.name} failed; searches stay exact`, error);
    } finally {
      this.annBuilding = null;
    }
  }

  /** Scalar indexes on the typed-value columns (all of them, or those added since the last build). */
  private async indexTypedColumns(table: Table, all: boolean): Promise<void> {
    for (const column of this.typedColumns) {
      if (!all && this.indexedTypedColumns.has(column)) continue;
      const config = metaColumnKind(column) === 'bool' ? Index.bitmap() : Index.btree();
      await table.createIndex(column, { config, replace: true });
      this.indexedTypedColumns.add(column);
    }
  }

  /** LanceDB's optimize: compacts fragments, removes versions older than a minute, brings indexes up to date. */
  private async refreshAnnIndex(table: Table): Promise<void> {
    this.rowsSinceIndex = 0;
    this.commitsSinceCompaction = 0;
    try {
      await this.indexTypedColumns(table, false);
      await table.optimize({ cleanupOlderThan: new Date(Date.now() - 60_000) });
    } catch (error) {
      this.lastAnnFailure = Date.now();
      console.warn(`[chunk-index] optimize (compaction, ANN index refresh) of ${this.name} failed`, error);
    } finally {
      this.annBuilding = null;
    }
  }

  private async ensureTable(): Promise<Table> {
    if (this.table) return this.table;
    this.table = await this.db.createEmptyTable(this.name, CHUNK_SCHEMA, { existOk: true });
    return this.table;
  }
}

/**
 * The rows as one Arrow table of the table's schema, converted ARROW_SLICE_ROWS at a time between event-loop turns.
 * The slices are joined with the Arrow table's own concat: LanceDB loads apache-arrow as CommonJS, and its classes
 * are not the ones an ESM import of apache-arrow gives (a table built from the other copy's batches breaks).
 */
async function toArrowSliced(table: Table, rows: ChunkRow[]): Promise<ArrowTable> {
  const schema = await table.schema();
  const slices: ArrowTable[] = [];
  for (let start = 0; start < rows.length; start += ARROW_SLICE_ROWS) {
    if (start > 0) await yieldToEventLoop();
    slices.push(makeArrowTable(rows.slice(start, start + ARROW_SLICE_ROWS), { schema }));
  }
  const [first, ...rest] = slices as [ArrowTable, ...ArrowTable[]];
  return first.concat(...rest);
}
