import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerOf,
  gatePasses,
  PERTURBATION_KINDS,
  perturb,
  toWords,
  worldArb,
} from '../../../test/support/agent/gate-property';

describe('trust gate properties (fast-check)', () => {
  it('accepts every unperturbed grounded answer, whatever form it restates its numbers and dates in', () => {
    fc.assert(
      fc.property(worldArb, (world) => {
        expect(gatePasses(world, answerOf(world))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  for (const kind of PERTURBATION_KINDS) {
    it(`catches every ${kind} perturbation`, () => {
      fc.assert(
        fc.property(worldArb, fc.nat(), fc.nat(), (world, pick, digit) => {
          const changed = perturb(world, kind, pick, digit);
          fc.pre(changed !== null);
          expect(gatePasses(world, changed as string)).toBe(false);
        }),
        { numRuns: 200 },
      );
    });
  }

  it('writes numbers in words', () => {
    expect(toWords(0)).toBe('zero');
    expect(toWords(42)).toBe('forty-two');
    expect(toWords(500)).toBe('five hundred');
    expect(toWords(219_007)).toBe('two hundred nineteen thousand seven');
  });
});
