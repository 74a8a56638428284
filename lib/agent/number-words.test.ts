import { describe, expect, it } from 'vitest';
import { holdsAnswerType } from './answer-type';
import { analyzeConstraints } from './constraints';
import { spelledNumbers } from './gate/spelled';
import { cardinalWord, NUMBER_WORD_ALTERNATION } from './number-words';

describe('number words (one table for the gate, the constraints and answer types)', () => {
  it('reads cardinal words in any case', () => {
    expect(cardinalWord('Twelve')).toBe(12);
    expect(cardinalWord('ninety')).toBe(90);
    expect(cardinalWord('hundred')).toBeUndefined();
  });

  it('the alternation matches whole number words, longest first', () => {
    const re = new RegExp(`^(?:${NUMBER_WORD_ALTERNATION})$`, 'i');
    for (const w of ['seventeen', 'sixty', 'six', 'dozen', 'trillion']) expect(re.test(w)).toBe(true);
    expect(re.test('sixt')).toBe(false);
  });

  it('the constraint analysis reads every count the gate reads', () => {
    expect(analyzeConstraints('Make at least twelve tool calls before answering.').minSearches).toBe(12);
    expect(spelledNumbers('twelve tool calls')[0]?.value).toBe(12);
  });

  it('a passage stating a count in words holds a quantity', () => {
    expect(holdsAnswerType('The board has seventeen members.', 'quantity', 'How many members?')).toBe(true);
    expect(holdsAnswerType('The board meets in spring.', 'quantity', 'How many members?')).toBe(false);
  });
});
