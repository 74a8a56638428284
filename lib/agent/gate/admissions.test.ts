import { describe, expect, it } from 'vitest';
import { admits, clauses } from './admissions';

describe('admits', () => {
  it.each([
    'The documents do not say how long tokens last.',
    'The provided sources do not cover rate limits.',
    'The documents I opened never mention it.',
    "The passage doesn't specify a timeout.",
    'The context cannot answer this.',
    'The documentation may not answer the question fully.',
    'The guides lack details on retries.',
    'They do not mention "zeppelin".',
    'It does not explicitly state the limit.',
    'The retry policy is not documented.',
    'Regional limits are not specified anywhere.',
    'There is no information about regions.',
    'I could not find a retention period.',
    'I cannot confirm this.',
    'Unable to determine the owner.',
    'Insufficient documentation: nothing covers it.',
    'There is nothing in the files about it.',
  ])('admits %#', (text) => {
    expect(admits(text)).toBe(true);
  });

  it.each([
    'The service does not cover EU regions.',
    'The documentation says deletions do not happen on weekends.',
    'The guide states that retries do not stop.',
    'Deletions are permanent.',
    'The gateway does not retry failed requests.',
    'It does not retry.',
  ])('does not admit %#', (text) => {
    expect(admits(text)).toBe(false);
  });

  it('counts the insufficiency phrase of the question', () => {
    expect(admits('Not in the docs: rate limits.', 'not in the docs')).toBe(true);
    expect(admits('Rate limits apply.', 'not in the docs')).toBe(false);
    expect(admits('Rate limits apply.', '  ')).toBe(false);
    expect(admits('Rate limits apply.', null)).toBe(false);
    // The phrase is compared without the spaces around it.
    expect(admits('Not in the docs.', '  not in the docs ')).toBe(true);
  });
});

describe('clauses', () => {
  it('splits at semicolons and contrast words, marking each clause', () => {
    expect(
      clauses('The documents do not cover regions, but premium accounts get retries; it is fast').map((c) => [
        c.text,
        c.admits,
      ]),
    ).toEqual([
      ['The documents do not cover regions', true],
      [' premium accounts get retries', false],
      [' it is fast', false],
    ]);
    expect(
      clauses('a however b although c whereas d while e yet f except that g nevertheless h instead i').length,
    ).toBe(9);
    expect(clauses('one clause only')).toEqual([{ text: 'one clause only', start: 0, end: 15, admits: false }]);
    expect(clauses('; lead')).toEqual([{ text: ' lead', start: 1, end: 6, admits: false }]);
    expect(clauses('a b;  ; c d').map((c) => c.text)).toEqual(['a b', ' c d']);
  });
});
