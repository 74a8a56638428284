import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stateWith } from '../../test/support/agent/state';
import {
  type AnswerSignals,
  answerSignals,
  CONFIDENCE_THRESHOLDS,
  CONTESTED_MARGIN,
  confidenceLabel,
  confidenceScore,
  fitThresholds,
  recordAnswerSignals,
} from './confidence';
import { computeConfidence } from './grounding';

const strong: AnswerSignals = {
  answerType: 'quantity',
  typeMatch: true,
  termCoverage: 1,
  sentenceCoverage: 1,
  attributeCoverage: 1,
  margin: 1,
  rivalMargin: 1,
  documents: 1,
  declined: false,
  table: true,
  slotNear: true,
};
const base = {
  validated: true,
  citations: 1,
  support: 1,
  insufficiencies: 0,
  injectionInContext: false,
  hedged: false,
};

describe('confidenceScore', () => {
  it('rises with the evidence: attribute and coverage matter, a missing type lowers it', () => {
    const weak = { ...strong, attributeCoverage: 0.5, sentenceCoverage: 0.5, table: false };
    expect(confidenceScore({ ...base, signals: strong })).toBeGreaterThan(confidenceScore({ ...base, signals: weak }));
    expect(confidenceScore({ ...base, signals: { ...strong, typeMatch: false } })).toBeLessThan(
      confidenceScore({ ...base, signals: strong }),
    );
  });
  it('a failed gate, a hedge and planted text each lower it', () => {
    const s = confidenceScore({ ...base, signals: strong });
    expect(confidenceScore({ ...base, signals: strong, validated: false })).toBeLessThan(s);
    expect(confidenceScore({ ...base, signals: strong, hedged: true })).toBeLessThan(s);
    expect(confidenceScore({ ...base, signals: strong, injectionInContext: true })).toBeLessThan(s);
  });
  it('a contested answer (a rival sentence from another document scores nearly as well) is never Medium', () => {
    const uncontested = confidenceScore({ ...base, signals: { ...strong, table: false } });
    expect(confidenceLabel(uncontested)).toBe('medium');
    const contested = confidenceScore({ ...base, signals: { ...strong, table: false, rivalMargin: 0.2 } });
    expect(confidenceLabel(contested)).toBe('low');
    // At and above the cut the rival does not count.
    const clear = confidenceScore({ ...base, signals: { ...strong, table: false, rivalMargin: CONTESTED_MARGIN } });
    expect(confidenceLabel(clear)).toBe('medium');
  });
  it('a contested answer stays below Medium whatever its other signals (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          s: fc.double({ min: 0, max: 1, noNaN: true }),
          a: fc.double({ min: 0, max: 1, noNaN: true }),
          m: fc.double({ min: 0, max: 1, noNaN: true }),
          r: fc.double({ min: 0, max: CONTESTED_MARGIN, maxExcluded: true, noNaN: true }),
          typed: fc.boolean(),
          table: fc.boolean(),
        }),
        (x) =>
          confidenceLabel(
            confidenceScore({
              ...base,
              signals: {
                ...strong,
                sentenceCoverage: x.s,
                attributeCoverage: x.a,
                margin: x.m,
                rivalMargin: x.r,
                typeMatch: x.typed,
                table: x.table,
              },
            }),
          ) === 'low',
      ),
    );
  });
  it('a decline stays at the bottom of the scale', () => {
    const d = confidenceScore({ ...base, citations: 0, signals: { ...strong, declined: true, attributeCoverage: 0 } });
    expect(confidenceLabel(d)).toBe('low');
  });
  it('stays within 0-1 for any signals (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          t: fc.double({ min: 0, max: 1, noNaN: true }),
          s: fc.double({ min: 0, max: 1, noNaN: true }),
          a: fc.double({ min: 0, max: 1, noNaN: true }),
          m: fc.double({ min: 0, max: 1, noNaN: true }),
          sup: fc.double({ min: 0, max: 1, noNaN: true }),
          typed: fc.boolean(),
          declined: fc.boolean(),
          validated: fc.boolean(),
        }),
        (x) => {
          const v = confidenceScore({
            ...base,
            validated: x.validated,
            support: x.sup,
            signals: {
              ...strong,
              termCoverage: x.t,
              sentenceCoverage: x.s,
              attributeCoverage: x.a,
              margin: x.m,
              typeMatch: x.typed,
              declined: x.declined,
            },
          });
          return v >= 0 && v <= 1;
        },
      ),
    );
  });
});

describe('confidenceLabel and fitThresholds', () => {
  it('cuts the score with the thresholds', () => {
    expect(confidenceLabel(0.95, { high: 0.9, medium: 0.6 })).toBe('high');
    expect(confidenceLabel(0.7, { high: 0.9, medium: 0.6 })).toBe('medium');
    expect(confidenceLabel(0.2, { high: 0.9, medium: 0.6 })).toBe('low');
    expect(CONFIDENCE_THRESHOLDS.high).toBeGreaterThan(CONFIDENCE_THRESHOLDS.medium);
  });
  it('fits the smallest thresholds that reach the wanted precision', () => {
    const samples = [
      ...Array.from({ length: 40 }, () => ({ score: 0.95, correct: true })),
      ...Array.from({ length: 40 }, (_, i) => ({ score: 0.6, correct: i < 34 })),
      ...Array.from({ length: 40 }, (_, i) => ({ score: 0.2, correct: i < 8 })),
    ];
    expect(fitThresholds(samples)).toEqual({ high: 0.95, medium: 0.6 });
  });
  it('a small lucky band does not set a threshold', () => {
    const samples = [
      ...Array.from({ length: 3 }, () => ({ score: 0.9, correct: true })),
      ...Array.from({ length: 30 }, (_, i) => ({ score: 0.5, correct: i % 2 === 0 })),
    ];
    expect(fitThresholds(samples).high).toBeGreaterThan(1);
  });
  it('labels nothing High when no band is precise enough', () => {
    const samples = Array.from({ length: 20 }, (_, i) => ({ score: i / 20, correct: i % 2 === 0 }));
    expect(fitThresholds(samples).high).toBeGreaterThan(1);
  });
});

describe('computeConfidence', () => {
  it('uses the answer stage signals when there are some', async () => {
    const state = stateWith({ question: 'How many requests per minute?', opened: [] });
    expect(answerSignals(state)).toBeNull();
    recordAnswerSignals(state, { ...strong, declined: true, attributeCoverage: 0 });
    const label = computeConfidence({
      validated: true,
      citations: 0,
      support: 1,
      insufficiencies: 1,
      answer: 'Insufficient documentation: nothing found.',
      injectionInContext: false,
      signals: answerSignals(state),
    });
    expect(label).toBe('low');
  });
});
