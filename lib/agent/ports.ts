import type { LanguageModel } from 'ai';
import type { DocumentMetadata } from '@/lib/domain/document';
import type { BucketMetaSchema, MetaFilter, TypedMeta } from '@/lib/domain/typed-meta';

/**
 * The agent's outside world, as interfaces. lib/db/catalog.ts implements the catalog over Prisma; the chunk index
 * comes from lib/retrieval; models and the embedder from lib/llm. Every method takes the owner id, which the
 * agent takes from its caller and never from a model.
 */

/** One of the owner's documents as the catalog describes it: its metadata plus file and bucket facts. */
export interface CatalogDocument extends DocumentMetadata {
  documentId: string;
  filename: string;
  mime: string;
  bucketId: string | null;
  bucketName: string | null;
  pageCount: number | null;
  chunkCount: number | null;
  sha256: string;
  /** Typed values for the bucket's schema fields, with the evidence each came from (empty when none). */
  typed?: TypedMeta;
}

export interface DocumentNameMatch {
  documentId: string;
  filename: string;
  title: string | null;
}

/** A document and the ids of its first chunks (its opening: title page, abstract, introduction). */
export interface DocumentOpening extends DocumentNameMatch {
  /** Ids of the document's first chunks, in order. */
  chunkIds: string[];
}

export interface BucketRef {
  id: string;
  name: string;
  /** The typed fields the bucket declares (absent or empty when none). */
  metaSchema?: BucketMetaSchema;
}

export interface DocumentCatalog {
  /** Number of the owner's documents with status INDEXED. */
  countIndexedDocuments(ownerId: string): Promise<number>;
  /** The subset of `documentIds` that are the owner's INDEXED documents (others answer as absent). */
  filterIndexed(ownerId: string, documentIds: string[]): Promise<Set<string>>;
  /** One of the owner's documents, or null (also for another owner's id). */
  getDocument(ownerId: string, documentId: string): Promise<CatalogDocument | null>;
  /** The owner's INDEXED documents whose filename or title contains `nameLike` (case-insensitive), best first. */
  findDocumentsByName(ownerId: string, nameLike: string, limit: number): Promise<DocumentNameMatch[]>;
  /**
   * The owner's INDEXED documents (only `documentIds` / only those in `bucketIds`, when given), newest first, at
   * most `limit`, each with the ids of its first `chunks` chunks; `total` counts every document that qualified.
   */
  documentOpenings(
    ownerId: string,
    scope: { documentIds?: string[]; bucketIds?: string[]; limit: number; chunks: number },
  ): Promise<{ documents: DocumentOpening[]; total: number }>;
  listBuckets(ownerId: string): Promise<BucketRef[]>;
  /**
   * The owner's INDEXED documents (in `bucketIds` when given) whose typed values pass every filter: for what ranks
   * documents outside the chunk index (section summaries); chunk searches get typed filters pushed down instead.
   */
  findDocumentIdsByMeta(ownerId: string, bucketIds: string[] | undefined, filters: MetaFilter[]): Promise<string[]>;
}

/** Embeds a search query; absent (null) when no embedding model answers, which disables semantic search. */
export interface QueryEmbedder {
  model: string;
  embedQuery(text: string, signal?: AbortSignal): Promise<number[]>;
}

/** Models by role. A null decision model means extractive mode (no LLM at all). */
export interface AgentModels {
  decision: LanguageModel | null;
  /** Streams the answer; when null the decision model writes it. */
  synthesis: LanguageModel | null;
  names: { decision: string | null; synthesis: string | null; embedding: string | null };
}
