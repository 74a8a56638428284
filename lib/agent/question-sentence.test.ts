import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asks } from './question-sentence';

describe('asks', () => {
  it.each([
    'Yes No Criminal charges filed? If yes, against whom?',
    'Yes No Criminal charges filed?',
    'Were services provided to the family at the time?',
    'What happens if the deadline is missed?',
    'How do I reset my password? ',
    'Is the warranty transferable?”',
    'Qui peut demander une aide ?',
    'Wann endet die Frist?',
    '申请需要哪些材料？',
  ])('"%s" asks', (sentence) => {
    expect(asks(sentence)).toBe(true);
  });

  it.each([
    'The way to get new ideas is to notice anomalies: what seems strange, or missing, or broken?',
    'No criminal charges have been filed in this case.',
    'Applicants may ask: is the warranty transferable? It is not.',
    'The notice period is three months.',
    'Who is eligible is set out in section 4.',
  ])('"%s" states', (sentence) => {
    expect(asks(sentence)).toBe(false);
  });

  it('a sentence without a question mark never asks, whatever its first word', () => {
    fc.assert(
      fc.property(fc.constantFrom('What', 'Is', 'Yes', 'Wer', 'Qui', 'The'), fc.string(), (first, rest) => {
        const sentence = `${first} ${rest.replace(/[?？؟]/g, '')}.`;
        expect(asks(sentence)).toBe(false);
      }),
    );
  });
});
