import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '@/lib/retrieval/analyzer';
import { holds } from './extractive-select';
import { statesOtherValue, valuesNear } from './value-conflict';

const Q = 'How many full-page illustrations in colour does the book have?';
const line = (text: string) => ({ text, terms: new Set(analyze(text)) });
const attributes = analyze('full page illustrations colour');
const conflict = (answer: string, others: string[], question = Q) =>
  statesOtherValue({
    answer: [line(answer)],
    others: others.map(line),
    attributes,
    question,
    analyzeWord: analyze,
    window: 8,
    holds,
  });

describe('conflicting values of the asked attribute', () => {
  it('valuesNear: the numbers next to the asked words, not the question’s own, not far away', () => {
    const terms = new Set(analyze('illustrations'));
    expect([...valuesNear('With 28 Illustrations in Colour', terms, Q, analyze, 8)]).toEqual(['28']);
    expect(
      valuesNear('In 1913 the firm moved to a new street in the city; it printed illustrations', terms, Q, analyze, 3)
        .size,
    ).toBe(0);
    expect(valuesNear('12 illustrations', terms, 'Are there 12 illustrations?', analyze, 8).size).toBe(0);
  });

  it('a title-page line with another number than the quoted advertisement conflicts with it', () => {
    expect(
      conflict('With 28 Full-page Illustrations in Colour and 17 in Black and White by Miss E. M. B. Warren.', [
        'WITH 12 FULL-PAGE ILLUSTRATIONS IN COLOUR BY',
      ]),
    ).toBe(true);
  });

  it('no conflict: the same value repeated, a line missing the asked words, a line without a number', () => {
    const answer = 'With 12 Full-page Illustrations in Colour.';
    expect(conflict(answer, ['WITH 12 FULL-PAGE ILLUSTRATIONS IN COLOUR BY'])).toBe(false);
    expect(conflict(answer, ['With 252 Illustrations, including 24 in black and white'])).toBe(false);
    expect(conflict(answer, ['The full-page illustrations in colour are by C. Fleming Williams.'])).toBe(false);
    expect(conflict(answer, [])).toBe(false);
    // the quoted sentence itself is no rival
    expect(conflict(answer, [answer])).toBe(false);
  });

  it('property: a sentence never conflicts with a copy of itself, and a different number next to the same words does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 999 }), fc.integer({ min: 2, max: 999 }), (a, b) => {
        const s = `The book has ${a} full-page illustrations in colour.`;
        expect(conflict(s, [s])).toBe(false);
        expect(conflict(s, [`It holds ${b} full-page illustrations in colour.`])).toBe(a !== b);
      }),
    );
  });
});
