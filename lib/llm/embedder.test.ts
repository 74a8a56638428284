import { createHash } from 'node:crypto';
import type { EmbeddingModelV4CallOptions } from '@ai-sdk/provider';
import { MockEmbeddingModelV4 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createEmbedder, createMemoryEmbeddingCache, type EmbeddingCache, embeddingCacheKey } from '@/lib/llm/embedder';

/** A deterministic fake vector per text: [length, first char code, 0.5]. */
function vectorOf(text: string): number[] {
  return [text.length, text.charCodeAt(0) || 0, 0.5];
}

function mockModel(
  overrides: { doEmbed?: (options: EmbeddingModelV4CallOptions) => Promise<{ embeddings: number[][] }> } = {},
) {
  return new MockEmbeddingModelV4({
    modelId: 'nomic-embed-text',
    maxEmbeddingsPerCall: null,
    doEmbed: async (options) => ({
      embeddings: overrides.doEmbed
        ? (await overrides.doEmbed(options)).embeddings
        : options.values.map((value) => vectorOf(value)),
      warnings: [],
    }),
  });
}

describe('embeddingCacheKey', () => {
  it('is the model name and the sha256 of the text', () => {
    const hash = createHash('sha256').update('hello').digest('hex');
    expect(embeddingCacheKey('nomic-embed-text', 'hello')).toBe(`nomic-embed-text:${hash}`);
    expect(embeddingCacheKey('a', 'bc')).not.toBe(embeddingCacheKey('ab', 'c'));
    expect(embeddingCacheKey('m', 'x')).not.toBe(embeddingCacheKey('m2', 'x'));
  });
});

describe('createEmbedder', () => {
  it('embeds in batches of batchSize, in order', async () => {
    const model = mockModel();
    const embedder = createEmbedder({ model, modelName: 'nomic-embed-text', batchSize: 2 });
    const texts = ['alpha', 'beta', 'gamma', 'delta', 'epsilon'];
    const vectors = await embedder.embedDocuments(texts);
    expect(vectors).toEqual(texts.map(vectorOf));
    expect(model.doEmbedCalls.map((c) => c.values)).toEqual([['alpha', 'beta'], ['gamma', 'delta'], ['epsilon']]);
  });

  it('embeds duplicate texts once and returns them at every position', async () => {
    const model = mockModel();
    const embedder = createEmbedder({ model, modelName: 'm' });
    const vectors = await embedder.embedDocuments(['same', 'other', 'same']);
    expect(vectors).toEqual([vectorOf('same'), vectorOf('other'), vectorOf('same')]);
    expect(model.doEmbedCalls.map((c) => c.values)).toEqual([['same', 'other']]);
  });

  it('serves cached texts from the cache and only sends the rest', async () => {
    const cache = createMemoryEmbeddingCache();
    const model = mockModel();
    const embedder = createEmbedder({ model, modelName: 'nomic-embed-text', cache });
    await embedder.embedDocuments(['one', 'two']);
    expect(cache.size).toBe(2);
    const vectors = await embedder.embedDocuments(['two', 'three', 'one']);
    expect(vectors).toEqual([vectorOf('two'), vectorOf('three'), vectorOf('one')]);
    expect(model.doEmbedCalls.map((c) => c.values)).toEqual([['one', 'two'], ['three']]);
  });

  it('keys the cache by model: another model does not reuse the vectors', async () => {
    const cache = createMemoryEmbeddingCache();
    await createEmbedder({ model: mockModel(), modelName: 'model-a', cache }).embedDocuments(['text']);
    const other = mockModel();
    await createEmbedder({ model: other, modelName: 'model-b', cache }).embedDocuments(['text']);
    expect(other.doEmbedCalls).toHaveLength(1);
  });

  it('writes entries with key, model and a float32 vector; fresh and cached vectors are identical', async () => {
    const written: Parameters<EmbeddingCache['setMany']>[0] = [];
    const memory = createMemoryEmbeddingCache();
    const cache: EmbeddingCache = {
      getMany: (keys) => memory.getMany(keys),
      setMany: async (entries) => {
        written.push(...entries);
        await memory.setMany(entries);
      },
    };
    const model = mockModel({ doEmbed: async ({ values }) => ({ embeddings: values.map(() => [0.1, 0.2, 0.3]) }) });
    const embedder = createEmbedder({ model, modelName: 'm', cache });
    const fresh = await embedder.embedQuery('q');
    expect(written).toEqual([
      { key: embeddingCacheKey('m', 'q'), model: 'm', vector: Float32Array.from([0.1, 0.2, 0.3]) },
    ]);
    const cached = await embedder.embedQuery('q');
    expect(cached).toEqual(fresh);
    expect(fresh[0]).toBe(Math.fround(0.1));
  });

  it('keeps working when the cache fails', async () => {
    const broken: EmbeddingCache = {
      getMany: async () => {
        throw new Error('db down');
      },
      setMany: async () => {
        throw new Error('db down');
      },
    };
    const embedder = createEmbedder({ model: mockModel(), modelName: 'm', cache: broken });
    expect(await embedder.embedDocuments(['a', 'b'])).toEqual([vectorOf('a'), vectorOf('b')]);
  });

  it('embedQuery returns one vector; empty input embeds nothing', async () => {
    const model = mockModel();
    const embedder = createEmbedder({ model, modelName: 'm' });
    expect(await embedder.embedQuery('hello')).toEqual(vectorOf('hello'));
    expect(await embedder.embedDocuments([])).toEqual([]);
    expect(model.doEmbedCalls).toHaveLength(1);
  });

  it('refuses a wrong number of vectors, ragged or non-finite vectors', async () => {
    const short = createEmbedder({
      model: mockModel({ doEmbed: async () => ({ embeddings: [[1, 2]] }) }),
      modelName: 'm',
      maxRetries: 0,
    });
    await expect(short.embedDocuments(['a', 'b'])).rejects.toThrow();
    const ragged = createEmbedder({
      model: mockModel({ doEmbed: async () => ({ embeddings: [[1, 2], [1]] }) }),
      modelName: 'm',
    });
    await expect(ragged.embedDocuments(['a', 'b'])).rejects.toThrow(/ragged/);
    const nan = createEmbedder({
      model: mockModel({ doEmbed: async () => ({ embeddings: [[1, Number.NaN]] }) }),
      modelName: 'm',
    });
    await expect(nan.embedQuery('a')).rejects.toThrow(/non-finite/);
  });

  it('refuses a cached vector whose size differs from fresh ones (stale cache after a model change)', async () => {
    const cache = createMemoryEmbeddingCache();
    await cache.setMany([{ key: embeddingCacheKey('m', 'old'), model: 'm', vector: Float32Array.from([1, 2]) }]);
    const embedder = createEmbedder({ model: mockModel(), modelName: 'm', cache });
    await expect(embedder.embedDocuments(['old', 'new'])).rejects.toThrow(/differ in size/);
  });

  it('passes an abort signal to the model and stops between batches when aborted', async () => {
    const controller = new AbortController();
    const model = mockModel({
      doEmbed: async ({ values }) => {
        controller.abort();
        return { embeddings: values.map(vectorOf) };
      },
    });
    const embedder = createEmbedder({ model, modelName: 'm', batchSize: 1 });
    await expect(embedder.embedDocuments(['a', 'b', 'c'], controller.signal)).rejects.toThrow();
    expect(model.doEmbedCalls).toHaveLength(1);
    expect(model.doEmbedCalls[0]?.abortSignal).toBeInstanceOf(AbortSignal);
    await expect(embedder.embedQuery('x', controller.signal)).rejects.toThrow();
    expect(model.doEmbedCalls).toHaveLength(1);
  });

  it('times out a request that hangs', async () => {
    const model = mockModel({
      doEmbed: ({ abortSignal }) =>
        new Promise((_, reject) => {
          abortSignal?.addEventListener('abort', () => reject(abortSignal.reason), { once: true });
        }),
    });
    const embedder = createEmbedder({ model, modelName: 'm', timeoutMs: 100, maxRetries: 0 });
    const started = Date.now();
    await expect(embedder.embedQuery('slow')).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2000);
  });
});
