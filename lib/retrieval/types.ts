import type { MetaFilter, MetaValue } from '@/lib/domain/typed-meta';

/**
 * The chunk index contract shared by every search backend (embedded store, Qdrant).
 * Every read takes an owner id; no method can search or fetch across owners.
 */

export type SearchMode = 'keyword' | 'semantic' | 'hybrid';

/** Where a chunk sits inside its document, so a citation can point at the exact words. */
export interface ChunkLocation {
  /** 1-based PDF page, or null for formats without pages. */
  page: number | null;
  /** Spreadsheet sheet name (XLSX/CSV), else null. */
  sheet: string | null;
  /** 1-based inclusive row range within the sheet (data rows, header excluded), else null. */
  rowStart: number | null;
  rowEnd: number | null;
  /** Heading path such as "Install > Linux", else null. */
  headingPath: string | null;
  /** Character offsets of the chunk text inside its page/sheet/section text. */
  charStart: number;
  charEnd: number;
}

/** Document attributes copied onto every chunk so filters run inside the engine. */
export interface ChunkDocumentAttributes {
  bucketId: string | null;
  mime: string;
  filename: string;
  title: string | null;
  /** ISO date (YYYY-MM-DD) of the document, from its metadata, else null. */
  documentDate: string | null;
  tags: string[];
  /** User metadata fields (free key/value pairs), values as strings. */
  fields: Record<string, string>;
  /**
   * The document's typed values (lib/domain/typed-meta.ts), what typed filters run on inside the engine. Absent or
   * empty: the document has none (chunks written before typed values were copied into the index read as none).
   */
  meta?: Record<string, MetaValue>;
}

export interface IndexedChunk extends ChunkLocation, ChunkDocumentAttributes {
  chunkId: string;
  documentId: string;
  ownerId: string;
  /** 0-based position of the chunk within its document. */
  index: number;
  text: string;
  /** Short contextual prefix (document title and heading path) indexed with the text, not shown as the chunk. */
  contextPrefix: string;
  tokenCount: number;
  /** Dense vector, or null when no embedder was reachable at index time (back-filled later). */
  vector: number[] | null;
  /** Name of the embedding model the vector came from, null without a vector. */
  embeddingModel: string | null;
  /**
   * Language of the text (ISO 639-1, or 'und' when the detector was unsure), detected per chunk at ingest; it
   * picks the stemmer and stop words the keyword index uses. Absent: detected from the text when indexed.
   */
  language?: string;
}

/** One typed filter object, translated by each engine into its own filter language. */
export interface SearchFilters {
  bucketIds?: string[];
  documentIds?: string[];
  mimeTypes?: string[];
  /** Inclusive ISO date bounds on the document date. */
  dateFrom?: string;
  dateTo?: string;
  /** Every listed tag must be present. */
  tags?: string[];
  /** Every listed field must equal the given value. */
  fields?: Record<string, string>;
  /**
   * Checked typed filters (checkMetaFilters), all of which must pass on the chunk's typed values, with the
   * semantics of matchesMetaFilters (a missing value never passes). Pushed down into each engine.
   */
  meta?: MetaFilter[];
}

export interface SearchRequest {
  ownerId: string;
  query: string;
  mode: SearchMode;
  topK: number;
  filters?: SearchFilters;
  /** Required for semantic and hybrid modes; hybrid without it degrades to keyword. */
  queryVector?: number[] | null;
  /** Candidates fetched per mode before fusion (default 50, max 100). */
  candidates?: number;
  /** Include the full chunk text in each hit. */
  includeText?: boolean;
}

export interface SearchHit extends ChunkLocation {
  chunkId: string;
  documentId: string;
  index: number;
  filename: string;
  title: string | null;
  /** Short excerpt around the best-matching terms. */
  snippet: string;
  /** Full chunk text, only when includeText was set. */
  text?: string;
  /** The score the hits are ordered by. */
  score: number;
  /** Score from each mode that contributed (BM25, cosine similarity, RRF). */
  scores: { keyword?: number; semantic?: number; hybrid?: number };
}

export interface ChunkVectorUpdate {
  chunkId: string;
  vector: number[];
}

export interface ChunkIndexHealth {
  ok: boolean;
  engine: string;
  detail: string;
}

export interface ChunkIndex {
  readonly engine: string;
  /** Insert or overwrite chunks (idempotent by chunkId). */
  upsert(chunks: IndexedChunk[]): Promise<void>;
  /** Remove every chunk of a document. */
  deleteDocument(ownerId: string, documentId: string): Promise<void>;
  search(request: SearchRequest): Promise<SearchHit[]>;
  /** Chunks by id, only those belonging to ownerId (others answer as missing), in the order asked. */
  get(ownerId: string, chunkIds: string[]): Promise<IndexedChunk[]>;
  /** Attach vectors to chunks indexed without one. */
  setVectors(ownerId: string, model: string, updates: ChunkVectorUpdate[]): Promise<void>;
  /** Replace a document's attributes on all its chunks (bucket move, metadata edit). */
  updateDocumentAttributes(ownerId: string, documentId: string, attributes: ChunkDocumentAttributes): Promise<void>;
  countChunks(ownerId: string): Promise<number>;
  health(): Promise<ChunkIndexHealth>;
  /**
   * Whether the owner's keyword analyses are being rebuilt in the background after an analyser upgrade
   * (ANALYZER_VERSION). Searches are answered meanwhile: exact for text without the scripts the upgrade changed,
   * possibly incomplete for queries in those scripts (Chinese, Japanese, Thai, Lao, Khmer, Burmese).
   */
  keywordIndexState?(ownerId: string): Promise<KeywordIndexState>;
  close(): Promise<void>;
}

export interface KeywordIndexState {
  rebuilding: boolean;
  /** Chunks re-analysed so far in this rebuild (when known). */
  done?: number;
}
