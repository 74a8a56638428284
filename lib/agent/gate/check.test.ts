import { describe, expect, it } from 'vitest';
import { checkAnswer, isClaim, quoteIn } from './check';

const SOURCES = [
  { n: 1, chunk: { text: 'The public API allows 100 requests per minute per token. Retry after 5 seconds.' } },
  { n: 2, chunk: { text: 'Each workspace may store up to 10 GB of files.\nRun:\nREINDEX TABLE orders;\nDone.' } },
];
const input = (over: Partial<Parameters<typeof checkAnswer>[1]> = {}) => ({
  question: 'What are the limits for 42 "magic tokens"?',
  opened: SOURCES,
  insufficiencyPhrase: null,
  ...over,
});
const issues = (answer: string, over = {}) => checkAnswer(answer, input(over)).issues.map((i) => [i.code, i.unit]);

describe('quoteIn', () => {
  const text = 'Alpha beta gamma. Delta epsilon zeta.';
  it.each([
    ['Alpha beta gamma.', true],
    ['alpha beta gamma', true],
    ['Alpha beta gamma,', true],
    ['Alpha \u2026 gamma', true],
    // An elision across a sentence end leaves out whole sentences only: no splicing of two sentences' halves.
    ['Alpha [...] zeta', false],
    ['Alpha ... zeta', false],
    ['Alpha beta gamma. [...] Delta epsilon', true],
    ['Alpha beta gamma … Delta epsilon', true],
    ['Alpha beta … epsilon zeta', false],
    ['zeta ... Alpha', false],
    ['Alpha beta delta', false],
    ['...', false],
    ['beta Gamma', false],
    ['\u2026 beta gamma', true],
    ['Alpha \u2026 Delta', false],
    ['Alpha \u2026 delta', false],
    // Each elided part is searched after the previous one, never over it again.
    ['Alpha \u2026 Alpha', false],
    ['gamma. \u2026 gamma', false],
    ['beta \u2026 zeta.', false],
    ['beta \u2026 gamma.', true],
  ])('case %#', (quote, ok) => {
    expect(quoteIn(text, quote)).toBe(ok);
  });

  it.each([
    ['rebuild the index without blocking writes', 'rebuild the index \u2026 blocking writes'],
    ['Tokens do not expire after rotation', 'Tokens \u2026 expire after rotation'],
    ["Tokens don't expire after rotation", 'Tokens [...] expire after rotation'],
    ['Admins can never delete audit logs', 'Admins can ... delete audit logs'],
    ['Backups cannot be restored to other regions', 'Backups \u2026 be restored to other regions'],
    ['Refunds are issued unless the order shipped', 'Refunds are issued \u2026 the order shipped'],
    ['All users except admins get the banner', 'All users \u2026 admins get the banner'],
    ['There is no limit on file size', 'There is \u2026 limit on file size'],
  ])('an elision may not leave out a negation: %s', (text, quote) => {
    expect(quoteIn(text, quote)).toBe(false);
  });

  it.each([
    ['Tokens that are not rotated expire after 30 days', 'Tokens that are not \u2026 expire after 30 days'],
    ['Knowledge of the notes is required for the noon run', 'Knowledge \u2026 required for the noon run'],
    ['A nominal fee of nothing', 'A nominal fee of nothing'],
  ])('an elision that keeps its negation, or leaves out words that only contain one, is fair: %s', (text, quote) => {
    expect(quoteIn(text, quote)).toBe(true);
  });

  it('tries every place the first part occurs', () => {
    expect(quoteIn('Keep it. Keep all files for 30 days.', 'Keep … for 30 days')).toBe(true);
  });
});

describe('isClaim', () => {
  it('a number, or two content words, makes a claim', () => {
    expect(isClaim('It is 5.')).toBe(true);
    expect(isClaim('Deletions are permanent.')).toBe(true);
    expect(isClaim('Yes [1].')).toBe(false);
    expect(isClaim('Here it is:')).toBe(false);
  });
});

describe('checkAnswer', () => {
  it('passes grounded units and reports what it verified', () => {
    const r = checkAnswer(
      'The API allows 100 requests "per minute per token" [1]. Run [2]:\n```\nREINDEX TABLE orders;\n```\n> Each workspace may store up to 10 GB of files. [2]',
      input(),
    );
    expect(r.issues).toEqual([]);
    expect(r.verified).toEqual([
      'per minute per token',
      'REINDEX TABLE orders;',
      'Each workspace may store up to 10 GB of files.',
    ]);
    expect(r.units.map((u) => u.kind)).toEqual(['sentence', 'sentence', 'code', 'blockquote']);
  });

  it('a quote must be in the source its marker points to, never only in the question', () => {
    expect(issues('He says "up to 10 GB of files" [1].')).toEqual([
      ['QUOTE_NOT_FOUND', 0],
      ['UNGROUNDED_NUMBER', 0],
    ]);
    expect(issues('He says "up to 10 GB of files" [2].')).toEqual([]);
    expect(issues('The docs say "magic tokens" [1].')).toEqual([['QUOTE_NOT_FOUND', 0]]);
    expect(issues('It says "up to 10 GB of files" [9].')).toEqual([['UNCITED_CLAIM', 0]]);
    const msg = checkAnswer('He says "up to 10 GB of files" [1].', input()).issues[0]?.message;
    expect(msg).toBe('The quoted text "up to 10 GB of files" does not appear verbatim in source [1].');
  });

  it('an admission may quote or number what the question names, nothing else', () => {
    expect(issues('The documents do not mention "magic tokens".')).toEqual([]);
    expect(issues('The documents do not mention 42 tokens.')).toEqual([]);
    expect(issues('The documents do not mention "secret tokens".')).toEqual([['QUOTE_NOT_FOUND', 0]]);
    expect(issues('The documents do not mention 43 tokens.')).toEqual([['UNGROUNDED_NUMBER', 0]]);
    expect(issues('Tokens are "magic tokens" [1].')).toEqual([['QUOTE_NOT_FOUND', 0]]);
    expect(issues('Not covered: "Insufficient data".', { insufficiencyPhrase: 'Insufficient data' })).toEqual([]);
    const msg = checkAnswer('The documents do not mention 43 tokens.', input()).issues[0]?.message;
    expect(msg).toBe('The number "43" cites no opened source that states it.');
  });

  it('numbers are checked by value in the cited source only', () => {
    expect(issues('Retry after 5s [1].')).toEqual([]);
    expect(issues('Retry after 5s [2].')).toEqual([['UNGROUNDED_NUMBER', 0]]);
    expect(issues('Store 10GB [1][2].')).toEqual([]);
    const msg = checkAnswer('Retry after 6 seconds [1].', input()).issues[0]?.message;
    expect(msg).toBe('The number "6" does not appear (with that value) in source [1].');
  });

  it('an uncited claim is reported once its numbers and quotes have no source to check', () => {
    expect(issues('Premium tokens are exempt from 100 limits.')).toEqual([['UNCITED_CLAIM', 0]]);
    const msg = checkAnswer('Premium tokens are exempt.', input()).issues[0]?.message;
    expect(msg).toBe(
      '"Premium tokens are exempt." cites no opened source: cite it as [n] right after it, or remove it.',
    );
    expect(issues('Yes.')).toEqual([]);
    expect(issues('The documents do not say, but premium tokens are exempt.')).toEqual([['UNCITED_CLAIM', 0]]);
  });

  it('code lines must be verbatim in a cited source; uncited code fails', () => {
    expect(issues('Run [2]:\n```\nREINDEX TABLE orders;\nDROP TABLE orders;\n```')).toEqual([['QUOTE_NOT_FOUND', 1]]);
    expect(issues('```\nREINDEX TABLE orders;\n```')).toEqual([['QUOTE_NOT_FOUND', 0]]);
    expect(issues('Run [2]:\n```\n\n```')).toEqual([]);
    const msgs = checkAnswer('```\nREINDEX TABLE orders;\n```\nRun [2]:\n```\nDROP;\n```', input()).issues.map(
      (i) => i.message,
    );
    expect(msgs).toEqual([
      'The code block starting "REINDEX TABLE orders;" cites no opened source: put the marker of its source on the line before it.',
      'The code line "DROP;" does not appear verbatim in source [2].',
    ]);
  });

  it('block quotes are quotes; an empty one is nothing', () => {
    expect(issues('> Each workspace may store up to 20 GB of files. [2]')).toEqual([['QUOTE_NOT_FOUND', 0]]);
    expect(issues('> [2]')).toEqual([]);
    expect(issues('> Some text')).toEqual([['QUOTE_NOT_FOUND', 0]]);
  });

  it('heading numbers must appear in some opened source or the question', () => {
    expect(issues('## 100 requests\n## 42 tokens\n## 7 things')).toEqual([['UNGROUNDED_NUMBER', 2]]);
    expect(checkAnswer('## Step 7', input()).issues[0]?.message).toBe('The heading number "7" is in no opened source.');
  });

  it('reports each failing unit with its own index and lists every cited source', () => {
    expect(issues('Ok [1]. Premium tokens are exempt. Fine [1]. Gold tokens are free.')).toEqual([
      ['UNCITED_CLAIM', 1],
      ['UNCITED_CLAIM', 3],
    ]);
    expect(checkAnswer('Retry after 7 seconds [1][2].', input()).issues[0]?.message).toBe(
      'The number "7" does not appear (with that value) in source [1], [2].',
    );
    expect(checkAnswer('It says "nothing like this" [1][9].', input()).issues[0]?.message).toBe(
      'The quoted text "nothing like this" does not appear verbatim in source [1].',
    );
    expect(checkAnswer('The documents do not mention "secret tokens".', input()).issues[0]?.message).toBe(
      'The quoted text "secret tokens" cites no opened source: quote only opened sources, with the marker of the one that holds it.',
    );
    expect(checkAnswer('The documents do not say, but premium tokens are exempt.', input()).issues[0]?.message).toBe(
      '"premium tokens are exempt." cites no opened source: cite it as [n] right after it, or remove it.',
    );
  });

  it('only admitting clauses may use the question', () => {
    expect(issues('The limit is 42 [1], but the documents do not say why.')).toEqual([['UNGROUNDED_NUMBER', 0]]);
    expect(issues('Limits apply [1]; the documents do not mention 42 tokens.')).toEqual([]);
    expect(issues('Limits apply [1]; "magic tokens" are not documented.')).toEqual([]);
    expect(issues('The "magic tokens" are real [1]; the documents do not say more.')).toEqual([['QUOTE_NOT_FOUND', 0]]);
  });

  it('code: trimmed lines, any cited source, empty blocks pass', () => {
    const r = checkAnswer('Run [1][2]:\n```\n   REINDEX TABLE orders;\n```', input());
    expect(r.issues).toEqual([]);
    expect(r.verified).toEqual(['REINDEX TABLE orders;']);
    expect(issues('```\n\n```')).toEqual([]);
  });

  it('a text of exactly 100 characters is not shortened', () => {
    const hundred = `Premium tokens are ${'y'.repeat(80)}.`;
    expect(hundred.length).toBe(100);
    expect(checkAnswer(`${hundred} Gold tokens are free.`, input()).issues[0]?.message).toBe(
      `"${hundred}" cites no opened source: cite it as [n] right after it, or remove it.`,
    );
  });

  it('long texts are shortened in messages', () => {
    const long = `Premium ${'word '.repeat(40)}end.`;
    expect(checkAnswer(long, input()).issues[0]?.message).toBe(
      `"Premium ${'word '.repeat(18)}wo…" cites no opened source: cite it as [n] right after it, or remove it.`,
    );
  });
});

describe('location labels', () => {
  const sheet = {
    n: 3,
    chunk: { text: 'Region | Sales\nNorth | 412', sheet: 'Results 31 03 2024', headingPath: null },
  };
  const opened = [...SOURCES, sheet];
  it('a number in the cited source sheet name is grounded by citing it', () => {
    expect(issues('North, Sales: 412 [3] (sheet Results 31 03 2024 [3]).', { opened })).toEqual([]);
  });
  it('but not when the answer cites another source', () => {
    expect(issues('The limit holds until 31 03 2024 [1].', { opened })).toEqual([
      ['UNGROUNDED_NUMBER', 0],
      ['UNGROUNDED_NUMBER', 0],
      ['UNGROUNDED_NUMBER', 0],
    ]);
  });
});

describe('document names in an answer', () => {
  const named = [
    {
      n: 1,
      chunk: {
        text: 'Boeing Company Long Beach 56 Layoff Unknown at this time',
        filename: 'WARN-Report-for-7-1-2015-to-03-25-2016.pdf',
        title: 'WARN report 2015',
      },
    },
    { n: 2, chunk: { text: 'Sales rose by 4 percent.', filename: 'report-2023.pdf', title: null } },
  ];
  const check = (answer: string) => checkAnswer(answer, input({ opened: named })).issues.map((i) => i.code);

  it('reads a cited document name written out in full as a name, digits included', () => {
    expect(check('- WARN-Report-for-7-1-2015-to-03-25-2016.pdf: "Boeing Company Long Beach 56" [1]')).toEqual([]);
    expect(check('- report-2023.pdf (WARN report 2015): "Sales rose by 4 percent." [2]')).toEqual([
      'UNGROUNDED_NUMBER',
    ]);
  });

  it('still needs a number merely shared with a name in the cited text', () => {
    expect(check('Sales rose by 2023 percent [2].')).toEqual(['UNGROUNDED_NUMBER']);
    expect(check('The layoffs began in 2015 [1].')).toEqual(['UNGROUNDED_NUMBER']);
    // The name of a document the unit does not cite is no excuse.
    expect(check('- report-2023.pdf: "Boeing Company Long Beach 56" [1]')).toEqual(['UNGROUNDED_NUMBER']);
  });
});

describe('a picture reading (verbatim: false)', () => {
  const opened = [
    ...SOURCES,
    { n: 3, chunk: { text: 'The chart shows 340 orders in March and a flat line after.' }, verbatim: false },
  ];
  it('grounds numbers and cited claims', () => {
    expect(issues('The chart shows 340 orders in March [3].', { opened })).toEqual([]);
  });
  it('never grounds a quote, a block quote or a code line', () => {
    expect(issues('It says "340 orders in March" [3].', { opened })).toEqual([['QUOTE_NOT_FOUND', 0]]);
    expect(issues('> The chart shows 340 orders in March [3]', { opened })).toEqual([['QUOTE_NOT_FOUND', 0]]);
    expect(issues('Shown [3]:\n```\nThe chart shows 340 orders\n```', { opened })).toEqual([['QUOTE_NOT_FOUND', 1]]);
    // The same words quoted from a verbatim source it also cites pass.
    expect(issues('It says "up to 10 GB of files" [2][3].', { opened })).toEqual([]);
  });
});

describe('location labels, each on its own', () => {
  const opened = [
    { n: 1, chunk: { text: 'Region | Sales\nNorth | 412', sheet: 'Budget 2024', headingPath: '15 Regions' } },
    { n: 2, chunk: { text: 'Region | Sales\nSouth | 97', sheet: null, headingPath: 'Quarter 3 > 2025 plan' } },
  ];
  it('a sheet name and a heading path ground their numbers separately', () => {
    expect(issues('Budget 2024, 15 regions: North 412 [1].', { opened })).toEqual([]);
    expect(issues('Quarter 3 of the 2025 plan: South 97 [2].', { opened })).toEqual([]);
    expect(issues('Budget 202415 [1].', { opened })).toEqual([['UNGROUNDED_NUMBER', 0]]);
  });
});

describe('document names, adversarial', () => {
  const opened = [
    { n: 1, chunk: { text: 'Totals were revised.', filename: 'budget-2024.xlsx', title: 'Budget 2024' } },
    { n: 2, chunk: { text: 'Totals were revised again.', filename: 'budget-2024-r.xlsx', title: 'Budget 2024 rev 2' } },
    { n: 3, chunk: { text: 'Sales rose by 4 percent.', filename: '1.md', title: '100' } },
    { n: 4, chunk: { text: 'Sales fell.', filename: 'sales.md', title: ' 12 ' } },
  ];
  const check = (answer: string, question = 'What changed?') =>
    checkAnswer(answer, input({ opened, question })).issues.map((i) => i.code);

  it('a longer name holding a shorter one is a name as a whole', () => {
    expect(check('Budget 2024 [1] was replaced by Budget 2024 rev 2 [2].')).toEqual([]);
    expect(check('Budget 2024 rev 3 replaced it [1][2].')).toEqual(['UNGROUNDED_NUMBER']);
  });

  it('a name of four characters or more is a name; a shorter one is read as a number', () => {
    expect(check('- 1.md: "Sales rose by 4 percent." [3]')).toEqual([]);
    expect(check('The limit is 100 [3].')).toEqual(['UNGROUNDED_NUMBER']);
    // Spaces around a name do not count toward its length.
    expect(check('Sales fell by 12 [4].')).toEqual(['UNGROUNDED_NUMBER']);
  });

  it('a blanked name keeps the offsets of what follows: an admission may still name the question', () => {
    expect(
      check('budget-2024-r.xlsx [2] was revised; the documents do not mention 42 tokens.', 'Why 42 tokens?'),
    ).toEqual([]);
    expect(check('budget-2024-r.xlsx [2] was revised; 42 tokens are not documented.', 'Why 42 tokens?')).toEqual([]);
    expect(check('budget-2024-r.xlsx lists 42 tokens [2]; the documents do not say why.', 'Why 42 tokens?')).toEqual([
      'UNGROUNDED_NUMBER',
    ]);
  });
});

describe('admissions, where they start and end', () => {
  it('a quote opening an admission names what is missing', () => {
    expect(issues('"magic tokens" are not documented.')).toEqual([]);
    expect(issues('"gold tokens" are not documented.')).toEqual([['QUOTE_NOT_FOUND', 0]]);
  });
  it('an admission after another sentence is read at its own offsets', () => {
    expect(issues('Limits apply [1]. The documents do not mention 42 tokens.')).toEqual([]);
    expect(issues('Limits apply [1]. The documents do not mention "magic tokens".')).toEqual([]);
    expect(issues('Limits apply [1]. There are 42 tokens [1], but the documents do not say why.')).toEqual([
      ['UNGROUNDED_NUMBER', 1],
    ]);
  });
  it('a claim after an admission is no admission: it may not use the question', () => {
    expect(issues('The documents do not say why; the limit is 42 [1].')).toEqual([['UNGROUNDED_NUMBER', 0]]);
    expect(issues('The documents do not say why; it is "magic tokens" [1].')).toEqual([['QUOTE_NOT_FOUND', 0]]);
  });
  it('with an insufficiency phrase, an admission may quote the phrase or the question, nothing else', () => {
    const over = { insufficiencyPhrase: 'Not covered' };
    expect(issues('Not covered: "magic tokens".', over)).toEqual([]);
    expect(issues('Not covered: "Not covered".', over)).toEqual([]);
    expect(issues('Not covered: "premium tiers".', over)).toEqual([['QUOTE_NOT_FOUND', 0]]);
  });
});

describe('checkAnswer: rows and headings that state something (red-team 2026-11-28)', () => {
  it('an uncited table body row is one claim, however short its cells', () => {
    const table = '| Plan | Limit |\n| --- | --- |\n| Public | 100 requests per minute [1] |\n| Premium | unlimited |';
    expect(issues(table)).toEqual([
      ['UNCITED_CLAIM', 4],
      ['UNCITED_CLAIM', 5],
    ]);
    // The header row is a label; a row cited anywhere, or by an introducing line, is cited.
    expect(issues('| Plan | Limit |\n| --- | --- |\n| Public | 100 requests [1] |')).toEqual([]);
    expect(issues('The limits [1]:\n\n| Plan | Limit |\n| --- | --- |\n| Public | 100 requests |')).toEqual([]);
  });

  it('a heading without a marker may bring one word of its own, not a statement', () => {
    expect(issues('## Summary\nThe API allows 100 requests [1].')).toEqual([]);
    expect(issues('## Magic token limits per minute\nThe API allows 100 requests [1].')).toEqual([]);
    expect(issues('## Premium tokens are exempt\nThe API allows 100 requests [1].')).toEqual([['UNCITED_CLAIM', 0]]);
    expect(issues('**Premium tokens are exempt**\nThe API allows 100 requests [1].')).toEqual([['UNCITED_CLAIM', 0]]);
    expect(issues('## Premium tokens are exempt [1]\nThe API allows 100 requests [1].')).toEqual([]);
  });
});
