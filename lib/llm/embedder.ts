import { createHash } from 'node:crypto';
import { type EmbeddingModel, embedMany } from 'ai';

/**
 * Text → vectors through the AI SDK, with a persistent cache so re-indexing unchanged text costs nothing.
 * The cache is a port: the app stores it in the `EmbeddingCache` table, tests use `createMemoryEmbeddingCache`.
 */

export interface EmbeddingCacheEntry {
  /** `<model>:<sha256 hex of the text>` (see embeddingCacheKey). */
  key: string;
  model: string;
  vector: Float32Array;
}

export interface EmbeddingCache {
  /** The cached vectors among `keys` (absent keys are simply missing from the map). */
  getMany(keys: string[]): Promise<Map<string, Float32Array>>;
  /** Stores vectors; storing an existing key again must not fail. */
  setMany(entries: EmbeddingCacheEntry[]): Promise<void>;
}

export interface Embedder {
  readonly modelName: string;
  /** One vector per text, in order. Cached texts are not sent to the model. */
  embedDocuments(texts: string[], signal?: AbortSignal): Promise<number[][]>;
  embedQuery(text: string, signal?: AbortSignal): Promise<number[]>;
}

export interface EmbedderOptions {
  model: EmbeddingModel;
  /** The name the vectors are recorded under (part of the cache key). */
  modelName: string;
  /** Texts per model request. Default 32. */
  batchSize?: number;
  /** Budget of one model request (a batch or a query). Default 60 s. */
  timeoutMs?: number;
  cache?: EmbeddingCache | null;
  /** Retries of one request by the AI SDK. Default 1. */
  maxRetries?: number;
}

/** Cache key of a text for a model: the schema's `model:sha256(text)`. */
export function embeddingCacheKey(modelName: string, text: string): string {
  return `${modelName}:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

function requestSignal(signal: AbortSignal | undefined, timeoutMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(timeoutMs);
  return signal ? AbortSignal.any([signal, timeout]) : timeout;
}

function checkVectors(vectors: number[][], expected: number, modelName: string): void {
  if (vectors.length !== expected) {
    throw new Error(`Embedding model ${modelName} returned ${vectors.length} vectors for ${expected} texts`);
  }
  const size = vectors[0]?.length ?? 0;
  for (const vector of vectors) {
    if (vector.length === 0 || vector.length !== size || !vector.every(Number.isFinite)) {
      throw new Error(`Embedding model ${modelName} returned an empty, ragged or non-finite vector`);
    }
  }
}

/**
 * An embedder over an AI SDK embedding model: batches of `batchSize` texts (`embedMany`), each batch with its
 * own timeout, aborted by `signal`; identical texts are embedded once; vectors are cached by model + sha256.
 * A cache failure never fails embedding (the cache is an optimisation).
 */
export function createEmbedder(options: EmbedderOptions): Embedder {
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 32));
  const timeoutMs = options.timeoutMs ?? 60_000;
  const cache = options.cache ?? null;
  const { modelName } = options;

  async function embedBatch(values: string[], signal: AbortSignal | undefined): Promise<number[][]> {
    signal?.throwIfAborted();
    const result = await embedMany({
      model: options.model,
      values,
      maxRetries: options.maxRetries ?? 1,
      abortSignal: requestSignal(signal, timeoutMs),
    });
    checkVectors(result.embeddings, values.length, modelName);
    return result.embeddings;
  }

  async function embedDocuments(texts: string[], signal?: AbortSignal): Promise<number[][]> {
    if (texts.length === 0) return [];
    signal?.throwIfAborted();
    const keys = texts.map((text) => embeddingCacheKey(modelName, text));
    const found = new Map<string, number[]>();
    if (cache) {
      try {
        for (const [key, vector] of await cache.getMany([...new Set(keys)])) found.set(key, Array.from(vector));
      } catch {
        // cache unavailable: embed everything
      }
    }
    const todo = new Map<string, string>(); // key -> text, first occurrence
    texts.forEach((text, i) => {
      const key = keys[i] ?? '';
      if (!found.has(key) && !todo.has(key)) todo.set(key, text);
    });
    const pending = [...todo.entries()];
    for (let start = 0; start < pending.length; start += batchSize) {
      const batch = pending.slice(start, start + batchSize);
      const vectors = await embedBatch(
        batch.map(([, text]) => text),
        signal,
      );
      const entries: EmbeddingCacheEntry[] = [];
      batch.forEach(([key], i) => {
        // Rounded to float32 like the cache stores it, so a text's vector never depends on the cache state.
        const vector = Float32Array.from(vectors[i] ?? []);
        found.set(key, Array.from(vector));
        entries.push({ key, model: modelName, vector });
      });
      if (cache) {
        try {
          await cache.setMany(entries);
        } catch {
          // best effort
        }
      }
    }
    const result = keys.map((key) => found.get(key) ?? []);
    const size = result[0]?.length ?? 0;
    if (result.some((vector) => vector.length === 0 || vector.length !== size)) {
      throw new Error(`Embedding vectors for ${modelName} differ in size (stale cache entries?)`);
    }
    return result;
  }

  return {
    modelName,
    embedDocuments,
    async embedQuery(text: string, signal?: AbortSignal): Promise<number[]> {
      const [vector] = await embedDocuments([text], signal);
      if (!vector) throw new Error(`Embedding model ${modelName} returned no vector`);
      return vector;
    },
  };
}

/** An in-memory EmbeddingCache (tests, and a process-local fallback). */
export function createMemoryEmbeddingCache(): EmbeddingCache & { readonly size: number } {
  const store = new Map<string, Float32Array>();
  return {
    get size() {
      return store.size;
    },
    async getMany(keys) {
      const out = new Map<string, Float32Array>();
      for (const key of keys) {
        const vector = store.get(key);
        if (vector) out.set(key, vector.slice());
      }
      return out;
    },
    async setMany(entries) {
      for (const entry of entries) store.set(entry.key, entry.vector.slice());
    },
  };
}
