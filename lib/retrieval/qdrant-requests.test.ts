import type { Schemas } from '@qdrant/js-client-rest';
import { validate as uuidValidate, version as uuidVersion } from 'uuid';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { AppError } from '@/lib/errors';
import {
  batchBySize,
  buildQueryRequest,
  chunkPointId,
  collectionNameFor,
  createCollectionRequest,
  documentFilter,
  fieldPair,
  filtersMatchNothing,
  type HybridQueryPlan,
  MAX_CANDIDATES,
  PAYLOAD_INDEXES,
  type QueryPlan,
  type SingleQueryPlan,
  toQdrantDatetime,
  toQdrantFilter,
} from '@/lib/retrieval/qdrant-requests';
import { querySparseVector } from '@/lib/retrieval/sparse-bm25';
import type { SearchRequest } from '@/lib/retrieval/types';

const OWNER = { key: 'ownerId', match: { value: 'user-1' } };

describe('toQdrantFilter', () => {
  it('returns exactly the owner clause without filters', () => {
    const filter = toQdrantFilter('user-1');
    expectTypeOf(filter).toMatchTypeOf<Schemas['Filter']>();
    expect(filter).toEqual({ must: [OWNER] });
    expect(toQdrantFilter('user-1', {})).toEqual({ must: [OWNER] });
  });

  it('translates every filter into the exact Qdrant JSON shapes', () => {
    const filter = toQdrantFilter('user-1', {
      bucketIds: ['b1', 'b2', 'b1'],
      documentIds: ['d1'],
      mimeTypes: ['application/pdf', 'text/markdown'],
      dateFrom: '2024-01-01',
      dateTo: '2024-12-31',
      tags: ['contract', 'signed', 'contract'],
      fields: { vendor: 'ACME', region: 'EU' },
    });
    const expected: Schemas['Filter'] = {
      must: [
        OWNER,
        { key: 'bucketId', match: { any: ['b1', 'b2'] } },
        { key: 'documentId', match: { any: ['d1'] } },
        { key: 'mime', match: { any: ['application/pdf', 'text/markdown'] } },
        { key: 'documentDate', range: { gte: '2024-01-01T00:00:00Z', lte: '2024-12-31T00:00:00Z' } },
        { key: 'tags', match: { value: 'contract' } },
        { key: 'tags', match: { value: 'signed' } },
        { key: 'fieldPairs', match: { value: 'vendor=ACME' } },
        { key: 'fieldPairs', match: { value: 'region=EU' } },
      ],
    };
    expect(filter).toEqual(expected);
    // The owner clause can never be displaced, whatever the filters say.
    expect(filter.must[0]).toEqual(OWNER);
  });

  it('supports one-sided date ranges', () => {
    expect(toQdrantFilter('user-1', { dateFrom: '2023-06-01' }).must[1]).toEqual({
      key: 'documentDate',
      range: { gte: '2023-06-01T00:00:00Z' },
    });
    expect(toQdrantFilter('user-1', { dateTo: '2023-06-30' }).must[1]).toEqual({
      key: 'documentDate',
      range: { lte: '2023-06-30T00:00:00Z' },
    });
  });

  it('empty all-of lists add nothing; an empty any-of list matches nothing (never an empty `any`)', () => {
    expect(toQdrantFilter('user-1', { tags: [], fields: {} })).toEqual({ must: [OWNER] });
    for (const filters of [{ bucketIds: [] }, { documentIds: [] }, { mimeTypes: [] }]) {
      expect(toQdrantFilter('user-1', { ...filters, tags: ['x'] })).toEqual({
        must: [OWNER, { key: 'tags', match: { value: 'x' } }],
        must_not: [OWNER],
      });
    }
  });

  it('cannot be tricked by owner-looking filter values', () => {
    const filter = toQdrantFilter('user-1', { fields: { ownerId: 'user-2' }, tags: ['ownerId=user-2'] });
    expect(filter.must[0]).toEqual(OWNER);
    expect(filter.must.filter((c) => 'key' in c && c.key === 'ownerId')).toEqual([OWNER]);
    expect(filter.must).toContainEqual({ key: 'fieldPairs', match: { value: 'ownerId=user-2' } });
  });

  it('refuses an empty owner id and invalid dates', () => {
    expect(() => toQdrantFilter('')).toThrow(AppError);
    expect(() => toQdrantFilter('user-1', { dateFrom: 'yesterday' })).toThrow(/Not a date/);
    expect(() => toQdrantFilter('user-1', { dateTo: '2024-02-30' })).toThrow(/Not a date/);
  });

  it('documentFilter is owner + document', () => {
    expect(documentFilter('user-1', 'doc-9')).toEqual({
      must: [OWNER, { key: 'documentId', match: { any: ['doc-9'] } }],
    });
  });
});

describe('field pairs and dates', () => {
  it('keeps key/value pairs unambiguous when keys contain "="', () => {
    expect(fieldPair('vendor', 'ACME')).toBe('vendor=ACME');
    expect(fieldPair('a=b', 'c')).not.toBe(fieldPair('a', 'b=c'));
    expect(fieldPair('a=b', 'c')).toBe('a%3Db=c');
    expect(fieldPair('50%', 'x')).toBe('50%25=x');
  });

  it('normalises dates to RFC 3339 UTC', () => {
    expect(toQdrantDatetime('2024-03-05')).toBe('2024-03-05T00:00:00Z');
    expect(toQdrantDatetime('2024-03-05T10:00:00+02:00')).toBe('2024-03-05T08:00:00Z');
  });
});

describe('collection layout', () => {
  it('creates dense + sparse(idf) vectors, strict mode and per-tenant HNSW', () => {
    const request = createCollectionRequest(768);
    expectTypeOf(request).toEqualTypeOf<Schemas['CreateCollection']>();
    expect(request).toEqual({
      vectors: { dense: { size: 768, distance: 'Cosine' } },
      sparse_vectors: { bm25: { modifier: 'idf' } },
      hnsw_config: { m: 0, payload_m: 16 },
      strict_mode_config: {
        enabled: true,
        unindexed_filtering_retrieve: false,
        unindexed_filtering_update: false,
        max_query_limit: 1000,
      },
    });
  });

  it('passes the cluster layout through', () => {
    const request = createCollectionRequest(384, { shardNumber: 6, replicationFactor: 2, writeConsistencyFactor: 2 });
    expect(request).toMatchObject({ shard_number: 6, replication_factor: 2, write_consistency_factor: 2 });
  });

  it('refuses a nonsensical dimension', () => {
    expect(() => createCollectionRequest(0)).toThrow();
    expect(() => createCollectionRequest(1.5)).toThrow();
  });

  it('indexes every filtered field, owner as tenant, before any data', () => {
    expect(PAYLOAD_INDEXES).toEqual([
      { field_name: 'ownerId', field_schema: { type: 'keyword', is_tenant: true } },
      { field_name: 'documentId', field_schema: { type: 'keyword' } },
      { field_name: 'bucketId', field_schema: { type: 'keyword' } },
      { field_name: 'mime', field_schema: { type: 'keyword' } },
      { field_name: 'documentDate', field_schema: { type: 'datetime' } },
      { field_name: 'tags', field_schema: { type: 'keyword' } },
      { field_name: 'fieldPairs', field_schema: { type: 'keyword' } },
      { field_name: 'analyzer', field_schema: { type: 'integer' } },
    ]);
    // Every key a filter can produce is indexed (strict mode would reject the query otherwise).
    const filter = toQdrantFilter('u', {
      bucketIds: ['b'],
      documentIds: ['d'],
      mimeTypes: ['m'],
      dateFrom: '2020-01-01',
      tags: ['t'],
      fields: { k: 'v' },
    });
    const indexed = new Set(PAYLOAD_INDEXES.map((i) => i.field_name));
    for (const condition of filter.must) expect('key' in condition && indexed.has(condition.key)).toBe(true);
  });

  it('names one collection per embedding model, safely', () => {
    expect(collectionNameFor('docuchat', 'nomic-embed-text')).toBe('docuchat_nomic-embed-text');
    const tagged = collectionNameFor('docuchat', 'nomic-embed-text:latest');
    expect(tagged).toMatch(/^docuchat_nomic-embed-text_latest_[0-9a-f]{8}$/);
    expect(collectionNameFor('docuchat', 'a/b')).not.toBe(collectionNameFor('docuchat', 'a:b'));
    expect(collectionNameFor('docuchat', 'mxbai-embed-large')).not.toBe(
      collectionNameFor('docuchat', 'nomic-embed-text'),
    );
    expect(collectionNameFor('Team A', '../../etc')).toMatch(/^team_a_etc_[0-9a-f]{8}$/);
    expect(() => collectionNameFor('docuchat', '  ')).toThrow();
  });
});

describe('chunkPointId', () => {
  it('is a deterministic uuid v5 of the chunk id', () => {
    const id = chunkPointId('chunk-1');
    expect(uuidValidate(id)).toBe(true);
    expect(uuidVersion(id)).toBe(5);
    expect(chunkPointId('chunk-1')).toBe(id);
    expect(chunkPointId('chunk-2')).not.toBe(id);
  });
});

describe('buildQueryRequest', () => {
  const vector = [0.1, 0.2, 0.3, 0.4];
  const base: SearchRequest = { ownerId: 'user-1', query: 'invoice totals 2024', mode: 'hybrid', topK: 10 };
  const options = { dimensions: 4 };
  const ownerOnly = { must: [OWNER] };
  const sparse = querySparseVector('invoice totals 2024');
  const tenantIdf = { idf: { corpus: { must: [OWNER] } } };

  function single(plan: QueryPlan | null): SingleQueryPlan {
    if (plan?.kind !== 'single') throw new Error(`expected a single plan, got ${plan?.kind ?? 'null'}`);
    return plan;
  }
  function hybrid(plan: QueryPlan | null): HybridQueryPlan {
    if (plan?.kind !== 'hybrid') throw new Error(`expected a hybrid plan, got ${plan?.kind ?? 'null'}`);
    return plan;
  }

  it('keyword: sparse bm25 only, owner filter, limit = topK', () => {
    const plan = single(buildQueryRequest({ ...base, mode: 'keyword' }, options));
    expect(plan.scoreKind).toBe('keyword');
    expect(plan.body).toEqual({
      query: sparse,
      using: 'bm25',
      filter: ownerOnly,
      limit: 10,
      params: tenantIdf,
      with_payload: true,
    });
    expect(plan.body.prefetch).toBeUndefined();
    expectTypeOf(plan.body).toEqualTypeOf<Schemas['QueryRequest']>();
  });

  it('keyword with only stop words asks nothing', () => {
    expect(buildQueryRequest({ ...base, mode: 'keyword', query: 'what is the' }, options)).toBeNull();
  });

  it('semantic: dense only; without a vector nothing is asked', () => {
    const plan = single(buildQueryRequest({ ...base, mode: 'semantic', queryVector: vector }, options));
    expect(plan.scoreKind).toBe('semantic');
    expect(plan.body).toEqual({ query: vector, using: 'dense', filter: ownerOnly, limit: 10, with_payload: true });
    expect(buildQueryRequest({ ...base, mode: 'semantic' }, options)).toBeNull();
    expect(buildQueryRequest({ ...base, mode: 'semantic', queryVector: null }, options)).toBeNull();
  });

  it('a vector of the wrong size or with NaN is a bad request', () => {
    expect(() => buildQueryRequest({ ...base, mode: 'semantic', queryVector: [1, 2] }, options)).toThrow(/dimensions/);
    expect(() => buildQueryRequest({ ...base, queryVector: [1, 2, Number.NaN, 4] }, options)).toThrow(/non-finite/);
  });

  it('hybrid: a dense and a sparse search, each with the (translated) owner filter and the candidate limit', () => {
    const filters = { bucketIds: ['b1'], tags: ['signed'] };
    const plan = hybrid(buildQueryRequest({ ...base, queryVector: vector, filters, candidates: 80, topK: 5 }, options));
    const filter = {
      must: [OWNER, { key: 'bucketId', match: { any: ['b1'] } }, { key: 'tags', match: { value: 'signed' } }],
    };
    expect(plan).toEqual({
      kind: 'hybrid',
      topK: 5,
      dense: { query: vector, using: 'dense', filter, limit: 80, with_payload: true },
      sparse: { query: sparse, using: 'bm25', filter, limit: 80, params: tenantIdf, with_payload: true },
    });
  });

  it('hybrid per-mode limit is at least topK, defaults to 50 candidates, caps at 100', () => {
    const limits = (request: Partial<SearchRequest>) => {
      const plan = hybrid(buildQueryRequest({ ...base, queryVector: vector, ...request }, options));
      return { dense: plan.dense.limit, sparse: plan.sparse?.limit, topK: plan.topK };
    };
    expect(limits({})).toEqual({ dense: 50, sparse: 50, topK: 10 });
    expect(limits({ topK: 70, candidates: 20 })).toEqual({ dense: 70, sparse: 70, topK: 70 });
    expect(limits({ candidates: 5000 })).toEqual({ dense: MAX_CANDIDATES, sparse: MAX_CANDIDATES, topK: 10 });
    expect(limits({ topK: 0 })).toEqual({ dense: 50, sparse: 50, topK: 1 });
  });

  it('hybrid without a query vector is keyword; without indexable terms only the dense search runs', () => {
    const noVector = single(buildQueryRequest({ ...base, queryVector: null }, options));
    expect(noVector.scoreKind).toBe('keyword');
    expect(noVector.body.using).toBe('bm25');
    const noTerms = hybrid(buildQueryRequest({ ...base, query: 'what is it', queryVector: vector }, options));
    expect(noTerms.sparse).toBeNull();
    expect(noTerms.dense.using).toBe('dense');
    expect(buildQueryRequest({ ...base, query: 'the', queryVector: null }, options)).toBeNull();
  });

  it('an empty any-of filter list asks nothing in every mode', () => {
    for (const filters of [{ bucketIds: [] }, { documentIds: [] }, { mimeTypes: [] }]) {
      expect(filtersMatchNothing(filters)).toBe(true);
      for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
        expect(buildQueryRequest({ ...base, mode, queryVector: vector, filters }, options)).toBeNull();
      }
    }
    expect(filtersMatchNothing({ tags: [], fields: {} })).toBe(false);
    expect(filtersMatchNothing(undefined)).toBe(false);
  });

  it('per-tenant IDF (the default) scopes the sparse statistics to the owner', () => {
    for (const perTenantIdf of [true, undefined]) {
      const plan = hybrid(buildQueryRequest({ ...base, queryVector: vector }, { ...options, perTenantIdf }));
      expect(plan.sparse?.params).toEqual({ idf: { corpus: { must: [OWNER] } } });
      expect(plan.dense.params).toBeUndefined();
    }
    const keyword = single(buildQueryRequest({ ...base, mode: 'keyword' }, options));
    expect(keyword.body.params).toEqual({ idf: { corpus: { must: [OWNER] } } });
  });

  it('collection-wide IDF only when asked for (older Qdrant)', () => {
    const plan = hybrid(buildQueryRequest({ ...base, queryVector: vector }, { ...options, perTenantIdf: false }));
    expect(plan.sparse?.params).toBeUndefined();
  });
});

describe('batchBySize', () => {
  it('cuts by count and by bytes, keeping order', () => {
    const items = Array.from({ length: 10 }, (_, i) => ({ i, pad: 'x'.repeat(100) }));
    expect(batchBySize(items, 4, 1e9).map((b) => b.length)).toEqual([4, 4, 2]);
    const byBytes = batchBySize(items, 100, 350);
    expect(byBytes.map((b) => b.length)).toEqual([3, 3, 3, 1]);
    expect(byBytes.flat()).toEqual(items);
  });

  it('sends an oversized item alone and nothing for no items', () => {
    const items = [{ a: 'x' }, { a: 'y'.repeat(1000) }, { a: 'z' }];
    expect(batchBySize(items, 10, 100).map((b) => b.length)).toEqual([1, 1, 1]);
    expect(batchBySize([], 10, 100)).toEqual([]);
  });
});
