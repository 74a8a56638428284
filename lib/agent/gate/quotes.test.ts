import { describe, expect, it } from 'vitest';
import { findQuotes } from './quotes';

const found = (text: string) => findQuotes(text).map((q) => [q.kind, q.text, text.slice(q.start, q.end)]);

describe('findQuotes', () => {
  it.each([
    ['He said "run it now" today', [['quote', 'run it now', '"run it now"']]],
    [
      '\u201Crun it\u201D and \u201Ezwei\u201C',
      [
        ['quote', 'run it', '\u201Crun it\u201D'],
        ['quote', 'zwei', '\u201Ezwei\u201C'],
      ],
    ],
    [
      '\u00AB text \u00BB and \u00BBback\u00AB',
      [
        ['quote', 'text', '\u00AB text \u00BB'],
        ['quote', 'back', '\u00BBback\u00AB'],
      ],
    ],
    ['\u2039one\u203A', [['quote', 'one', '\u2039one\u203A']]],
    ["It's 'not here' ok", [['quote', 'not here', "'not here'"]]],
    ["the users' and admins' files", []],
    ["'don't stop' now", [['quote', "don't stop", "'don't stop'"]]],
    ['\u2018don\u2019t stop\u2019 now', [['quote', 'don\u2019t stop', '\u2018don\u2019t stop\u2019']]],
    [
      'run `ls -la` or ``a `b` c``',
      [
        ['code', 'ls -la', '`ls -la`'],
        ['code', 'a `b` c', '``a `b` c``'],
      ],
    ],
    ['"across\na line"', [['quote', 'across\na line', '"across\na line"']]],
    ['"not\n\nacross a paragraph"', []],
    ['"outer `inner` text"', [['quote', 'outer `inner` text', '"outer `inner` text"']]],
    ['x" y "z', []],
    ['5" screen', []],
    ['" "', []],
    ['``', []],
    ['a ` ` b', []],
    ['`` a ``', [['code', 'a', '`` a ``']]],
    ['a"b"c', []],
    [
      '\u00ABone\u00BB\u00ABtwo\u00BB',
      [
        ['quote', 'one', '\u00ABone\u00BB'],
        ['quote', 'two', '\u00ABtwo\u00BB'],
      ],
    ],
  ])('case %#', (text, expected) => {
    expect(found(text)).toEqual(expected);
  });

  // Marks a reader takes for quotation marks are quotes: each is checked verbatim like "…".
  it.each([
    ['\u300Cheld\u300D', '\u300Cheld\u300D'],
    ['\u300Eheld\u300F', '\u300Eheld\u300F'],
    ['\u301Dheld\u301E', '\u301Dheld\u301E'],
    ['says \uFF02held\uFF02 [1]', '\uFF02held\uFF02'],
    ['says \u2033held\u2033 [1]', '\u2033held\u2033'],
    ['says \u02BAheld\u02BA [1]', '\u02BAheld\u02BA'],
    ['says \u05F4held\u05F4 [1]', '\u05F4held\u05F4'],
    ['says \uFF07held\uFF07 [1]', '\uFF07held\uFF07'],
    ['says \u201Aheld\u2018 [1]', '\u201Aheld\u2018'],
    ['says \u2E02held\u2E03 [1]', '\u2E02held\u2E03'],
    ['says <q>held</q> [1]', '<q>held</q>'],
    ['<blockquote cite="x">held</blockquote> [1]', '<blockquote cite="x">held</blockquote>'],
  ])('look-alike quotation marks %#', (text, whole) => {
    expect(found(text)).toEqual([['quote', 'held', whole]]);
  });

  it('keeps a prime after a digit a unit, and an apostrophe inside a curly quote part of it', () => {
    expect(found('a 5\u2033 screen and 6\u2032 cable')).toEqual([]);
    expect(found('\u201CIt\u2019s fine\u201D')).toEqual([['quote', 'It\u2019s fine', '\u201CIt\u2019s fine\u201D']]);
  });
});
