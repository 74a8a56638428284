import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type MetaFilter, matchesMetaFilters } from '@/lib/domain/typed-meta';
import { AppError } from '@/lib/errors';
import { attributesPayload } from '@/lib/retrieval/qdrant-payload';
import { META_PAYLOAD_KINDS, metaFilterKey, toQdrantFilter } from '@/lib/retrieval/qdrant-requests';
import { qdrantFilterMatches } from '@/test/support/retrieval/qdrant-fake-server';
import { META_FIELDS, metaFiltersArb, metaValuesArb } from '@/test/support/retrieval/typed-meta-arbitraries';

/**
 * Typed filters pushed down to Qdrant (metaCondition over the `meta.<field>.<kind>` payload keys) accept exactly
 * the points the reference matcher accepts, evaluated with Qdrant's documented filter semantics (the fake's
 * evaluator: missing keys fail field conditions, ranges per index type, is_empty, nested must/should/must_not).
 */

const INDEXES = new Map(
  META_FIELDS.flatMap((field) =>
    Object.entries(META_PAYLOAD_KINDS).map(([kind, schema]) => [`meta.${field}.${kind}`, schema] as const),
  ),
);

function payloadOf(meta: Record<string, string | number | boolean>, ownerId = 'alice') {
  return {
    ownerId,
    ...attributesPayload({
      bucketId: 'b',
      mime: 'text/plain',
      filename: 'f.txt',
      title: null,
      documentDate: null,
      tags: [],
      fields: {},
      meta,
    }),
  };
}

describe('typed filters as Qdrant payload filters', () => {
  it('agree with matchesMetaFilters on every generated document and filter', () => {
    fc.assert(
      fc.property(metaValuesArb, metaFiltersArb, (meta, filters) => {
        const filter = toQdrantFilter('alice', { meta: filters });
        expect(qdrantFilterMatches(payloadOf(meta), filter, INDEXES)).toBe(matchesMetaFilters(meta, filters));
        // The owner condition still holds: another owner's point never passes.
        expect(qdrantFilterMatches(payloadOf(meta, 'bob'), filter, INDEXES)).toBe(false);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 2000), seed: 2026 },
    );
  });

  it('keys each filter by field and kind, on an index of the matching schema', () => {
    expect(metaFilterKey({ field: 'total_amount', type: 'number', op: '>', values: [1000] })).toEqual({
      key: 'meta.total_amount.num',
      schema: 'float',
    });
    expect(metaFilterKey({ field: 'issued', type: 'date', op: '>', values: ['2023-01-01'] })).toEqual({
      key: 'meta.issued.day',
      schema: 'datetime',
    });
    expect(metaFilterKey({ field: 'status', type: 'enum', op: '=', values: ['paid'] }).schema).toBe('keyword');
    expect(metaFilterKey({ field: 'paid', type: 'boolean', op: '=', values: [true] }).schema).toBe('bool');
  });

  it('refuses a filter that was not checked (a dotted field, a range on text, a value of another type)', () => {
    const bad: MetaFilter[] = [
      { field: 'a.b', type: 'string', op: '=', values: ['x'] },
      { field: 'ownerId', type: 'string', op: '>', values: ['x'] },
      { field: 'total', type: 'number', op: '=', values: ['1000'] },
      { field: 'issued', type: 'date', op: '=', values: ['2023-02-30'] },
      { field: 'total', type: 'number', op: 'between', values: [1] },
    ];
    for (const filter of bad) {
      expect(() => toQdrantFilter('alice', { meta: [filter] })).toThrow(AppError);
    }
  });
});
