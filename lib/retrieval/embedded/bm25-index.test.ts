import { describe, expect, it } from 'vitest';
import { Bm25Index } from '@/lib/retrieval/embedded/bm25-index';

const params = { k1: 1.2, bBody: 0.75, bContext: 0.75, contextWeight: 2 };
const words = (text: string) => text.split(' ').filter(Boolean);

describe('Bm25Index', () => {
  it('matches the textbook BM25 score for a single field', () => {
    const index = new Bm25Index(params);
    index.add(words('cat dog'), []);
    index.add(words('dog dog bird'), []);
    index.add(words('fish'), []);
    const [hit] = index.search(['cat'], 10);
    const n = 3;
    const df = 1;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    const avg = (2 + 3 + 1) / 3;
    const tf = 1 / (1 - 0.75 + (0.75 * 2) / avg);
    expect(hit?.slot).toBe(0);
    expect(hit?.score).toBeCloseTo((idf * tf * 2.2) / (tf + 1.2), 5);
  });

  it('ranks by score, breaks ties by slot, applies limit and accept', () => {
    const index = new Bm25Index(params);
    for (const text of ['apple', 'apple', 'apple apple banana', 'banana']) index.add(words(text), []);
    expect(index.search(['apple'], 10).map((hit) => hit.slot)).toEqual([0, 1, 2]);
    expect(index.search(['apple'], 2).map((hit) => hit.slot)).toEqual([0, 1]);
    expect(index.search(['apple'], 10, (slot) => slot !== 0).map((hit) => hit.slot)).toEqual([1, 2]);
    expect(index.search(['missing'], 10)).toEqual([]);
    expect(index.search(['apple'], 0)).toEqual([]);
  });

  it('weights the context field', () => {
    const index = new Bm25Index(params);
    index.add(words('penguin colony'), []);
    index.add(words('colony data'), words('penguin'));
    expect(index.search(['penguin'], 10)[0]?.slot).toBe(1);
  });

  it('removal tombstones a slot and keeps document frequencies exact', () => {
    const index = new Bm25Index(params);
    const a = index.add(words('rare common'), []);
    index.add(words('common'), []);
    index.add(words('common other'), []);
    const before = index.idf('rare');
    index.remove(a, words('rare common'), []);
    expect(index.search(['rare'], 10)).toEqual([]);
    expect(index.size).toBe(2);
    expect(index.idf('rare')).toBe(0);
    expect(index.idf('common')).toBeLessThan(before);
    index.remove(a, words('rare common'), []);
    expect(index.size).toBe(2);
  });

  it('compaction renumbers slots and keeps scores identical', () => {
    const index = new Bm25Index(params);
    const docs = ['alpha beta', 'beta gamma', 'gamma delta', 'alpha alpha', 'delta'];
    const slots = docs.map((text) => index.add(words(text), []));
    index.remove(slots[1] ?? -1, words('beta gamma'), []);
    index.remove(slots[3] ?? -1, words('alpha alpha'), []);
    const before = index.search(['alpha', 'gamma', 'delta'], 10);
    const remap = index.compact();
    expect([...remap]).toEqual([0, -1, 1, -1, 2]);
    expect(index.deadSlots).toBe(0);
    const after = index.search(['alpha', 'gamma', 'delta'], 10);
    expect(after.map((hit) => hit.score)).toEqual(before.map((hit) => hit.score));
    expect(after.map((hit) => hit.slot)).toEqual(before.map((hit) => remap[hit.slot]));
    expect(index.search(['beta'], 10).map((hit) => hit.slot)).toEqual([0]);
    const added = index.add(words('beta'), []);
    expect(added).toBe(3);
  });

  it('weights repeated query terms', () => {
    const index = new Bm25Index(params);
    index.add(words('red'), []);
    index.add(words('blue'), []);
    expect(index.search(['red', 'blue', 'blue'], 10)[0]?.slot).toBe(1);
  });
});
