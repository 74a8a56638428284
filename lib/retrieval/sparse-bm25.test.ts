import { describe, expect, it } from 'vitest';
import { analyze } from '@/lib/retrieval/analyzer';
import {
  DEFAULT_BM25_PARAMS,
  documentSparseVector,
  documentVectorFromTerms,
  querySparseVector,
  termIndex,
} from '@/lib/retrieval/sparse-bm25';

describe('termIndex (FNV-1a 32-bit)', () => {
  it('matches the published FNV-1a test vectors', () => {
    expect(termIndex('')).toBe(0x811c9dc5);
    expect(termIndex('a')).toBe(0xe40c292c);
    expect(termIndex('foobar')).toBe(0xbf9cf968);
  });

  it('is an unsigned 32-bit integer and hashes UTF-8 bytes, not UTF-16 units', () => {
    for (const term of ['reindex', 'café', '日本', '3.14', 'pg_reindex', '😀']) {
      const index = termIndex(term);
      expect(Number.isInteger(index)).toBe(true);
      expect(index).toBeGreaterThanOrEqual(0);
      expect(index).toBeLessThan(2 ** 32);
    }
    // "é" is two UTF-8 bytes; hashing UTF-16 code units would give a different value.
    expect(termIndex('é')).toBe(fnvBytes([0xc3, 0xa9]));
  });

  it('is stable (the same term always lands on the same dimension)', () => {
    expect(termIndex('invoic')).toBe(termIndex('invoic'));
    expect(termIndex('invoic')).not.toBe(termIndex('invoice'));
  });
});

describe('documentSparseVector', () => {
  it('uses the shared analyser: stop words dropped, stems merged', () => {
    const vector = documentSparseVector('The invoices and the invoice');
    const terms = analyze('The invoices and the invoice');
    expect(new Set(terms).size).toBe(1);
    expect(vector.indices).toEqual([termIndex(terms[0] ?? '')]);
  });

  it('applies BM25 tf saturation with length normalisation', () => {
    const params = { k1: 1.2, b: 0.75, avgDocLength: 4 };
    // dl = 4 = avgdl -> norm = k1; tf=2 -> 2*2.2/(2+1.2)
    const vector = documentVectorFromTerms(['alpha', 'alpha', 'beta', 'gamma'], params);
    const weightOf = (term: string) => vector.values[vector.indices.indexOf(termIndex(term))];
    expect(weightOf('alpha')).toBeCloseTo((2 * 2.2) / (2 + 1.2), 10);
    expect(weightOf('beta')).toBeCloseTo(2.2 / (1 + 1.2), 10);
  });

  it('weights a term lower in a longer document and saturates repeated terms', () => {
    const params = { ...DEFAULT_BM25_PARAMS, avgDocLength: 10 };
    const short = documentVectorFromTerms(['alpha', 'beta'], params);
    const long = documentVectorFromTerms(['alpha', ...Array.from({ length: 40 }, (_, i) => `t${i}`)], params);
    const alpha = termIndex('alpha');
    const shortWeight = short.values[short.indices.indexOf(alpha)] ?? 0;
    const longWeight = long.values[long.indices.indexOf(alpha)] ?? 0;
    expect(shortWeight).toBeGreaterThan(longWeight);

    const many = documentVectorFromTerms(
      Array.from({ length: 1000 }, () => 'alpha'),
      { k1: 1.2, b: 0, avgDocLength: 1 },
    );
    expect(many.values[0]).toBeLessThan(1.2 + 1); // bounded by k1 + 1
    expect(many.values[0]).toBeGreaterThan(2.19);
  });

  it('without length normalisation (b = 0) ignores the document length', () => {
    const params = { k1: 1.2, b: 0, avgDocLength: 5 };
    const a = documentVectorFromTerms(['alpha'], params);
    const b = documentVectorFromTerms(['alpha', ...Array.from({ length: 50 }, (_, i) => `t${i}`)], params);
    expect(a.values[0]).toBeCloseTo(b.values[b.indices.indexOf(termIndex('alpha'))] ?? 0, 12);
  });

  it('returns unique ascending indices with one value each', () => {
    const vector = documentSparseVector('Rotate the API key; the key rotation job rotates keys nightly. Key!');
    expect(vector.indices.length).toBe(vector.values.length);
    expect(new Set(vector.indices).size).toBe(vector.indices.length);
    expect([...vector.indices].sort((a, b) => a - b)).toEqual(vector.indices);
    for (const value of vector.values) expect(value).toBeGreaterThan(0);
  });

  it('is empty for text without indexable terms', () => {
    expect(documentSparseVector('the and of !!! ...')).toEqual({ indices: [], values: [] });
    expect(documentSparseVector('')).toEqual({ indices: [], values: [] });
  });

  it('rejects nonsensical parameters', () => {
    expect(() => documentVectorFromTerms(['a'], { k1: 0, b: 0.75, avgDocLength: 10 })).toThrow(/k1/);
    expect(() => documentVectorFromTerms(['a'], { k1: 1.2, b: 1.5, avgDocLength: 10 })).toThrow(/b must/);
    expect(() => documentVectorFromTerms(['a'], { k1: 1.2, b: 0.5, avgDocLength: 0 })).toThrow(/avgDocLength/);
  });
});

describe('querySparseVector', () => {
  it('has weight 1 per unique analysed term', () => {
    const vector = querySparseVector('Invoices, invoice and INVOICE totals');
    const unique = [...new Set(analyze('Invoices, invoice and INVOICE totals'))];
    expect(vector.indices).toEqual(unique.map(termIndex).sort((a, b) => a - b));
    expect(vector.values).toEqual(unique.map(() => 1));
  });

  it('is empty for a query of stop words only', () => {
    expect(querySparseVector('what is the')).toEqual({ indices: [], values: [] });
  });

  it('shares dimensions with the document vector of the same words (so the engine can match them)', () => {
    const doc = documentSparseVector('Résumé of the café’s payments');
    const query = querySparseVector('resume cafe payment');
    for (const index of query.indices) expect(doc.indices).toContain(index);
  });
});

function fnvBytes(bytes: number[]): number {
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
