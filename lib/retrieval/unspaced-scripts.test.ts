import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutUnspacedWords, wordsOf } from '@/lib/retrieval/unspaced-scripts';

describe('wordsOf', () => {
  it('splits unspaced runs into dictionary words and keeps other tokens whole', () => {
    expect(wordsOf('营业收入（元） | 4,755,785.11 | -16.55%')).toEqual([
      '营业',
      '收入',
      '元',
      '|',
      '4,755,785.11',
      '|',
      '-16.55%',
    ]);
    expect(wordsOf('ภาษาไทย and more')).toEqual(['ภาษา', 'ไทย', 'and', 'more']);
  });

  it('is a plain whitespace split for text without unspaced scripts', () => {
    const text = fc.string({ unit: fc.constantFrom('a', 'B', ' ', '\n', '1', '.', 'é', '서', 'д'), maxLength: 40 });
    fc.assert(
      fc.property(text, (value) => {
        expect(wordsOf(value)).toEqual(value.split(/\s+/).filter(Boolean));
      }),
    );
  });
});

describe('withoutUnspacedWords', () => {
  it('replaces the listed dictionary words by a separator, not characters inside other words', () => {
    const words = new Set(['是', '多少']);
    expect(withoutUnspacedWords('营业收入是多少?', words)).toBe('营业收入、、?');
    expect(withoutUnspacedWords('是否', words)).toBe('是否'); // 是否 is one word: its 是 stays
    expect(withoutUnspacedWords('How much is it?', words)).toBe('How much is it?');
  });
});
