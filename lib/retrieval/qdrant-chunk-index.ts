import { QdrantClient, type Schemas } from '@qdrant/js-client-rest';
import { z } from 'zod';
import { AppError } from '@/lib/errors';
import { reciprocalRankFusion } from '@/lib/retrieval/fusion';
import {
  attributesPayload,
  chunkToPoint,
  parseChunkPayload,
  payloadToHit,
  recordToChunk,
} from '@/lib/retrieval/qdrant-payload';
import { reanalyseStalePoints } from '@/lib/retrieval/qdrant-reanalyse';
import {
  batchBySize,
  buildQueryRequest,
  chunkPointId,
  collectionNameFor,
  createCollectionRequest,
  DEFAULT_MAX_BATCH_BYTES,
  DEFAULT_MAX_BATCH_POINTS,
  DENSE_VECTOR,
  documentFilter,
  metaFilterKey,
  metaPayloadIndexes,
  PAYLOAD_INDEXES,
  type QdrantClusterLayout,
  SPARSE_VECTOR,
  toQdrantFilter,
} from '@/lib/retrieval/qdrant-requests';
import { type Bm25Params, DEFAULT_BM25_PARAMS } from '@/lib/retrieval/sparse-bm25';
import type {
  ChunkDocumentAttributes,
  ChunkIndex,
  ChunkIndexHealth,
  ChunkVectorUpdate,
  IndexedChunk,
  SearchHit,
  SearchRequest,
} from '@/lib/retrieval/types';

export interface QdrantChunkIndexOptions {
  /** Qdrant REST URL, e.g. http://qdrant:6333 (a path, e.g. behind a proxy, is kept as prefix). */
  url: string;
  apiKey?: string;
  /** Collection names are `<prefix>_<model>`; default `docuchat`. */
  collectionPrefix?: string;
  /** Size of the dense vectors of `embeddingModel`. */
  dimensions: number;
  /** Selects the collection (one per embedding model); chunks keep their own model label. */
  embeddingModel: string;
  /** Sharding and replication, applied when the collection is created (ignored for an existing one). */
  layout?: QdrantClusterLayout;
  /** IDF over the owner's chunks only (needs Qdrant >= 1.19), the default; `false`: collection-wide IDF. */
  perTenantIdf?: boolean;
  /** BM25 document-side parameters (see sparse-bm25.ts); changing them needs a re-index. */
  bm25?: Bm25Params;
  /** Client-side timeout of each request. Default 30 s. */
  timeoutMs?: number;
  /** Timeout of health(). Default 2 s. */
  healthTimeoutMs?: number;
  /** Upsert batching. Defaults: 128 points, 8 MB. */
  batch?: { maxPoints?: number; maxBytes?: number };
}

const qdrantErrorBody = z.object({ status: z.object({ error: z.string() }) });
const statusError = z.object({ status: z.number(), data: z.unknown().optional() });
const denseParams = z.object({ [DENSE_VECTOR]: z.object({ size: z.number() }) });

/** Turns a client failure into an error that says what Qdrant said (strict-mode refusals included). */
function describeFailure(operation: string, error: unknown, where: string): Error {
  const withStatus = statusError.safeParse(error);
  if (withStatus.success) {
    const body = qdrantErrorBody.safeParse(withStatus.data.data);
    const reason = body.success ? body.data.status.error : error instanceof Error ? error.message : String(error);
    if (withStatus.data.status === 429 || withStatus.data.status >= 502) {
      return new AppError('unavailable:index', `Qdrant ${operation} failed (${withStatus.data.status}): ${reason}`, {
        cause: error,
      });
    }
    return new Error(`Qdrant ${operation} failed (${withStatus.data.status}): ${reason}`, { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AppError('unavailable:index', `The search index (Qdrant at ${where}) is not reachable: ${message}`, {
    cause: error,
  });
}

/** A 404 saying the collection does not exist (Qdrant: "Not found: Collection `x` doesn't exist!"). */
function isCollectionMissing(error: unknown): boolean {
  const parsed = statusError.safeParse(error);
  if (!parsed.success || parsed.data.status !== 404) return false;
  const body = qdrantErrorBody.safeParse(parsed.data.data);
  return body.success && /collection .*(doesn't|does not) exist/i.test(body.data.status.error);
}

/** URL without credentials, for messages. */
function displayUrl(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * A ChunkIndex over one Qdrant collection per embedding model. The collection (vectors, payload indexes,
 * strict mode) is created on first use, so the app starts while Qdrant is down and health() says so.
 * Every read and write is scoped by `ownerId` inside Qdrant's filter; get() additionally drops any point
 * whose stored owner differs, so another owner's chunk answers exactly like a missing one.
 */
export async function createQdrantChunkIndex(options: QdrantChunkIndexOptions): Promise<ChunkIndex> {
  const url = new URL(options.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('QDRANT_URL must be http(s)');
  if (!Number.isInteger(options.dimensions) || options.dimensions <= 0) {
    throw new Error(`dimensions must be a positive integer, got ${options.dimensions}`);
  }
  const where = displayUrl(url);
  const prefix = url.pathname.replace(/\/+$/, '');
  const client = new QdrantClient({
    url: url.origin,
    ...(prefix ? { prefix } : {}),
    ...(options.apiKey ? { apiKey: options.apiKey } : {}),
    timeout: options.timeoutMs ?? 30_000,
    checkCompatibility: false,
  });
  const name = collectionNameFor(options.collectionPrefix ?? 'docuchat', options.embeddingModel);
  const maxPoints = options.batch?.maxPoints ?? DEFAULT_MAX_BATCH_POINTS;
  const maxBytes = options.batch?.maxBytes ?? DEFAULT_MAX_BATCH_BYTES;
  let closed = false;
  let ready: Promise<void> | null = null;
  /** The background re-analysis of points made by an older analyser version, while it runs. */
  let reanalysis: Promise<void> | null = null;
  let reanalysed = 0;
  /** Payload keys known to be indexed (strict mode refuses a filter on any other). */
  const indexedKeys = new Set<string>();

  /**
   * Runs one client call, translating failures. When the collection vanished (deleted by an operator), the set-up
   * runs again and the call is retried once, so the index heals without a restart.
   */
  async function call<T>(operation: string, run: () => Promise<T>, retryIfCollectionMissing = true): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (retryIfCollectionMissing && isCollectionMissing(error)) {
        ready = null;
        await ensureReady();
        try {
          return await run();
        } catch (retryError) {
          throw describeFailure(operation, retryError, where);
        }
      }
      throw describeFailure(operation, error, where);
    }
  }

  async function setUp(): Promise<void> {
    indexedKeys.clear();
    const { exists } = await call('collection check', () => client.collectionExists(name), false);
    if (!exists) {
      try {
        await client.createCollection(name, createCollectionRequest(options.dimensions, options.layout));
      } catch (error) {
        // Another app instance may have created it a moment ago; the check below decides.
        const again = await call('collection check', () => client.collectionExists(name), false);
        if (!again.exists) throw describeFailure('create collection', error, where);
      }
    }
    const info = await call('collection info', () => client.getCollection(name), false);
    const dense = denseParams.safeParse(info.config.params.vectors);
    if (!dense.success || dense.data[DENSE_VECTOR].size !== options.dimensions) {
      throw new Error(
        `Qdrant collection ${name} does not hold ${options.dimensions}-dimension "${DENSE_VECTOR}" vectors; ` +
          'use another QDRANT_COLLECTION_PREFIX or delete the collection',
      );
    }
    if (!info.config.params.sparse_vectors?.[SPARSE_VECTOR]) {
      throw new Error(`Qdrant collection ${name} has no "${SPARSE_VECTOR}" sparse vector`);
    }
    const indexed = new Set(Object.keys(info.payload_schema ?? {}));
    for (const key of indexed) indexedKeys.add(key);
    for (const index of PAYLOAD_INDEXES) {
      if (indexed.has(index.field_name)) continue;
      await call(
        `payload index ${index.field_name}`,
        () => client.createPayloadIndex(name, { ...index, wait: true }),
        false,
      );
      indexedKeys.add(index.field_name);
    }
    // A new collection holds nothing stale; an existing one may hold sparse vectors of an older analyser.
    if (exists) startReanalysis();
  }

  /**
   * Re-analyses stale points in the background (a million points take minutes): the index answers meanwhile.
   * A failure (Qdrant down) is logged and left for the next start, which resumes from the version markers.
   */
  function startReanalysis(): void {
    if (reanalysis) return;
    reanalysed = 0;
    const bm25 = options.bm25 ?? DEFAULT_BM25_PARAMS;
    reanalysis = reanalyseStalePoints(client, name, bm25, (operation, run) => call(operation, run, false), {
      shouldStop: () => closed,
      onPage: (points) => {
        reanalysed += points;
      },
    })
      .then(
        (count) => {
          reanalysed = count;
          if (count > 0) console.info(`Qdrant ${name}: re-analysed ${count} points (analyser upgrade)`);
        },
        (error: unknown) => {
          const message = error instanceof Error ? error.message : String(error);
          console.warn(`Qdrant ${name}: re-analysis of older points stopped (resumed at the next start): ${message}`);
        },
      )
      .finally(() => {
        reanalysis = null;
      });
  }

  /**
   * Creates the payload indexes of typed values (`meta.<field>.<kind>`, qdrant-requests.ts) not created yet: before
   * points carrying such a value are written, and before a search filters on one (a key no point has yet still
   * needs its index under strict mode; the filter then matches nothing, as a missing value should).
   */
  async function ensureMetaIndexes(wanted: { key: string; schema: Schemas['PayloadSchemaType'] }[]): Promise<void> {
    for (const { key, schema } of wanted) {
      if (indexedKeys.has(key)) continue;
      await call(
        `payload index ${key}`,
        () => client.createPayloadIndex(name, { field_name: key, field_schema: schema, wait: true }),
        false,
      );
      indexedKeys.add(key);
    }
  }

  function ensureReady(): Promise<void> {
    if (closed) return Promise.reject(new Error('The Qdrant chunk index is closed'));
    ready ??= setUp().catch((error: unknown) => {
      ready = null; // retry on the next call
      throw error;
    });
    return ready;
  }

  /** Point ids (of the asked chunk ids) whose stored owner is `ownerId`, with their payloads. */
  async function ownedRecords(ownerId: string, chunkIds: readonly string[], withVector: boolean) {
    const ids = [...new Set(chunkIds)].map(chunkPointId);
    const records: Schemas['Record'][] = [];
    for (const batch of batchBySize(ids, 1000, maxBytes)) {
      records.push(
        ...(await call('retrieve', () =>
          client.retrieve(name, { ids: batch, with_payload: true, with_vector: withVector ? [DENSE_VECTOR] : false }),
        )),
      );
    }
    return records.filter((record) => {
      const payload = parseChunkPayload(record.payload);
      return payload !== null && payload.ownerId === ownerId && chunkPointId(payload.chunkId) === String(record.id);
    });
  }

  const index: ChunkIndex = {
    engine: 'qdrant',

    async upsert(chunks: IndexedChunk[]): Promise<void> {
      if (chunks.length === 0) return;
      // A chunk id repeated within the call: the last version wins (Qdrant's order inside a batch is not ours).
      const latest = new Map<string, IndexedChunk>();
      for (const chunk of chunks) {
        latest.delete(chunk.chunkId);
        latest.set(chunk.chunkId, chunk);
      }
      const points = [...latest.values()].map((chunk) =>
        chunkToPoint(chunk, { dimensions: options.dimensions, ...(options.bm25 ? { bm25: options.bm25 } : {}) }),
      );
      await ensureReady();
      await ensureMetaIndexes([...latest.values()].flatMap((chunk) => metaPayloadIndexes(chunk.meta ?? {})));
      for (const batch of batchBySize(points, maxPoints, maxBytes)) {
        await call('upsert', () => client.upsert(name, { wait: true, points: batch }));
      }
    },

    async deleteDocument(ownerId: string, documentId: string): Promise<void> {
      const filter = documentFilter(ownerId, documentId);
      await ensureReady();
      await call('delete', () => client.delete(name, { wait: true, filter }));
    },

    async search(request: SearchRequest): Promise<SearchHit[]> {
      const plan = buildQueryRequest(request, {
        dimensions: options.dimensions,
        perTenantIdf: options.perTenantIdf !== false,
      });
      if (!plan) return [];
      await ensureReady();
      await ensureMetaIndexes((request.filters?.meta ?? []).map(metaFilterKey));
      const context = { ownerId: request.ownerId, query: request.query, includeText: request.includeText === true };
      const hits: SearchHit[] = [];
      if (plan.kind === 'single') {
        const response = await call('query', () => client.query(name, plan.body));
        for (const point of response.points) {
          const hit = payloadToHit(point.payload, point.score, { [plan.scoreKind]: point.score }, context);
          if (hit) hits.push(hit);
        }
        return hits;
      }
      const searches = plan.sparse ? [plan.sparse, plan.dense] : [plan.dense];
      const responses = await call('query batch', () => client.queryBatch(name, { searches }));
      const keyword = plan.sparse ? (responses[0]?.points ?? []) : [];
      const semantic = (plan.sparse ? responses[1] : responses[0])?.points ?? [];
      const payloads = new Map<string, unknown>();
      const keywordScores = new Map<string, number>();
      const semanticScores = new Map<string, number>();
      for (const point of keyword) {
        payloads.set(String(point.id), point.payload);
        keywordScores.set(String(point.id), point.score);
      }
      for (const point of semantic) {
        payloads.set(String(point.id), point.payload);
        semanticScores.set(String(point.id), point.score);
      }
      const fused = reciprocalRankFusion(
        [keyword.map((point) => String(point.id)), semantic.map((point) => String(point.id))],
        { limit: plan.topK },
      );
      for (const candidate of fused) {
        const scores: SearchHit['scores'] = { hybrid: candidate.score };
        const keywordScore = keywordScores.get(candidate.id);
        const semanticScore = semanticScores.get(candidate.id);
        if (keywordScore !== undefined) scores.keyword = keywordScore;
        if (semanticScore !== undefined) scores.semantic = semanticScore;
        const hit = payloadToHit(payloads.get(candidate.id), candidate.score, scores, context);
        if (hit) hits.push(hit);
      }
      return hits;
    },

    async get(ownerId: string, chunkIds: string[]): Promise<IndexedChunk[]> {
      if (chunkIds.length === 0) return [];
      toQdrantFilter(ownerId); // validates the owner id
      await ensureReady();
      const byChunkId = new Map<string, IndexedChunk>();
      for (const record of await ownedRecords(ownerId, chunkIds, true)) {
        const chunk = recordToChunk(record);
        if (chunk) byChunkId.set(chunk.chunkId, chunk);
      }
      const result: IndexedChunk[] = [];
      const emitted = new Set<string>();
      for (const chunkId of chunkIds) {
        const chunk = byChunkId.get(chunkId);
        if (chunk && !emitted.has(chunkId)) {
          emitted.add(chunkId);
          result.push(chunk);
        }
      }
      return result;
    },

    async setVectors(ownerId: string, model: string, updates: ChunkVectorUpdate[]): Promise<void> {
      if (updates.length === 0) return;
      if (model.trim().length === 0) throw new Error('setVectors needs the embedding model name');
      const latest = new Map<string, number[]>();
      for (const update of updates) {
        if (update.vector.length !== options.dimensions || !update.vector.every(Number.isFinite)) {
          throw new Error(`Vector for chunk ${update.chunkId} must have ${options.dimensions} finite numbers`);
        }
        latest.set(update.chunkId, update.vector);
      }
      await ensureReady();
      const owned = await ownedRecords(ownerId, [...latest.keys()], false);
      const points: Schemas['PointVectors'][] = [];
      for (const record of owned) {
        const payload = parseChunkPayload(record.payload);
        const vector = payload ? latest.get(payload.chunkId) : undefined;
        if (vector) points.push({ id: record.id, vector: { [DENSE_VECTOR]: vector } });
      }
      for (const batch of batchBySize(points, maxPoints, maxBytes)) {
        await call('update vectors', () => client.updateVectors(name, { wait: true, points: batch }));
        await call('set payload', () =>
          client.setPayload(name, {
            wait: true,
            payload: { embeddingModel: model },
            points: batch.map((point) => point.id),
          }),
        );
      }
    },

    async updateDocumentAttributes(
      ownerId: string,
      documentId: string,
      attributes: ChunkDocumentAttributes,
    ): Promise<void> {
      const filter = documentFilter(ownerId, documentId);
      const payload = attributesPayload(attributes);
      await ensureReady();
      await ensureMetaIndexes(metaPayloadIndexes(attributes.meta ?? {}));
      await call('set payload', () => client.setPayload(name, { wait: true, payload, filter }));
    },

    async countChunks(ownerId: string): Promise<number> {
      const filter = toQdrantFilter(ownerId);
      await ensureReady();
      const result = await call('count', () => client.count(name, { filter, exact: true }));
      return result.count;
    },

    async health(): Promise<ChunkIndexHealth> {
      const ms = options.healthTimeoutMs ?? 2000;
      try {
        const [version, existence] = await withTimeout(
          Promise.all([client.versionInfo(), client.collectionExists(name)]),
          ms,
          `Qdrant at ${where}`,
        );
        return {
          ok: true,
          engine: 'qdrant',
          detail: `Qdrant ${version.version} at ${where}, collection ${name} ${existence.exists ? 'ready' : 'not created yet'}`,
        };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return { ok: false, engine: 'qdrant', detail: `Qdrant at ${where} is not reachable: ${message}` };
      }
    },

    async keywordIndexState(_ownerId: string) {
      // One collection for every owner: its re-analysis covers them all.
      await ensureReady();
      return reanalysis ? { rebuilding: true, done: reanalysed } : { rebuilding: false };
    },

    async close(): Promise<void> {
      closed = true;
      await reanalysis;
    },
  };
  return index;
}
