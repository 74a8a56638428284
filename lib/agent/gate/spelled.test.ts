import { describe, expect, it } from 'vitest';
import { spelledNumbers } from './spelled';

const values = (text: string) => spelledNumbers(text).map((s) => [text.slice(s.start, s.end), s.value]);

describe('spelledNumbers', () => {
  it.each([
    ['five hundred users', [['five hundred', 500]]],
    ['twenty-one days', [['twenty-one', 21]]],
    ['twenty one days', [['twenty one', 21]]],
    ['two thousand and five', [['two thousand and five', 2005]]],
    ['three million', [['three million', 3_000_000]]],
    ['one hundred and twenty', [['one hundred and twenty', 120]]],
    ['a hundred', [['a hundred', 100]]],
    ['a dozen eggs', [['a dozen', 12]]],
    ['two dozen', [['two dozen', 24]]],
    ['a thousand', [['a thousand', 1000]]],
    ['one point five', [['one point five', 1.5]]],
    ['about one point nine', [['one point nine', 1.9]]],
    [
      'two point ten',
      [
        ['two', 2],
        ['ten', 10],
      ],
    ],
    ['the seven days', [['seven', 7]]],
    ['two point', [['two', 2]]],
    ['zero', [['zero', 0]]],
    [
      'nineteen ninety',
      [
        ['nineteen', 19],
        ['ninety', 90],
      ],
    ],
    [
      'five six',
      [
        ['five', 5],
        ['six', 6],
      ],
    ],
    ['one of them', []],
    ['the constructor toString valueOf hasOwnProperty', []],
    ['a cat', []],
    ['and two', [['two', 2]]],
    ['two and', [['two', 2]]],
    ['seven billion people', [['seven billion', 7e9]]],
    ['four trillion', [['four trillion', 4e12]]],
    ['hundred', []],
    ['thousand', []],
    ['Fifty Five', [['Fifty Five', 55]]],
    ['twenty, five', []],
    ['three hundred thousand', [['three hundred thousand', 300_000]]],
    [
      'eleven twelve',
      [
        ['eleven', 11],
        ['twelve', 12],
      ],
    ],
    [
      'sixty seventy',
      [
        ['sixty', 60],
        ['seventy', 70],
      ],
    ],
    ['one hundred one', [['one hundred one', 101]]],
    [
      'twenty ten',
      [
        ['twenty', 20],
        ['ten', 10],
      ],
    ],
    ['one point five users', [['one point five', 1.5]]],
    [
      'five cats six dogs',
      [
        ['five', 5],
        ['six', 6],
      ],
    ],
    ['It took five hundred days.', [['five hundred', 500]]],
  ])('case %#', (text, expected) => {
    expect(values(text)).toEqual(expected);
  });
});

describe('spelledNumbers: values stated without a cardinal', () => {
  it.each([
    ['two thirds of users', [['two thirds', 2 / 3]]],
    ['three quarters of the votes', [['three quarters', 0.75]]],
    ['one-tenth of it', [['one-tenth', 0.1]]],
    ['a quarter of it', [['a quarter', 0.25]]],
    ['a half', [['a half', 0.5]]],
    ['one and a half hours', [['one and a half', 1.5]]],
    ['two and a half hours', [['two and a half', 2.5]]],
    ['retry after half a minute', [['half', 0.5]]],
    ['the fourth Tuesday', [['fourth', 4]]],
    ['the twenty-third day', [['twenty-third', 23]]],
    [
      'twice a year, thrice a day',
      [
        ['twice', 2],
        ['thrice', 3],
      ],
    ],
    [
      'a tenfold rise, a twofold gap, a hundredfold cost, a thousandfold',
      [
        ['tenfold', 10],
        ['twofold', 2],
        ['hundredfold', 100],
        ['thousandfold', 1000],
      ],
    ],
    ['a ten-fold rise', [['ten', 10]]],
    [
      'it doubled; they triple the limit',
      [
        ['doubled', 2],
        ['triple', 3],
      ],
    ],
  ])('%s', (text, expected) => {
    expect(values(text)).toEqual(expected);
  });

  it.each([
    'first and second steps',
    'five seconds',
    'use double quotes',
    'third-party tools and a half-open circuit',
    'Third, restart the service.',
    'on behalf of users',
    'a manifold of folds, unfold it',
  ])('no value in "%s"', (text) => {
    expect(values(text).filter(([, v]) => v !== 5)).toEqual([]);
  });
});
