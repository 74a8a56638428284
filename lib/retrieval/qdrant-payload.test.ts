import { describe, expect, it } from 'vitest';
import {
  attributesPayload,
  chunkToPoint,
  makeSnippet,
  parseChunkPayload,
  payloadToHit,
  recordToChunk,
} from '@/lib/retrieval/qdrant-payload';
import { chunkPointId } from '@/lib/retrieval/qdrant-requests';
import { documentSparseVector } from '@/lib/retrieval/sparse-bm25';
import type { IndexedChunk } from '@/lib/retrieval/types';

function chunk(overrides: Partial<IndexedChunk> = {}): IndexedChunk {
  return {
    chunkId: 'c1',
    documentId: 'd1',
    ownerId: 'u1',
    index: 0,
    text: 'The invoice total is 1,200 EUR, payable within 30 days.',
    contextPrefix: 'Invoices 2024 > March',
    tokenCount: 14,
    page: 2,
    sheet: null,
    rowStart: null,
    rowEnd: null,
    headingPath: 'March',
    charStart: 10,
    charEnd: 66,
    bucketId: 'b1',
    mime: 'application/pdf',
    filename: 'march.pdf',
    title: 'March invoice',
    documentDate: '2024-03-31',
    tags: ['invoice', 'paid', 'invoice'],
    fields: { vendor: 'ACME', 'a=b': 'c' },
    vector: [0.5, 0.5, 0.5, 0.5],
    embeddingModel: 'nomic-embed-text',
    ...overrides,
  };
}

const opts = { dimensions: 4 };

describe('chunkToPoint', () => {
  it('stores a deterministic id, both vectors and an indexable payload', () => {
    const point = chunkToPoint(chunk(), opts);
    expect(point.id).toBe(chunkPointId('c1'));
    expect(point.vector).toEqual({
      bm25: documentSparseVector('Invoices 2024 > March\nThe invoice total is 1,200 EUR, payable within 30 days.'),
      dense: [0.5, 0.5, 0.5, 0.5],
    });
    expect(point.payload).toMatchObject({
      ownerId: 'u1',
      documentId: 'd1',
      bucketId: 'b1',
      mime: 'application/pdf',
      documentDate: '2024-03-31T00:00:00Z',
      tags: ['invoice', 'paid'],
      fields: { vendor: 'ACME', 'a=b': 'c' },
      fieldPairs: ['vendor=ACME', 'a%3Db=c'],
      embeddingModel: 'nomic-embed-text',
    });
  });

  it('omits the dense vector (and model) for chunks indexed without an embedder', () => {
    const point = chunkToPoint(chunk({ vector: null, embeddingModel: null }), opts);
    expect(Object.keys(point.vector as object)).toEqual(['bm25']);
    expect(point.payload?.embeddingModel).toBeNull();
  });

  it('omits the sparse vector when the text has no indexable term', () => {
    const point = chunkToPoint(chunk({ text: 'the of and', contextPrefix: '', vector: null }), opts);
    expect(point.vector).toEqual({});
  });

  it('refuses vectors of another size or with non-finite values; keeps the chunk’s model label', () => {
    expect(() => chunkToPoint(chunk({ vector: [1, 2, 3] }), opts)).toThrow(/4/);
    expect(() => chunkToPoint(chunk({ vector: [1, 2, Number.POSITIVE_INFINITY, 4] }), opts)).toThrow(/finite/);
    expect(chunkToPoint(chunk({ embeddingModel: 'mxbai-embed-large' }), opts).payload?.embeddingModel).toBe(
      'mxbai-embed-large',
    );
  });
});

describe('reading points back', () => {
  it('round-trips a chunk through payload + named vector', () => {
    const original = chunk({
      tags: ['invoice', 'paid'],
      language: 'en',
      meta: { total_amount: 1500.5, issued: '2023-03-02', status: "O'Reilly", paid: true },
    });
    const point = chunkToPoint(original, opts);
    expect(point.payload?.meta).toEqual({
      total_amount: { num: 1500.5 },
      issued: { str: '2023-03-02', day: '2023-03-02T00:00:00Z' },
      status: { str: "O'Reilly" },
      paid: { bool: true },
    });
    const back = recordToChunk({ payload: point.payload, vector: { dense: [0.5, 0.5, 0.5, 0.5] } });
    expect(back).toEqual(original);
  });

  it('reads a chunk without a dense vector as vector null / model null', () => {
    const point = chunkToPoint(chunk({ vector: null, embeddingModel: null }), opts);
    expect(recordToChunk({ payload: point.payload, vector: {} })).toMatchObject({ vector: null, embeddingModel: null });
  });

  it('skips payloads that are not ours', () => {
    expect(parseChunkPayload({ hello: 'world' })).toBeNull();
    expect(parseChunkPayload(null)).toBeNull();
    expect(recordToChunk({ payload: { chunkId: 1 } })).toBeNull();
  });

  it('maps a payload to a hit with snippet, the given scores, text only on request', () => {
    const payload = chunkToPoint(chunk(), opts).payload;
    const context = { ownerId: 'u1', query: 'invoice total', includeText: false };
    const hit = payloadToHit(payload, 0.42, { hybrid: 0.42 }, context);
    expect(hit).toMatchObject({
      chunkId: 'c1',
      documentId: 'd1',
      filename: 'march.pdf',
      page: 2,
      score: 0.42,
      scores: { hybrid: 0.42 },
    });
    expect(hit?.text).toBeUndefined();
    expect(hit?.snippet).toContain('invoice total');
    expect(payloadToHit(payload, 1, { keyword: 1 }, { ...context, includeText: true })?.text).toBe(chunk().text);
  });

  it('drops a hit whose stored owner is not the asking owner', () => {
    const payload = chunkToPoint(chunk(), opts).payload;
    const context = { ownerId: 'someone-else', query: 'invoice', includeText: true };
    expect(payloadToHit(payload, 1, { keyword: 1 }, context)).toBeNull();
  });

  it('attributesPayload rewrites exactly the document attribute keys', () => {
    expect(
      attributesPayload({
        bucketId: null,
        mime: 'text/plain',
        filename: 'a.txt',
        title: null,
        documentDate: null,
        tags: [],
        fields: {},
      }),
    ).toEqual({
      bucketId: null,
      mime: 'text/plain',
      filename: 'a.txt',
      title: null,
      documentDate: null,
      tags: [],
      fields: {},
      fieldPairs: [],
      meta: {},
    });
  });
});

describe('makeSnippet', () => {
  const long = `${'Lorem ipsum dolor sit amet. '.repeat(20)}The rotation of API keys happens nightly at 02:00 UTC. ${'Filler words here. '.repeat(30)}`;

  it('returns short text whole, whitespace collapsed', () => {
    expect(makeSnippet('  a\n\nshort   text ', 'x')).toBe('a short text');
  });

  it('centres on the query terms (after stemming) with ellipses', () => {
    const snippet = makeSnippet(long, 'rotating keys');
    expect(snippet).toContain('rotation of API keys');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(242);
  });

  it('falls back to the start when nothing matches', () => {
    const snippet = makeSnippet(long, 'zebra');
    expect(snippet.startsWith('Lorem ipsum')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
  });

  it('prefers the window holding more distinct query terms', () => {
    const text = `keys alone here. ${'x '.repeat(200)} API key rotation schedule nightly ${'y '.repeat(200)}`;
    expect(makeSnippet(text, 'key rotation schedule')).toContain('API key rotation schedule');
  });
});
