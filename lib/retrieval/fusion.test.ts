import { describe, expect, it } from 'vitest';
import { RRF_K, reciprocalRankFusion } from '@/lib/retrieval/fusion';

describe('reciprocalRankFusion', () => {
  it('scores by 1/(60+rank) summed over lists', () => {
    const fused = reciprocalRankFusion([
      ['a', 'b', 'c'],
      ['c', 'a'],
    ]);
    expect(fused.map((c) => c.id)).toEqual(['a', 'c', 'b']);
    expect(fused[0]?.score).toBeCloseTo(1 / (RRF_K + 1) + 1 / (RRF_K + 2), 12);
    expect(fused[0]?.ranks).toEqual([1, 2]);
    expect(fused[1]?.ranks).toEqual([3, 1]);
    expect(fused[2]?.ranks).toEqual([2, null]);
  });

  it('prefers an id found by both modes over one ranked first by a single mode', () => {
    const keyword = ['only-keyword', 'both'];
    const semantic = ['only-semantic', 'both'];
    expect(reciprocalRankFusion([keyword, semantic])[0]?.id).toBe('both');
  });

  it('breaks ties by best rank, then first appearance, deterministically', () => {
    const fused = reciprocalRankFusion([
      ['x', 'y'],
      ['y', 'x'],
    ]);
    expect(fused.map((c) => c.id)).toEqual(['x', 'y']);
    expect(reciprocalRankFusion([['p'], ['q']]).map((c) => c.id)).toEqual(['p', 'q']);
  });

  it('counts a duplicate inside one list once, at its best rank', () => {
    const fused = reciprocalRankFusion([['a', 'a', 'b']]);
    expect(fused.map((c) => c.id)).toEqual(['a', 'b']);
    expect(fused[0]?.score).toBeCloseTo(1 / 61, 12);
    expect(fused[1]?.score).toBeCloseTo(1 / 63, 12);
  });

  it('applies limit and a custom k', () => {
    const fused = reciprocalRankFusion([['a', 'b', 'c']], { k: 0, limit: 2 });
    expect(fused.map((c) => c.score)).toEqual([1, 0.5]);
    expect(reciprocalRankFusion([['a']], { limit: 0 })).toEqual([]);
  });

  it('handles empty input and rejects a negative k', () => {
    expect(reciprocalRankFusion([])).toEqual([]);
    expect(reciprocalRankFusion([[], []])).toEqual([]);
    expect(() => reciprocalRankFusion([['a']], { k: -1 })).toThrow(RangeError);
  });
});
