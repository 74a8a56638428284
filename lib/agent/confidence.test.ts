import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument } from '../../test/support/agent/fixtures';
import { stateWith } from '../../test/support/agent/state';
import type { IndexedChunk } from '../retrieval/types';
import { type AnswerFit, answerFit } from './answer-fit';
import {
  type AnswerSignals,
  answerSignals,
  CONFIDENCE_THRESHOLDS,
  CONTESTED_MARGIN,
  certifiedHigh,
  confidenceLabel,
  confidenceScore,
  extractiveConfidence,
  FIT_DOUBT_PENALTY,
  fitThresholds,
  HIGH_RULE,
  MEDIUM_RULE,
  recordAnswerSignals,
  singledOut,
} from './confidence';
import { extractiveAnswer } from './extractive';
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
/** Fit signals that doubt nothing (lib/agent/answer-fit.ts). */
const quiet: AnswerFit = {
  polarityMismatch: false,
  namesElsewhere: 0,
  namesMissing: 0,
  valueRebound: false,
  placeMissing: false,
  spread: false,
  termsMissing: 0,
  oneSentenceShare: 1,
  degreeMissing: false,
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

describe('a value question over a book whose title heads every chunk', () => {
  const book = makeDocument({ filename: 'alpine-rambles.epub', title: 'Alpine Rambles' });
  const chapter = makeChunk(
    book,
    3,
    'It is the finest proof of his wit that all he ever wrote meant something. ' +
      'On such rambles we learnt that when the weather turns warm and wet in the valley, the Föhn is blowing.',
    { headingPath: 'ALPINE RAMBLES > CHAPTER I THE WALKER', contextPrefix: 'Alpine Rambles — CHAPTER I THE WALKER' },
  );
  const titlePage = makeChunk(book, 0, 'Title: Alpine Rambles\n\nAuthor: Edith Marlowe\n\nRelease date: May 3, 2019', {
    headingPath: 'ALPINE RAMBLES',
  });
  const label = (question: string, opened: IndexedChunk[]) => {
    const state = stateWith({ question, opened });
    const answer = extractiveAnswer(state, 'concise');
    const cited = (answer.answer.match(/\[\d+\]/g) ?? []).length;
    return computeConfidence({
      validated: true,
      citations: cited,
      support: 1,
      insufficiencies: answer.insufficiencies.length,
      answer: answer.answer,
      injectionInContext: false,
      signals: answerSignals(state),
    });
  };

  it('must be Low: "Who wrote …?" answered by a sentence that says "wrote" but names nobody next to it', () => {
    // both sentences are quoted (the title stands in the heading, "rambles" in the second); the name is not by "wrote"
    expect(label('Who wrote Alpine Rambles?', [chapter])).toBe('low');
  });

  it('must not be lowered: the value stands next to the asked words', () => {
    expect(label('When was Alpine Rambles released?', [titlePage])).not.toBe('low');
  });
});

describe('the High rule (certifiedHigh, extractiveConfidence)', () => {
  // A prose answer (no table bonus) whose sentence says the whole question and that no other document contests.
  const prose: AnswerSignals = { ...strong, answerType: 'other', table: false };
  const high = (signals: AnswerSignals, over: Partial<typeof base> = {}) =>
    extractiveConfidence({ ...base, ...over, signals });

  it('must be High: an uncontested typed, table or prose answer that covers the question', () => {
    expect(high(strong)).toBe('high');
    expect(high(prose)).toBe('high');
    expect(high({ ...prose, answerType: 'date', table: false })).toBe('high');
    expect(high({ ...prose, answerType: 'entity' })).toBe('high');
    // exactly at the cuts
    expect(high({ ...strong, sentenceCoverage: HIGH_RULE.sentenceCoverage, rivalMargin: HIGH_RULE.rivalMargin })).toBe(
      'high',
    );
  });

  it('must not be High: a rival from another document within a twentieth, or a sentence that misses the question', () => {
    expect(high({ ...prose, rivalMargin: 0.94 })).toBe('medium');
    expect(high({ ...strong, rivalMargin: 0.8 })).toBe('medium');
    // below the Medium rule's margin as well: Low
    expect(high({ ...strong, rivalMargin: 0.5 })).toBe('low');
    expect(high({ ...strong, sentenceCoverage: 0.79 })).not.toBe('high');
  });

  it('must not be High or Medium: the same document states the asked attribute with another value (a conflict)', () => {
    for (const signals of [strong, prose, { ...prose, answerType: 'quantity' as const }]) {
      expect(high({ ...signals, conflict: true })).toBe('low');
      expect(singledOut({ ...signals, conflict: true })).toBe(false);
      expect(high({ ...signals, conflict: false })).toBe('high');
    }
  });

  it('must not be High or Medium: a quoted sentence cut off after the title of a name', () => {
    for (const signals of [prose, { ...prose, answerType: 'entity' as const }]) {
      expect(high({ ...signals, cutName: true })).toBe('low');
      expect(singledOut({ ...signals, cutName: true })).toBe(false);
      expect(high({ ...signals, cutName: false })).toBe('high');
    }
  });

  it('must not be High or Medium: the asked attribute is said only by the heading over a section of several sentences', () => {
    for (const signals of [prose, { ...prose, answerType: 'quantity' as const }]) {
      expect(high({ ...signals, sectionChoice: true })).toBe('low');
      expect(singledOut({ ...signals, sectionChoice: true })).toBe(false);
      expect(high({ ...signals, sectionChoice: false })).toBe('high');
    }
  });

  it('must not be High or Medium: a value question whose quoted sentences hold no value next to its words', () => {
    // "Who wrote …?" answered by one sentence saying "wrote" and another holding a name far from the question's words
    for (const answerType of ['entity', 'date', 'quantity'] as const) {
      const apart = { ...prose, answerType, slotNear: false, fit: quiet };
      expect(high(apart), answerType).toBe('low');
      expect(singledOut(apart), answerType).toBe(false);
      expect(high({ ...apart, slotNear: true }), answerType).toBe('high');
    }
    // a table cell is read where its row meets its column; an open question has no slot to fill
    expect(high({ ...strong, slotNear: false })).toBe('high');
    expect(high({ ...prose, slotNear: false })).toBe('high');
  });

  it('must not be High: a definition or a procedure, whose completeness the words cannot show', () => {
    expect(high({ ...prose, answerType: 'definition' })).toBe('medium');
    expect(high({ ...prose, answerType: 'procedure' })).not.toBe('high');
    expect(high({ ...prose, openSpan: true })).toBe('medium');
    expect(high({ ...prose, openSpan: false })).toBe('high');
  });

  it('must not be High: a declined, hedged, partly declined, ungated or planted-text answer', () => {
    expect(high({ ...strong, declined: true })).toBe('low');
    expect(high(strong, { hedged: true })).not.toBe('high');
    expect(high(strong, { insufficiencies: 1 })).not.toBe('high');
    expect(high(strong, { validated: false })).not.toBe('high');
    expect(high(strong, { injectionInContext: true })).not.toBe('high');
    expect(high(strong, { citations: 0 })).not.toBe('high');
    expect(certifiedHigh({ ...base, signals: null })).toBe(false);
  });

  it('never raises a Low score: High is a subset of what the score calls Medium (property)', () => {
    fc.assert(
      fc.property(
        fc.record({
          s: fc.double({ min: 0, max: 1, noNaN: true }),
          a: fc.double({ min: 0, max: 1, noNaN: true }),
          r: fc.double({ min: 0, max: 1, noNaN: true }),
          sup: fc.double({ min: 0, max: 1, noNaN: true }),
          type: fc.constantFrom(
            'quantity' as const,
            'date' as const,
            'entity' as const,
            'yesno' as const,
            'definition' as const,
            'procedure' as const,
            'other' as const,
          ),
          typed: fc.boolean(),
          table: fc.boolean(),
          hedged: fc.boolean(),
        }),
        (x) => {
          const input = {
            ...base,
            support: x.sup,
            hedged: x.hedged,
            signals: {
              ...strong,
              answerType: x.type,
              sentenceCoverage: x.s,
              attributeCoverage: x.a,
              rivalMargin: x.r,
              typeMatch: x.typed,
              table: x.table,
            },
          };
          const byScore = confidenceLabel(confidenceScore(input));
          const label = extractiveConfidence(input);
          if (label === 'high') {
            expect(byScore).toBe('medium');
            expect(x.s).toBeGreaterThanOrEqual(HIGH_RULE.sentenceCoverage);
            expect(x.r).toBeGreaterThanOrEqual(HIGH_RULE.rivalMargin);
            expect(['definition', 'procedure']).not.toContain(x.type);
            expect(x.hedged).toBe(false);
          } else if (label !== byScore) {
            // the Medium rule lowers a Medium score whose evidence does not single out one statement
            expect([byScore, label]).toEqual(['medium', 'low']);
            expect(singledOut(input.signals)).toBe(false);
          }
        },
      ),
    );
  });

  it('must not be High nor Medium: an answer the fit signals doubt (a denial, another noun’s value, no place)', () => {
    for (const doubt of [
      { polarityMismatch: true },
      { degreeMissing: true },
      { valueRebound: true },
      { placeMissing: true },
      { spread: true },
    ]) {
      const signals = { ...strong, fit: { ...quiet, ...doubt } };
      expect(certifiedHigh({ ...base, signals })).toBe(false);
      expect(high(signals)).toBe('low');
      // the penalty takes even the highest raw score (1.05) under the Medium threshold
      expect(confidenceScore({ ...base, signals })).toBeCloseTo(1.05 - FIT_DOUBT_PENALTY);
      expect(confidenceScore({ ...base, signals })).toBeLessThan(CONFIDENCE_THRESHOLDS.medium);
    }
  });

  it('the name and term shares alone do not doubt an answer (a name said in a title is said)', () => {
    expect(high({ ...strong, fit: { ...quiet, namesMissing: 2, namesElsewhere: 1, termsMissing: 0.4 } })).toBe('high');
    expect(high({ ...strong, fit: quiet })).toBe('high');
    expect(high({ ...strong, fit: undefined })).toBe('high');
  });

  it('a doubt never raises a label (property)', () => {
    const rank = { low: 0, medium: 1, high: 2 } as const;
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.record({
          polarityMismatch: fc.boolean(),
          degreeMissing: fc.boolean(),
          valueRebound: fc.boolean(),
          placeMissing: fc.boolean(),
          spread: fc.boolean(),
        }),
        (s, a, r, doubts) => {
          const signals = { ...strong, sentenceCoverage: s, attributeCoverage: a, rivalMargin: r };
          const before = extractiveConfidence({ ...base, signals: { ...signals, fit: quiet } });
          const after = extractiveConfidence({ ...base, signals: { ...signals, fit: { ...quiet, ...doubts } } });
          expect(rank[after]).toBeLessThanOrEqual(rank[before]);
          if (Object.values(doubts).some(Boolean)) expect(after).toBe('low');
        },
      ),
    );
  });

  it('computeConfidence labels an extractive answer with the rule', () => {
    const args = {
      validated: true,
      citations: 1,
      support: 1,
      insufficiencies: 0,
      answer: 'Maple Leafs, Stanley Cups: 13 [1]',
      injectionInContext: false,
    };
    expect(computeConfidence({ ...args, signals: strong })).toBe('high');
    expect(computeConfidence({ ...args, signals: { ...strong, rivalMargin: 0.8 } })).toBe('medium');
    expect(computeConfidence({ ...args, signals: { ...strong, rivalMargin: 0.5 } })).toBe('low');
    // a partly declined compound answer admits a gap in its text
    expect(
      computeConfidence({
        ...args,
        answer: `${args.answer}\nInsufficient documentation: the passages found do not answer this part of the question.`,
        signals: strong,
      }),
    ).not.toBe('high');
  });
});

describe('the Medium rule (singledOut, MEDIUM_RULE)', () => {
  // A prose answer below the High rule's margin: the score calls it Medium, the High rule does not certify it.
  const prose: AnswerSignals = { ...strong, answerType: 'other', table: false, rivalMargin: 0.8, fit: quiet };
  const label = (signals: AnswerSignals) => extractiveConfidence({ ...base, signals });
  const rank = { low: 0, medium: 1, high: 2 } as const;

  it('must be Medium: one sentence holds the question and no other document’s sentence comes within 30%', () => {
    expect(label(prose)).toBe('medium');
    // exactly at the cuts
    const atCuts = { rivalMargin: MEDIUM_RULE.rivalMargin, fit: { ...quiet, oneSentenceShare: 0.9 } };
    expect(label({ ...prose, ...atCuts })).toBe('medium');
    // a table cell has no sentence to judge; an answer without fit signals is judged by its sentence coverage
    expect(label({ ...prose, table: true, fit: undefined, sentenceCoverage: 0.85 })).toBe('medium');
    expect(label({ ...prose, fit: undefined, sentenceCoverage: 0.95 })).toBe('medium');
  });

  it('must be Low: a rival within 30%, or the question’s words gathered from several sentences', () => {
    expect(label({ ...prose, rivalMargin: 0.69 })).toBe('low');
    expect(label({ ...prose, table: true, rivalMargin: 0.69 })).toBe('low');
    expect(label({ ...prose, fit: { ...quiet, oneSentenceShare: 0.89 } })).toBe('low');
    expect(label({ ...prose, fit: undefined, sentenceCoverage: 0.85 })).toBe('low');
    // the score still calls them Medium: the rule, not the score, lowers them
    expect(confidenceLabel(confidenceScore({ ...base, signals: { ...prose, rivalMargin: 0.69 } }))).toBe('medium');
  });

  it('must be Low: an answer whose question words come from two sentences (the fit signal read from real text)', () => {
    const fit = answerFit('What did Microsoft announce that it would rename OneDrive to?', [
      {
        text: 'On 31 July 2013, Microsoft announced that it will rename its SkyDrive cloud storage service.',
        context: '',
        source: 'p',
        start: 0,
      },
      { text: 'On 27 January 2014, SkyDrive became OneDrive.', context: '', source: 'p', start: 95 },
    ]);
    expect(fit.oneSentenceShare).toBeLessThan(MEDIUM_RULE.oneSentenceShare);
    expect(label({ ...prose, fit })).toBe('low');
  });

  it('does not touch High or Low: a certified answer stays High, a Low score stays Low', () => {
    expect(label({ ...strong, fit: { ...quiet, oneSentenceShare: 0.5 } })).toBe('high');
    expect(label({ ...prose, attributeCoverage: 0, sentenceCoverage: 0.2 })).toBe('low');
    expect(singledOut({ ...prose, rivalMargin: 1 })).toBe(true);
  });

  it('more support never lowers the label: a larger rival margin or one-sentence share (property)', () => {
    const share = fc.double({ min: 0, max: 1, noNaN: true });
    fc.assert(
      fc.property(
        fc.record({
          s: share,
          a: share,
          r: share,
          o: share,
          dr: share,
          do: share,
          table: fc.boolean(),
          fit: fc.boolean(),
          hedged: fc.boolean(),
          type: fc.constantFrom('quantity' as const, 'entity' as const, 'definition' as const, 'other' as const),
        }),
        (x) => {
          const at = (r: number, o: number) =>
            extractiveConfidence({
              ...base,
              hedged: x.hedged,
              signals: {
                ...strong,
                answerType: x.type,
                sentenceCoverage: x.s,
                attributeCoverage: x.a,
                rivalMargin: r,
                table: x.table,
                fit: x.fit ? { ...quiet, oneSentenceShare: o } : undefined,
              },
            });
          const more = at(Math.min(1, x.r + x.dr), Math.min(1, x.o + x.do));
          expect(rank[more]).toBeGreaterThanOrEqual(rank[at(x.r, x.o)]);
        },
      ),
    );
  });
});
