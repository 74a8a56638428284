import { describe, expect, it } from 'vitest';
import { dateWindows, evidenceKeys, grounded, type NumberMention, numberMentions } from './numbers';

const mentions = (text: string) => numberMentions(text).map((m) => [m.raw, m.keys]);

describe('numberMentions', () => {
  it.each([
    ['after 5s', [['5', ['n:5']]]],
    [
      '10GB and 5MB',
      [
        ['10', ['n:10']],
        ['5', ['n:5']],
      ],
    ],
    ['1.5k rows', [['1.5k', ['n:1500']]]],
    ['2K users', [['2K', ['n:2000']]]],
    [
      '2M rows, 3B events',
      [
        ['2M', ['n:2000000']],
        ['3B', ['n:3000000000']],
      ],
    ],
    [
      '4 bn and 5 mn',
      [
        ['4 bn', ['n:4000000000']],
        ['5 mn', ['n:5000000']],
      ],
    ],
    [
      '1.5 million, 2 thousand, 3 billion, 1 trillion',
      [
        ['1.5 million', ['n:1500000']],
        ['2 thousand', ['n:2000']],
        ['3 billion', ['n:3000000000']],
        ['1 trillion', ['n:1000000000000']],
      ],
    ],
    [
      '1,500 and 1,500,000',
      [
        ['1,500', ['n:1500']],
        ['1,500,000', ['n:1500000']],
      ],
    ],
    [
      "1'500 and 2\u00A0000",
      [
        ["1'500", ['n:1500']],
        ['2\u00A0000', ['n:2000']],
      ],
    ],
    [
      '1,5 and 0.75',
      [
        ['1,5', ['n:1.5', 'v:1.5']],
        ['0.75', ['n:0.75', 'v:0.75']],
      ],
    ],
    ['1,2345', [['1,2345', ['n:1.2345', 'v:1.2345']]]],
    [
      '30% or 30 %',
      [
        ['30', ['n:30', 'p:30']],
        ['30', ['n:30', 'p:30']],
      ],
    ],
    ['about five hundred users', [['five hundred', ['n:500']]]],
    [
      '1.500 and 1,50',
      [
        ['1.500', ['n:1.5', 'v:1.500']],
        ['1,50', ['n:1.5', 'v:1.50']],
      ],
    ],
    ["1'500,25", [["1'500,25", ['n:1500.25', 'v:1500.25']]]],
    [
      '5 and 02:00',
      [
        ['5', ['n:5']],
        ['02:00', ['t:2:00']],
      ],
    ],
    [
      '10-20 and 10\u201320',
      [
        ['10', ['n:10']],
        ['20', ['n:20']],
        ['10', ['n:10']],
        ['20', ['n:20']],
      ],
    ],
    // A dash glued to the digits, not after a digit, is a minus sign; after a digit it makes a range.
    ['-5 degrees', [['5', ['n:-5']]]],
    [
      'drops to \u22125 (or \uFF0D5)',
      [
        ['5', ['n:-5']],
        ['5', ['n:-5']],
      ],
    ],
    [
      'from 10 - 20 or x-5',
      [
        ['10', ['n:10']],
        ['20', ['n:20']],
        ['5', ['n:5']],
      ],
    ],
    ['IPv4, x86_64, SHA256, pg_stat2', []],
    ['HTTP/2', [['2', ['n:2']]]],
    [
      '1st and 22nd',
      [
        ['1', ['n:1']],
        ['22', ['n:22']],
      ],
    ],
  ])('case %#', (text, expected) => {
    expect(mentions(text)).toEqual(expected);
  });

  it('reads versions and dotted identifiers exactly', () => {
    expect(mentions('v2.3.1, 1.4.2, V3, v2.3 and 10.0.0.1')).toEqual([
      ['v2.3.1', ['v:2.3.1']],
      ['1.4.2', ['v:1.4.2']],
      ['V3', ['v:3', 'n:3']],
      ['v2.3', ['v:2.3', 'n:2.3']],
      ['10.0.0.1', ['v:10.0.0.1']],
    ]);
  });

  it('reads times in 24-hour form', () => {
    expect(mentions('02:00-04:00, 14:30:15, 9:05:00, 2 pm, 2pm, 12 am, 12 pm, 11 a.m., 1:30 PM')).toEqual([
      ['02:00', ['t:2:00']],
      ['04:00', ['t:4:00']],
      ['14:30:15', ['t:14:30:15']],
      ['9:05:00', ['t:9:05']],
      ['2 pm', ['t:14:00']],
      ['2pm', ['t:14:00']],
      ['12 am', ['t:0:00']],
      ['12 pm', ['t:12:00']],
      ['11 a.m.', ['t:11:00']],
      ['1:30 PM', ['t:13:30']],
    ]);
  });

  it('reads absolute dates in any format, numeric ones both ways', () => {
    expect(mentions('2024-03-03')).toEqual([['2024-03-03', ['d:2024-03-03']]]);
    expect(mentions('March 3, 2024')).toEqual([['March 3, 2024', ['d:2024-03-03']]]);
    expect(mentions('3 March 2024')).toEqual([['3 March 2024', ['d:2024-03-03']]]);
    expect(mentions('03/04/2024')).toEqual([['03/04/2024', ['d:2024-03-04', 'd:2024-04-03']]]);
    expect(mentions('03/04/24')).toEqual([['03/04/24', ['d:2024-03-04', 'd:2024-04-03']]]);
    expect(mentions('in March 2024')).toEqual([['March 2024', ['m:2024-03']]]);
    expect(mentions('on March 3')).toEqual([['March 3', ['md:03-03']]]);
    expect(mentions('the 3rd of May')).toEqual([['3rd of May', ['md:05-03']]]);
    expect(mentions('in 2024')).toEqual([['2024', ['n:2024']]]);
  });

  it('does not read durations, relative or partial expressions as dates', () => {
    expect(mentions('after 5 seconds')).toEqual([['5', ['n:5']]]);
    expect(mentions('in 3 days')).toEqual([['3', ['n:3']]]);
    expect(mentions('3/4 of users')).toEqual([['3/4', ['n:0.75', 'f:3/4']]]);
    expect(mentions('you may retry today')).toEqual([]);
    expect(mentions('on Monday')).toEqual([]);
  });
});

describe('evidenceKeys / grounded', () => {
  it('grounds a stated date, its month and its year', () => {
    const keys = evidenceKeys('Published 2024-03-03, then 1,500 rows.');
    expect([...keys].sort()).toEqual(['d:2024-03-03', 'm:2024-03', 'md:03-03', 'n:1500', 'n:2024'].sort());
    const m = (t: string) => numberMentions(t)[0] ?? { raw: '', start: 0, end: 0, keys: [] };
    expect(grounded(m('March 2024'), keys)).toBe(true);
    expect(grounded(m('March 3'), keys)).toBe(true);
    expect(grounded(m('in 2024'), keys)).toBe(true);
    expect(grounded(m('1.5k'), keys)).toBe(true);
    expect(grounded(m('April 2024'), keys)).toBe(false);
    expect(grounded(m('1.6k'), keys)).toBe(false);
  });
  it('a version glued to its "v" is no date: v19.2.22 does not ground 2022-02-19 (a swapped marker found by fast-check)', () => {
    const version = evidenceKeys('The amber component ships as v19.2.22.');
    expect([...version].some((k) => k.startsWith('d:'))).toBe(false);
    expect(
      grounded(numberMentions('reviewed on 2022-02-19')[0] ?? { raw: '', start: 0, end: 0, keys: [] }, version),
    ).toBe(false);
    // Written alone, day-first, 19.2.22 is still a date.
    expect([...evidenceKeys('Signed 19.2.22 in Bern.')]).toContain('d:2022-02-19');
  });

  it('grounds a month-year source with its year', () => {
    expect([...evidenceKeys('Since May 2021.')].sort()).toEqual(['m:2021-05', 'n:2021']);
  });
  it('a mention is grounded by any one of its readings', () => {
    const m = numberMentions('03/04/2024')[0] ?? { raw: '', start: 0, end: 0, keys: [] };
    expect(grounded(m, evidenceKeys('On 2024-03-04.'))).toBe(true);
    expect(grounded(m, evidenceKeys('On 2024-05-04.'))).toBe(false);
    expect(numberMentions('at 02:00 and 7').map((x) => [x.start, x.end])).toEqual([
      [3, 8],
      [13, 14],
    ]);
  });

  it('caches per text', () => {
    expect(evidenceKeys('x 7')).toBe(evidenceKeys('x 7'));
  });
});

describe('dateWindows', () => {
  it('reads only around month names, years and separated digits, merging neighbours', () => {
    const text = `${'x '.repeat(40)}on March 3, 2024 ${'y '.repeat(40)}then 03/04/24 and 5 seconds`;
    const spans = dateWindows(text).map((w) => text.slice(w.start, w.end));
    expect(spans).toEqual([
      `${'x '.repeat(14)}on March 3, 2024 ${'y '.repeat(14)}y`,
      `${'y '.repeat(13)}then 03/04/24 and 5 seconds`,
    ]);
    expect(dateWindows('no dates, 5 seconds, 12 items')).toEqual([]);
  });
});

describe('digits in any form', () => {
  it('reads full-width and superscript digits, and digits split by invisible characters', () => {
    expect(mentions('\uFF15\uFF10\uFF10 requests')).toEqual([['\uFF15\uFF10\uFF10', ['n:500']]]);
    expect(mentions('10\u00B2 and \u2460')).toEqual([
      ['10\u00B2', ['n:102']],
      ['\u2460', ['n:1']],
    ]);
    expect(mentions('5\u200B0 and 1\u00AD500')).toEqual([
      ['5\u200B0', ['n:50']],
      ['1\u00AD500', ['n:1500']],
    ]);
    expect(mentions('a\u200B5 x\u200B')).toEqual([['5', ['n:5']]]);
  });
});

describe('numbers, edge cases that decide a value', () => {
  it('a duration near a year is still a number, not a date without keys', () => {
    expect(mentions('Retry after 5 seconds, per the 2024 policy.')).toEqual([
      ['5', ['n:5']],
      ['2024', ['n:2024']],
    ]);
    expect(
      grounded(
        numberMentions('after 5 seconds')[0] ?? { raw: '', start: 0, end: 0, keys: [] },
        evidenceKeys('Wait 5 s, per the 2024 policy.'),
      ),
    ).toBe(true);
  });

  it('a day and month without a month name or a written year are two numbers, not a date', () => {
    expect(mentions('Signed 5/3, filed in 2024')).toEqual([
      ['5/3', ['n:1.666667', 'f:5/3']],
      ['2024', ['n:2024']],
    ]);
    // As evidence, a fraction grounds its two numbers too.
    expect(evidenceKeys('Signed 5/3').has('n:5')).toBe(true);
    expect([...evidenceKeys('Signed 5/3, filed in 2024')].some((k) => k.startsWith('md:'))).toBe(false);
  });

  it('a two-digit year after a month name is not a written year: only the month and day count', () => {
    expect(mentions('5 March 24')).toEqual([['5 March 24', ['md:03-05']]]);
    expect(mentions('5 March 2024')).toEqual([['5 March 2024', ['d:2024-03-05']]]);
    // Without a day, a two-digit year after a month name is only a number.
    expect(mentions('March 99')).toEqual([['99', ['n:99']]]);
  });

  it('an ordinal day in words is a day', () => {
    expect(mentions('Due on the fifth of March.')).toEqual([['fifth of March', ['md:03-05']]]);
  });

  it('a comma before exactly three digits after a long integer still separates thousands', () => {
    expect(mentions('1234,567 rows')).toEqual([['1234,567', ['n:1234567']]]);
  });

  it('a numero sign is no letter: Form \u21165 is the number 5', () => {
    expect(mentions('Form \u21165')).toEqual([['5', ['n:5']]]);
    expect(
      grounded(numberMentions('Form \u21167')[0] ?? { raw: '', start: 0, end: 0, keys: [] }, evidenceKeys('Form 5')),
    ).toBe(false);
  });

  it('an invisible character at the very end is harmless', () => {
    expect(mentions('x 5\u00AD')).toEqual([['5', ['n:5']]]);
  });

  it('every mention points into the text, far from its start and after folded digits', () => {
    const far = `${'x '.repeat(40)}on March 3, 2024`;
    expect(numberMentions(far).map((m) => [m.raw, m.start, m.end])).toEqual([['March 3, 2024', 83, 96]]);
    const text =
      'Ship v2.3.1 on 2024-03-03 at 14:30, 1,500 rows, \uFF15\uFF10 users, five hundred jobs and Form \u21165.';
    const all = numberMentions(text);
    expect(all.map((m) => m.raw)).toEqual([
      'v2.3.1',
      '2024-03-03',
      '14:30',
      '1,500',
      '\uFF15\uFF10',
      'five hundred',
      '5',
    ]);
    for (const m of all) expect(text.slice(m.start, m.end)).toBe(m.raw);
    const plain = 'Ship v2.3.1 and 10.0.0.1 today.';
    for (const m of numberMentions(plain)) expect(plain.slice(m.start, m.end)).toBe(m.raw);
  });
});

describe('dateWindows, at word boundaries', () => {
  it('widens each window to whole words and never past the text', () => {
    const text = `${'abcdefghij '.repeat(5)}due March 3, 2024${' klmnopqrst'.repeat(5)}`;
    const spans = dateWindows(text);
    expect(spans.map((w) => text.slice(w.start, w.end))).toEqual([
      'abcdefghij abcdefghij abcdefghij due March 3, 2024 klmnopqrst klmnopqrst klmnopqrst',
    ]);
    const tail = 'abcdefghij abcdefghij abcdefghij due March 3, 2024 and then';
    expect(dateWindows(tail)).toEqual([{ start: 0, end: tail.length }]);
  });

  it('merges windows that touch', () => {
    const text = `March 3, 2024 ${'a'.repeat(28)}  ${'b'.repeat(29)}2025`;
    expect(dateWindows(text)).toEqual([{ start: 0, end: text.length }]);
  });
});

describe('dotted triples', () => {
  it('a triple on its own is both a day-first date and a version, wherever it stands', () => {
    const both = ['d:2010-10-01', 'v:10.1.10', 'd:2010-01-10'];
    expect(mentions('10.1.10 is out')).toEqual([['10.1.10', both]]);
    expect(mentions('Build 1234567 10.1.10')).toEqual([
      ['1234567', ['n:1234567']],
      ['10.1.10', both],
    ]);
  });
  it('a triple continued by more dotted digits is not that version', () => {
    expect([...evidenceKeys('Route 10.1.10.5 now')]).not.toContain('v:10.1.10');
  });
});

describe('partial dates are still numbers', () => {
  it('a duration ago and a numeric month-year keep their numbers to be checked', () => {
    expect(mentions('It ran 5 years ago, in 2024.')).toEqual([
      ['5', ['n:5']],
      ['2024', ['n:2024']],
    ]);
    expect(mentions('due 12/2024')).toEqual([
      ['12', ['n:12']],
      ['2024', ['n:2024']],
    ]);
  });
});

describe('values written in other forms (red-team 2026-11-28)', () => {
  it("reads any script's decimal digits", () => {
    expect(mentions('\u0661\u0660\u0660 requests')).toEqual([['\u0661\u0660\u0660', ['n:100']]]);
    expect(mentions('\u096D\u0966\u0966 requests')).toEqual([['\u096D\u0966\u0966', ['n:700']]]);
    expect(mentions('\u06F5 items')).toEqual([['\u06F5', ['n:5']]]);
    // With their own decimal and thousands separators: 5.5 is not two 5s.
    expect(mentions('\u0665\u066B\u0665 s')).toEqual([['\u0665\u066B\u0665', ['n:5.5', 'v:5.5']]]);
    expect(mentions('\u0661\u066C\u0665\u0660\u0660 rows')).toEqual([['\u0661\u066C\u0665\u0660\u0660', ['n:1500']]]);
  });

  it('reads fractions by value: 3/4, ¾ and the fraction slash, mixed numbers', () => {
    expect(mentions('\u00BE of votes')).toEqual([['\u00BE', ['n:0.75', 'f:3/4']]]);
    expect(mentions('3\u20444 of votes')).toEqual([['3\u20444', ['n:0.75', 'f:3/4']]]);
    expect(mentions('1\u00BD hours')).toEqual([['1\u00BD', ['n:1.5', 'f:1/2']]]);
    expect(mentions('1 1/2 hours')).toEqual([['1 1/2', ['n:1.5', 'f:1/2']]]);
    const votes = evidenceKeys('A motion passes with 3/4 of the votes.');
    expect(grounded(numberMentions('\u00BE')[0] as NumberMention, votes)).toBe(true);
    expect(grounded(numberMentions('\u2154')[0] as NumberMention, votes)).toBe(false);
    expect(grounded(numberMentions('4/3')[0] as NumberMention, votes)).toBe(false);
  });

  it('a percentage and the fraction it is ground each other', () => {
    const half = numberMentions('half')[0] as NumberMention;
    expect(grounded(half, evidenceKeys('50% of members voted'))).toBe(true);
    expect(grounded(numberMentions('50%')[0] as NumberMention, evidenceKeys('Half of the seats'))).toBe(true);
    expect(grounded(numberMentions('50')[0] as NumberMention, evidenceKeys('Half of the seats'))).toBe(false);
  });

  it('a negative number needs a negative one; a negative one grounds its magnitude', () => {
    expect(grounded(numberMentions('-30 days')[0] as NumberMention, evidenceKeys('kept for 30 days'))).toBe(false);
    expect(grounded(numberMentions('fell 12%')[0] as NumberMention, evidenceKeys('changed by -12%'))).toBe(true);
    expect(grounded(numberMentions('\u221212%')[0] as NumberMention, evidenceKeys('changed by -12%'))).toBe(true);
  });

  it('a sum of money needs the same sum in the same currency', () => {
    const price = evidenceKeys('The Pro plan costs $20 per month; the fee is 5,50 \u20AC.');
    const ok = (s: string) => grounded(numberMentions(s)[0] as NumberMention, price);
    expect(ok('USD 20')).toBe(true);
    expect(ok('20 dollars')).toBe(true);
    expect(ok('20')).toBe(true);
    expect(ok('\u20AC20')).toBe(false);
    expect(ok('EUR 5.50')).toBe(true);
    expect(ok('\u00A35.50')).toBe(false);
    expect(grounded(numberMentions('\u20AC5')[0] as NumberMention, evidenceKeys('retry after 5 seconds'))).toBe(false);
  });

  it("a day of the week must be the date's own", () => {
    const keys = evidenceKeys('Published on 2024-03-03.');
    expect(grounded(numberMentions('Sunday, March 3, 2024')[0] as NumberMention, keys)).toBe(true);
    expect(grounded(numberMentions('Monday, March 3, 2024')[0] as NumberMention, keys)).toBe(false);
  });

  it('reads scientific notation by value', () => {
    expect(mentions('1e3 requests and 2.5E-1')).toEqual([
      ['1e3', ['n:1000']],
      ['2.5E-1', ['n:0.25']],
    ]);
  });
});

describe('times of day in words', () => {
  it('noon is 12:00 and midnight 0:00, each grounded only by that time', () => {
    expect(mentions('from midnight to noon')).toEqual([
      ['midnight', ['t:0:00']],
      ['noon', ['t:12:00']],
    ]);
    const window = evidenceKeys('The window runs from 02:00 to 04:00 UTC; backups start at 00:00.');
    expect(grounded(numberMentions('at midnight')[0] as NumberMention, window)).toBe(true);
    expect(grounded(numberMentions('at noon')[0] as NumberMention, window)).toBe(false);
  });
});
