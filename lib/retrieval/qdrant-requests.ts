import { createHash } from 'node:crypto';
import type { Schemas } from '@qdrant/js-client-rest';
import { v5 as uuidv5 } from 'uuid';
import { isIsoDay, type MetaFilter, type MetaValue, metaFilterSchema } from '@/lib/domain/typed-meta';
import { AppError } from '@/lib/errors';
import { querySparseVector } from '@/lib/retrieval/sparse-bm25';
import type { SearchFilters, SearchMode, SearchRequest } from '@/lib/retrieval/types';

/**
 * Pure request builders for the Qdrant chunk index: collection layout, payload indexes, filters, queries.
 * Nothing here talks to a server, so every request shape is unit-tested against the client's own types.
 */

export const DENSE_VECTOR = 'dense';
export const SPARSE_VECTOR = 'bm25';

/** Fixed namespace for chunk point ids (uuid v5 of the chunk id), so re-ingesting a chunk overwrites its point. */
export const CHUNK_POINT_NAMESPACE = '6f1f3c3e-5d8a-5b6e-9d0c-2f7f4c1a8e21';

export const DEFAULT_CANDIDATES = 50;
export const MAX_CANDIDATES = 100;
/** Strict mode rejects any `limit` above this. */
export const MAX_QUERY_LIMIT = 1000;

type Filter = Schemas['Filter'];
type FieldCondition = Schemas['FieldCondition'];
type Condition = Schemas['Condition'];

/** The Qdrant point id of a chunk: uuid v5 of its chunk id (deterministic, so upserts overwrite). */
export function chunkPointId(chunkId: string): string {
  return uuidv5(chunkId, CHUNK_POINT_NAMESPACE);
}

/**
 * Collection name for an embedding model: `<prefix>_<model>` lower-cased, with every character outside
 * [a-z0-9_-] replaced by `_`. When that replacement changed the name, 8 hex characters of the model name's
 * sha256 are appended so that `a:b` and `a/b` do not share a collection.
 */
export function collectionNameFor(prefix: string, embeddingModel: string): string {
  const model = embeddingModel.trim().toLowerCase();
  if (model.length === 0) throw new Error('embeddingModel must not be empty');
  const cleanPrefix = prefix
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9_-]+/g, '_');
  const cleanModel = model.replace(/[^a-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '');
  const suffix =
    cleanModel === model ? '' : `_${createHash('sha256').update(embeddingModel).digest('hex').slice(0, 8)}`;
  const name = `${cleanPrefix ? `${cleanPrefix}_` : ''}${cleanModel || 'model'}${suffix}`;
  return name.slice(0, 200);
}

export interface QdrantClusterLayout {
  /** Shards of the collection (auto sharding). Default: Qdrant's (1 standalone, node count in a cluster). */
  shardNumber?: number;
  /** Copies of each shard (cluster only). */
  replicationFactor?: number;
  /** Replicas that must acknowledge a write before it succeeds (cluster only). */
  writeConsistencyFactor?: number;
}

/**
 * The collection: named dense vector `dense` (cosine), sparse vector `bm25` with the IDF modifier, strict mode
 * (a filter on an unindexed field fails instead of scanning), and HNSW built per tenant (`m: 0`,
 * `payload_m: 16`) because every query filters by owner.
 */
export function createCollectionRequest(
  dimensions: number,
  layout: QdrantClusterLayout = {},
): Schemas['CreateCollection'] {
  if (!Number.isInteger(dimensions) || dimensions <= 0)
    throw new Error(`dimensions must be a positive integer, got ${dimensions}`);
  const request: Schemas['CreateCollection'] = {
    vectors: { [DENSE_VECTOR]: { size: dimensions, distance: 'Cosine' } },
    sparse_vectors: { [SPARSE_VECTOR]: { modifier: 'idf' } },
    hnsw_config: { m: 0, payload_m: 16 },
    strict_mode_config: {
      enabled: true,
      unindexed_filtering_retrieve: false,
      unindexed_filtering_update: false,
      max_query_limit: MAX_QUERY_LIMIT,
    },
  };
  if (layout.shardNumber !== undefined) request.shard_number = layout.shardNumber;
  if (layout.replicationFactor !== undefined) request.replication_factor = layout.replicationFactor;
  if (layout.writeConsistencyFactor !== undefined) request.write_consistency_factor = layout.writeConsistencyFactor;
  return request;
}

/** Payload indexes, created right after the collection and before any data. */
export const PAYLOAD_INDEXES: ReadonlyArray<Schemas['CreateFieldIndex'] & { field_name: string }> = [
  { field_name: 'ownerId', field_schema: { type: 'keyword', is_tenant: true } },
  { field_name: 'documentId', field_schema: { type: 'keyword' } },
  { field_name: 'bucketId', field_schema: { type: 'keyword' } },
  { field_name: 'mime', field_schema: { type: 'keyword' } },
  { field_name: 'documentDate', field_schema: { type: 'datetime' } },
  { field_name: 'tags', field_schema: { type: 'keyword' } },
  { field_name: 'fieldPairs', field_schema: { type: 'keyword' } },
  // The analyser version of the point's sparse vector: points of another version are re-analysed at start-up.
  { field_name: 'analyzer', field_schema: { type: 'integer' } },
];

/**
 * Typed values in the payload: `meta.<field>.<kind>`, one key per kind of value, so a field declared `number` in
 * one bucket and `string` in another never shares a payload index: `num` (float index) for numbers, `bool` (bool)
 * for booleans, `str` (keyword) for strings, and `day` (datetime, midnight UTC) for strings that are calendar days.
 * Field names are identifiers (no dots), so the key path is unambiguous.
 */
export const META_PAYLOAD_KINDS = {
  num: 'float',
  bool: 'bool',
  str: 'keyword',
  day: 'datetime',
} as const satisfies Record<string, Schemas['PayloadSchemaType']>;
export type MetaPayloadKind = keyof typeof META_PAYLOAD_KINDS;

export function metaPayloadKey(field: string, kind: MetaPayloadKind): string {
  return `meta.${field}.${kind}`;
}

/** A document's typed values as the `meta` payload object (see META_PAYLOAD_KINDS). */
export function metaPayload(values: Record<string, MetaValue>): Record<string, Record<string, MetaValue>> {
  const out: Record<string, Record<string, MetaValue>> = {};
  for (const [field, value] of Object.entries(values)) {
    if (typeof value === 'number') out[field] = { num: value };
    else if (typeof value === 'boolean') out[field] = { bool: value };
    else out[field] = isIsoDay(value) ? { str: value, day: toQdrantDatetime(value) } : { str: value };
  }
  return out;
}

/** The payload index (key and schema) each typed value of a payload needs before it can be filtered on. */
export function metaPayloadIndexes(
  values: Record<string, MetaValue>,
): { key: string; schema: Schemas['PayloadSchemaType'] }[] {
  return Object.entries(metaPayload(values)).flatMap(([field, kinds]) =>
    Object.keys(kinds).map((kind) => ({
      key: metaPayloadKey(field, kind as MetaPayloadKind),
      schema: META_PAYLOAD_KINDS[kind as MetaPayloadKind],
    })),
  );
}

const FILTER_KIND: Record<MetaFilter['type'], MetaPayloadKind> = {
  number: 'num',
  boolean: 'bool',
  date: 'day',
  string: 'str',
  enum: 'str',
};

/** The payload key (and its index schema) a typed filter reads. */
export function metaFilterKey(filter: MetaFilter): { key: string; schema: Schemas['PayloadSchemaType'] } {
  const kind = FILTER_KIND[filter.type];
  return { key: metaPayloadKey(filter.field, kind), schema: META_PAYLOAD_KINDS[kind] };
}

/**
 * One typed filter as a Qdrant condition with the semantics of matchesMetaFilters: a point without the value never
 * passes. Numbers and days are ranges (Qdrant's `match` takes no floats): `=` is [v, v], `!=` is below or above
 * v, `in` any of those; strings and booleans are `match`; a string `!=` also requires the key to be non-empty, so
 * the result does not hang on whether `except` matches a missing key.
 */
export function metaCondition(filter: MetaFilter): Condition {
  const checked = metaFilterSchema.safeParse(filter);
  if (!checked.success) throw new AppError('bad_request:index', `Bad typed filter on "${String(filter.field)}"`);
  const { key } = metaFilterKey(filter);
  const [first, second] = filter.values as [MetaValue, MetaValue?];
  if (filter.type === 'number' || filter.type === 'date') {
    const bound = (v: MetaValue) => (filter.type === 'date' ? toQdrantDatetime(String(v)) : Number(v));
    const range = (r: Record<string, number | string>): FieldCondition => ({ key, range: r }) as FieldCondition;
    switch (filter.op) {
      case '=':
        return range({ gte: bound(first), lte: bound(first) });
      case '!=':
        return { should: [range({ lt: bound(first) }), range({ gt: bound(first) })] };
      case '<':
        return range({ lt: bound(first) });
      case '<=':
        return range({ lte: bound(first) });
      case '>':
        return range({ gt: bound(first) });
      case '>=':
        return range({ gte: bound(first) });
      case 'in':
        return { should: filter.values.map((v) => range({ gte: bound(v), lte: bound(v) })) };
      case 'between':
        return range({ gte: bound(first), lte: bound(second ?? first) });
    }
  }
  if (filter.type === 'boolean') {
    switch (filter.op) {
      case '=':
        return { key, match: { value: first as boolean } };
      case '!=':
        return { key, match: { value: !first } };
      default:
        return { should: [...new Set(filter.values)].map((v) => ({ key, match: { value: v as boolean } })) };
    }
  }
  const strings = filter.values.map(String);
  switch (filter.op) {
    case '=':
      return { key, match: { value: String(first) } };
    case '!=':
      return { must: [{ key, match: { except: [String(first)] } }], must_not: [{ is_empty: { key } }] };
    default:
      return { key, match: { any: [...new Set(strings)] } };
  }
}

/**
 * One user field as an indexed keyword: `key=value`. `%` and `=` in the key are percent-encoded so the first
 * `=` always separates key from value (`a=b` + `c` and `a` + `b=c` stay distinct).
 */
export function fieldPair(key: string, value: string): string {
  return `${key.replaceAll('%', '%25').replaceAll('=', '%3D')}=${value}`;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A document date as the RFC 3339 instant Qdrant's datetime index stores: `YYYY-MM-DD` becomes midnight UTC,
 * a full timestamp is normalised to UTC. Throws a bad_request AppError for anything unparsable.
 */
export function toQdrantDatetime(value: string): string {
  const trimmed = value.trim();
  const candidate = DATE_ONLY.test(trimmed) ? `${trimmed}T00:00:00Z` : trimmed;
  const time = Date.parse(candidate);
  if (Number.isNaN(time)) throw new AppError('bad_request:index', `Not a date: ${JSON.stringify(value)}`);
  const iso = new Date(time).toISOString();
  if (DATE_ONLY.test(trimmed) && iso.slice(0, 10) !== trimmed) {
    throw new AppError('bad_request:index', `Not a date: ${JSON.stringify(value)}`);
  }
  return iso.replace('.000Z', 'Z');
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * Translates the typed search filters into a Qdrant filter. The owner condition is always the first `must`
 * clause. Buckets, documents and MIME types match any of their values, and an empty list matches nothing
 * (expressed as `must_not` the owner, since Qdrant rejects an empty `any`). Tags and user fields are all-of:
 * one `must` clause per tag / field, so an empty list adds nothing. Dates are inclusive document-date bounds.
 * Typed filters are one `must` clause each (metaCondition), on the `meta.<field>.<kind>` payload indexes.
 */
export function toQdrantFilter(
  ownerId: string,
  filters: SearchFilters = {},
): Filter & { must: Condition[]; must_not?: FieldCondition[] } {
  if (ownerId.length === 0) throw new AppError('bad_request:index', 'ownerId is required');
  const owner: FieldCondition = { key: 'ownerId', match: { value: ownerId } };
  const must: Condition[] = [owner];
  let matchNothing = false;
  const anyOf = (key: string, values: readonly string[] | undefined) => {
    if (values === undefined) return;
    if (values.length === 0) matchNothing = true;
    else must.push({ key, match: { any: unique(values) } });
  };
  anyOf('bucketId', filters.bucketIds);
  anyOf('documentId', filters.documentIds);
  anyOf('mime', filters.mimeTypes);
  if (filters.dateFrom !== undefined || filters.dateTo !== undefined) {
    const range: Schemas['DatetimeRange'] = {};
    if (filters.dateFrom !== undefined) range.gte = toQdrantDatetime(filters.dateFrom);
    if (filters.dateTo !== undefined) range.lte = toQdrantDatetime(filters.dateTo);
    must.push({ key: 'documentDate', range });
  }
  for (const tag of unique(filters.tags ?? [])) must.push({ key: 'tags', match: { value: tag } });
  for (const [key, value] of Object.entries(filters.fields ?? {})) {
    must.push({ key: 'fieldPairs', match: { value: fieldPair(key, value) } });
  }
  for (const filter of filters.meta ?? []) must.push(metaCondition(filter));
  return matchNothing ? { must, must_not: [{ ...owner }] } : { must };
}

/** The owner + document condition used by delete and payload updates. */
export function documentFilter(ownerId: string, documentId: string): Filter {
  return toQdrantFilter(ownerId, { documentIds: [documentId] });
}

/** A single-mode search: one Query API request whose scores are the mode's own (BM25 or cosine). */
export interface SingleQueryPlan {
  kind: 'single';
  scoreKind: 'keyword' | 'semantic';
  body: Schemas['QueryRequest'];
}

/**
 * A hybrid search: a dense and a sparse search, sent together in one `query/batch` request, each with the
 * owner filter and `candidates` results, then fused client-side by reciprocal rank (lib/retrieval/fusion.ts).
 * Not Qdrant's server-side `prefetch` + `{ fusion: 'rrf' }`: a fused response carries only the fused score,
 * while hits must report each mode's score, and the shared fusion keeps rank scores and tie-breaking identical
 * to the embedded engine. The sparse search is left out when the query has no indexable term.
 */
export interface HybridQueryPlan {
  kind: 'hybrid';
  topK: number;
  dense: Schemas['QueryRequest'];
  sparse: Schemas['QueryRequest'] | null;
}

export type QueryPlan = SingleQueryPlan | HybridQueryPlan;

export interface QueryBuildOptions {
  dimensions: number;
  /**
   * Compute IDF over the owner's chunks only (Qdrant >= 1.19), the default, so one tenant's documents never shift
   * another's keyword scores; `false` computes it collection-wide (older Qdrant).
   */
  perTenantIdf?: boolean;
}

function checkVector(vector: readonly number[], dimensions: number): number[] {
  if (vector.length !== dimensions) {
    throw new AppError(
      'bad_request:index',
      `Query vector has ${vector.length} dimensions, the index expects ${dimensions}`,
    );
  }
  if (!vector.every(Number.isFinite))
    throw new AppError('bad_request:index', 'Query vector contains a non-finite value');
  return [...vector];
}

/** True when the filters can match nothing (an empty any-of list), so no request needs to be sent. */
export function filtersMatchNothing(filters: SearchFilters | undefined): boolean {
  if (!filters) return false;
  return [filters.bucketIds, filters.documentIds, filters.mimeTypes].some(
    (list) => list !== undefined && list.length === 0,
  );
}

/**
 * The Query API request(s) for a search, or null when nothing can match (a keyword query whose terms are all
 * stop words, semantic without a query vector, an empty any-of filter list). keyword = sparse `bm25` only;
 * semantic = `dense` only; hybrid = both (see HybridQueryPlan); hybrid without a query vector runs as keyword.
 * Every request carries the owner filter. A vector of the wrong size is a bad_request AppError.
 */
export function buildQueryRequest(request: SearchRequest, options: QueryBuildOptions): QueryPlan | null {
  const filter = toQdrantFilter(request.ownerId, request.filters);
  if (filtersMatchNothing(request.filters)) return null;
  const topK = Math.min(MAX_QUERY_LIMIT, Math.max(1, Math.floor(request.topK)));
  const candidates = Math.min(MAX_CANDIDATES, Math.max(1, Math.floor(request.candidates ?? DEFAULT_CANDIDATES)));
  const perModeLimit = Math.min(MAX_QUERY_LIMIT, Math.max(candidates, topK));
  const sparse = request.mode === 'semantic' ? null : querySparseVector(request.query);
  const hasTerms = sparse !== null && sparse.indices.length > 0;
  const dense = request.queryVector && request.queryVector.length > 0 ? request.queryVector : null;
  const idfParams: Schemas['SearchParams'] | undefined =
    options.perTenantIdf !== false
      ? { idf: { corpus: { must: [{ key: 'ownerId', match: { value: request.ownerId } }] } } }
      : undefined;

  const sparseQuery = (limit: number): Schemas['QueryRequest'] => ({
    query: sparse ?? { indices: [], values: [] },
    using: SPARSE_VECTOR,
    filter,
    limit,
    ...(idfParams ? { params: idfParams } : {}),
    with_payload: true,
  });
  const denseQuery = (vector: number[], limit: number): Schemas['QueryRequest'] => ({
    query: vector,
    using: DENSE_VECTOR,
    filter,
    limit,
    with_payload: true,
  });

  const mode: SearchMode = request.mode === 'hybrid' && !dense ? 'keyword' : request.mode;
  switch (mode) {
    case 'keyword':
      return hasTerms ? { kind: 'single', scoreKind: 'keyword', body: sparseQuery(topK) } : null;
    case 'semantic':
      return dense
        ? { kind: 'single', scoreKind: 'semantic', body: denseQuery(checkVector(dense, options.dimensions), topK) }
        : null;
    case 'hybrid':
      return {
        kind: 'hybrid',
        topK,
        dense: denseQuery(checkVector(dense ?? [], options.dimensions), perModeLimit),
        sparse: hasTerms ? sparseQuery(perModeLimit) : null,
      };
  }
}

/** Qdrant refuses request bodies above 32 MB by default (`service.max_request_size_mb`); stay well below. */
export const DEFAULT_MAX_BATCH_BYTES = 8 * 1024 * 1024;
export const DEFAULT_MAX_BATCH_POINTS = 128;

/**
 * Splits items into consecutive batches of at most `maxCount` items and about `maxBytes` of JSON each.
 * An item larger than `maxBytes` on its own travels alone (the server decides whether it fits).
 */
export function batchBySize<T>(items: readonly T[], maxCount: number, maxBytes: number): T[][] {
  if (!(maxCount >= 1) || !(maxBytes >= 1)) throw new Error('batch limits must be positive');
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = Buffer.byteLength(JSON.stringify(item));
    if (current.length > 0 && (current.length >= maxCount || bytes + size > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size + 1;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
