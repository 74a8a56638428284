import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fittedOn, halves, type Judged, pooledReliability, reliability } from './reliability';

const judged = (ok: boolean, confidenceScore: number, confidence: Judged['confidence'] = 'low'): Judged => ({
  ok,
  confidence,
  confidenceScore,
});

describe('calibration bookkeeping', () => {
  it('splits by position: even positions fit, odd positions are held out', () => {
    expect(halves(['a', 'b', 'c', 'd', 'e'])).toEqual({ fit: ['a', 'c', 'e'], held: ['b', 'd'] });
    fc.assert(
      fc.property(fc.array(fc.integer()), (xs) => {
        const { fit, held } = halves(xs);
        expect(fit.length + held.length).toBe(xs.length);
        expect(fit.length - held.length).toBeGreaterThanOrEqual(0);
        expect(fit.length - held.length).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('reads the reliability table on the held-out half only', () => {
    // fitting positions (even) are all High and right; the held-out ones decide the table
    const outcomes = [
      judged(true, 1, 'high'),
      judged(false, 0.9, 'medium'),
      judged(true, 1, 'high'),
      judged(true, 0.85, 'medium'),
      judged(true, 1, 'high'),
      judged(false, 0.2, 'low'),
    ];
    const r = reliability(outcomes);
    expect(r.high).toHaveLength(0);
    expect(r.medium).toHaveLength(2);
    expect(r.share(r.medium)).toBe(50);
    expect(r.low).toHaveLength(1);
    expect(r.share(r.low)).toBe(0);
    expect(r.share([])).toBe(0);
  });

  it('fits thresholds on the fitting halves only, never on held-out answers', () => {
    // held-out answers (odd positions) are all right at high scores; the fitting ones are wrong: no High band
    const run = Array.from({ length: 80 }, (_, i) => judged(i % 2 === 1, 0.95));
    expect(fittedOn([run]).high).toBeGreaterThan(1);
    // the same answers with the halves swapped do support a High band at 0.95
    const swapped = Array.from({ length: 80 }, (_, i) => judged(i % 2 === 0, 0.95));
    expect(fittedOn([swapped]).high).toBe(0.95);
  });

  it('pools the fitting halves of several runs, each split by its own positions', () => {
    // 10 right answers per run on the fitting half: too few alone for a Wilson bound >= 0.9, enough together
    const run = Array.from({ length: 20 }, (_, i) => judged(i % 2 === 0, 0.97));
    expect(fittedOn([run]).high).toBeGreaterThan(1);
    expect(fittedOn([run, run]).high).toBe(0.97);
  });

  it('pools the held-out halves of several runs, each split by its own positions', () => {
    // run a: held-out High right; run b (odd length): its fitting answers are High and wrong, its held-out one is High
    // and right, so neither the concatenation's positions nor a fitting answer may enter the table
    const a = [
      judged(false, 1, 'high'),
      judged(true, 1, 'high'),
      judged(false, 0.9, 'medium'),
      judged(true, 1, 'high'),
    ];
    const b = [judged(false, 1, 'high'), judged(true, 1, 'high'), judged(false, 1, 'high')];
    const held = pooledReliability([a, b]);
    expect(held.high).toHaveLength(3);
    expect(held.share(held.high)).toBe(100);
    expect(held.medium).toHaveLength(0);
    const fit = pooledReliability([a, b], 'fit');
    expect(fit.high).toHaveLength(3);
    expect(fit.share(fit.high)).toBe(0);
    expect(fit.medium).toHaveLength(1);
  });
});
