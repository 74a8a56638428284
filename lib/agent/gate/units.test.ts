import { describe, expect, it } from 'vitest';
import { claimUnits, markerNumbers, withoutLinkTargets, withoutMarkers } from './units';

const shape = (text: string) => claimUnits(text).map((u) => [u.kind, u.text, u.cites]);

describe('markers', () => {
  it('reads n, n, m and nm', () => {
    expect(markerNumbers('a [1] b [2, 3][4] c [x] [1000]')).toEqual([1, 2, 3, 4]);
    expect(withoutMarkers('a [1, 2] b')).toBe('a        b');
  });
});

describe('claimUnits', () => {
  it('splits sentences and attaches markers wherever punctuation falls', () => {
    expect(shape('First claim [1]. Second claim. [2] Third one [3]! Fourth? [4]')).toEqual([
      ['sentence', 'First claim [1].', [1]],
      ['sentence', 'Second claim.', [2]],
      ['sentence', 'Third one [3]!', [3]],
      ['sentence', 'Fourth?', [4]],
    ]);
  });

  it('keeps abbreviations, decimals and lower-case continuations in one sentence', () => {
    expect(
      shape('Use e.g. the tool. Version 2.5 is out. See No. 4 here. It runs. then stops. A. B. Smith wrote it.'),
    ).toEqual([
      ['sentence', 'Use e.g. the tool.', []],
      ['sentence', 'Version 2.5 is out.', []],
      ['sentence', 'See No. 4 here.', []],
      ['sentence', 'It runs. then stops.', []],
      ['sentence', 'A. B. Smith wrote it.', []],
    ]);
  });

  it('does not split inside a quote, but a quote ending a sentence ends it', () => {
    const units = claimUnits('He wrote "Run it. Then stop." [2] Next claim [1].');
    expect(units.map((u) => [u.text, u.cites])).toEqual([
      ['He wrote "Run it. Then stop."', [2]],
      ['Next claim [1].', [1]],
    ]);
    expect(units[0]?.quotes.map((q) => [q.text, q.cites])).toEqual([['Run it. Then stop.', [2]]]);
  });

  it('credits a quote with its own marker, else its sentence markers; markers inside quotes are quoted text', () => {
    const units = claimUnits('Both "alpha beta". [2] and "gamma [7] delta" apply [1].');
    expect(units.map((u) => u.cites)).toEqual([[2], [1]]);
    expect(units.flatMap((u) => u.quotes.map((q) => [q.text, q.cites]))).toEqual([
      ['alpha beta', [2]],
      ['gamma [7] delta', [1]],
    ]);
  });

  it('leading markers of a paragraph stay with it no unit before', () => {
    expect(shape('[1] Claim here.')).toEqual([['sentence', '[1] Claim here.', [1]]]);
    expect(shape('Intro.\n\n[2] Claim.')).toEqual([
      ['sentence', 'Intro.', []],
      ['sentence', '[2] Claim.', [2]],
    ]);
  });

  it('headings # and bold lines are units of their own', () => {
    expect(shape('## Setup 2 [1]\n**Notes**\n__Other__:\nText [3].')).toEqual([
      ['heading', '## Setup 2 [1]', [1]],
      ['heading', '**Notes**', []],
      ['heading', '__Other__:', []],
      ['sentence', 'Text [3].', [3]],
    ]);
  });

  it('fenced code and ~~~ is one unit cited by the line before it or markers right after', () => {
    const text = 'Run this [1]:\n```sql\nSELECT 1;\n\nSELECT 2;\n```\n[3] After.\n~~~~\nx\n~~~~\nEnd [4].';
    const units = claimUnits(text);
    expect(units.map((u) => [u.kind, u.text, u.cites])).toEqual([
      ['sentence', 'Run this [1]:', [1]],
      ['code', 'SELECT 1;\n\nSELECT 2;', [1, 3]],
      ['sentence', 'After.', []],
      ['code', 'x', []],
      ['sentence', 'End [4].', [4]],
    ]);
    expect(text.slice(units[1]?.block?.start, units[1]?.block?.end)).toBe('```sql\nSELECT 1;\n\nSELECT 2;\n```');
  });

  it('an unclosed fence runs to the end; a inside ~~~ does not close it', () => {
    expect(shape('Code [2]:\n~~~\na\n```\nb')).toEqual([
      ['sentence', 'Code [2]:', [2]],
      ['code', 'a\n```\nb', [2]],
    ]);
    expect(shape('```\n```')).toEqual([['code', '', []]]);
  });

  it('indented code after a blank line is code; indented continuation of a list item is not', () => {
    const text = 'Dump it [1]:\n\n    pg_dump db\n    --verbose\n\n- item [2]\n\n    more of the item\n';
    expect(shape(text)).toEqual([
      ['sentence', 'Dump it [1]:', [1]],
      ['code', '    pg_dump db\n    --verbose', [1]],
      ['item', 'item [2]', [2]],
      ['sentence', 'more of the item', []],
    ]);
    expect(shape('Para\n    indented continuation.')).toEqual([['sentence', 'Para\n    indented continuation.', []]]);
  });

  it('block quotes are one unit cited by their own markers or the line before', () => {
    expect(shape('As written [2]:\n> line one\n> line two\nAfter [1].')).toEqual([
      ['sentence', 'As written [2]:', [2]],
      ['blockquote', 'line one\nline two', [2]],
      ['sentence', 'After [1].', [1]],
    ]);
    expect(shape('> quoted [3]')).toEqual([['blockquote', 'quoted [3]', [3]]]);
  });

  it('list items are units; items without markers inherit an introducing line ending in :', () => {
    expect(shape('Limits [1]:\n- a b\n- c d [2]\n1. e f\n2) g\n  continued')).toEqual([
      ['sentence', 'Limits [1]:', [1]],
      ['item', 'a b', [1]],
      ['item', 'c d [2]', [2]],
      ['item', 'e f', [1]],
      ['item', 'g\n  continued', [1]],
    ]);
    expect(shape('Limits [1].\n- a b')).toEqual([
      ['sentence', 'Limits [1].', [1]],
      ['item', 'a b', []],
    ]);
    expect(shape('## Head\n- a b')).toEqual([
      ['heading', '## Head', []],
      ['item', 'a b', []],
    ]);
    expect(shape('Limits: [1]\n* x y')).toEqual([
      ['sentence', 'Limits: [1]', [1]],
      ['item', 'x y', [1]],
    ]);
  });

  it('table cells are units cited by their own or their row markers, or the introducing line', () => {
    const text = 'Values [2]:\n| Setting | Value |\n| --- | :---: |\n| Rate | 100 [1] |\n| Burst | 20 |';
    expect(shape(text)).toEqual([
      ['sentence', 'Values [2]:', [2]],
      ['cell', 'Setting', [2]],
      ['cell', 'Value', [2]],
      ['cell', 'Rate', [1]],
      ['cell', '100 [1]', [1]],
      ['cell', 'Burst', [2]],
      ['cell', '20', [2]],
    ]);
    const quoted = claimUnits('| "alpha beta" |\n| --- |');
    expect(quoted[0]?.quotes.map((q) => q.text)).toEqual(['alpha beta']);
  });

  it('a line with a pipe but no separator row is prose', () => {
    expect(shape('a | b [1]')).toEqual([['sentence', 'a | b [1]', [1]]]);
  });

  it('offsets point into the answer', () => {
    const text = 'One [1]. Two [2].\n- Three [3]';
    for (const u of claimUnits(text)) expect(text.slice(u.start, u.end)).toBe(u.text);
  });
});

describe('claimUnits, offsets of every kind', () => {
  it('headings, code, block quotes, cells and quotes all point into the answer', () => {
    const text = [
      'Intro [1]:',
      '  ## Setup 2  ',
      '',
      '    pg_dump db',
      '    --verbose',
      '',
      '',
      'Then [2]:',
      '> line one',
      '>   line two [2]',
      '| Rate | "up to 10 GB" | 100 [1] |',
      '| --- | --- | --- |',
      '| Burst | 20 | "a b" |',
      'After "x y" [3] and "z w" [4] end [1].',
    ].join('\n');
    const units = claimUnits(text);
    expect(units.map((u) => [u.kind, u.text])).toEqual([
      ['sentence', 'Intro [1]:'],
      ['heading', '## Setup 2'],
      ['code', '    pg_dump db\n    --verbose'],
      ['sentence', 'Then [2]:'],
      ['blockquote', 'line one\n  line two [2]'],
      ['cell', 'Rate'],
      ['cell', '"up to 10 GB"'],
      ['cell', '100 [1]'],
      ['cell', 'Burst'],
      ['cell', '20'],
      ['cell', '"a b"'],
      ['sentence', 'After "x y" [3] and "z w" [4] end [1].'],
    ]);
    for (const u of units) {
      if (u.kind !== 'blockquote') expect(text.slice(u.start, u.end)).toBe(u.text);
      for (const q of u.quotes) expect(text.slice(q.start, q.end)).toBe(`"${q.text}"`);
    }
    expect(units.map((u) => u.block && text.slice(u.block.start, u.block.end))).toEqual([
      undefined,
      undefined,
      '    pg_dump db\n    --verbose',
      undefined,
      '> line one\n>   line two [2]',
      ...Array(7).fill(undefined),
    ]);
    const quote = units.find((u) => u.kind === 'blockquote');
    expect([quote?.start, quote?.end]).toEqual([quote?.block?.start, quote?.block?.end]);
    expect(units.filter((u) => u.kind !== 'cell' && u.kind !== 'sentence').map((u) => u.quotes)).toEqual([[], [], []]);
  });

  it('a heading, a code block or a block quote carries no quotes of its own', () => {
    const units = claimUnits('## The "setup" step\n```\necho "hi"\n```\n> He said "go" [1]');
    expect(units.map((u) => [u.kind, u.quotes])).toEqual([
      ['heading', []],
      ['code', []],
      ['blockquote', []],
    ]);
  });
});

describe('claimUnits, which markers cite what', () => {
  it('a quote keeps its own marker; without one it takes its unit markers', () => {
    const units = claimUnits('The guide says "run it now" [2] and the limit is 100 [1].');
    expect(units.map((u) => u.cites)).toEqual([[2, 1]]);
    expect(units[0]?.quotes.map((q) => [q.text, q.cites])).toEqual([['run it now', [2]]]);
    // A cell is cited by its row's markers too; a quote with a marker of its own keeps only that one.
    const cells = claimUnits('| "alpha beta" [3] | "gamma" | x [1] |\n| --- | --- | --- |\n| "delta" | y | z | [4]');
    expect(cells.flatMap((u) => u.quotes.map((q) => [q.text, q.cites]))).toEqual([
      ['alpha beta', [3]],
      ['gamma', [3, 1]],
      ['delta', [4]],
    ]);
  });

  it('markers inside several quotes are quoted text, however long the quotes', () => {
    expect(shape('Both "a long first quote [7] here" and "b [8] c" apply [1].')).toEqual([
      ['sentence', 'Both "a long first quote [7] here" and "b [8] c" apply [1].', [1]],
    ]);
  });

  it('a leading marker goes to the sentence right before it', () => {
    expect(shape('One claim. Two claim. Three claim. [4] Four claim.').map((u) => u[2])).toEqual([[], [], [4], []]);
    expect(shape('> Quoted words\n[2] Next claim.')).toEqual([
      ['blockquote', 'Quoted words', [2]],
      ['sentence', 'Next claim.', []],
    ]);
  });

  it('items inherit the intro only when none of their sentences has a marker', () => {
    expect(shape('Limits [1]:\n- First part. Second part [2].\n- Third part.')).toEqual([
      ['sentence', 'Limits [1]:', [1]],
      ['item', 'First part.', []],
      ['item', 'Second part [2].', [2]],
      ['item', 'Third part.', [1]],
    ]);
  });

  it('nothing inherits from a heading or a code block', () => {
    expect(shape('## Limits: [1]\n- a b')).toEqual([
      ['heading', '## Limits: [1]', [1]],
      ['item', 'a b', []],
    ]);
    expect(shape('Run [1]:\n```\nls\n```\n> quoted text')).toEqual([
      ['sentence', 'Run [1]:', [1]],
      ['code', 'ls', [1]],
      ['blockquote', 'quoted text', []],
    ]);
  });

  it('code and block quotes take the markers of the line before, colon or not; tables and lists need the colon', () => {
    expect(shape('Run this [1].\n```\nls\n```')).toEqual([
      ['sentence', 'Run this [1].', [1]],
      ['code', 'ls', [1]],
    ]);
    expect(shape('As written [2].\n> line')).toEqual([
      ['sentence', 'As written [2].', [2]],
      ['blockquote', 'line', [2]],
    ]);
    expect(shape('Values [2].\n| a | b |\n| --- | --- |')).toEqual([
      ['sentence', 'Values [2].', [2]],
      ['cell', 'a', []],
      ['cell', 'b', []],
    ]);
  });
});

describe('claimUnits, block boundaries', () => {
  it('indented code may open the answer and close it', () => {
    expect(shape('    pg_dump db')).toEqual([['code', '    pg_dump db', []]]);
    expect(shape('Dump [1]:\n\n    pg_dump db\n    --verbose')).toEqual([
      ['sentence', 'Dump [1]:', [1]],
      ['code', '    pg_dump db\n    --verbose', [1]],
    ]);
    const trailing = 'Dump [1]:\n\n    pg_dump db\n\n\nAfter [2].';
    const units = claimUnits(trailing);
    expect(units.map((u) => [u.kind, u.text])).toEqual([
      ['sentence', 'Dump [1]:'],
      ['code', '    pg_dump db'],
      ['sentence', 'After [2].'],
    ]);
    expect(trailing.slice(units[1]?.block?.start, units[1]?.block?.end)).toBe('    pg_dump db');
  });

  it('a line of spaces is a blank line', () => {
    expect(shape('Dump [1]:\n   \n    pg_dump db')).toEqual([
      ['sentence', 'Dump [1]:', [1]],
      ['code', '    pg_dump db', [1]],
    ]);
  });

  it('a table ends at the first line without a pipe; a rule under a line without pipes is no table', () => {
    expect(shape('| a | b |\n| --- | --- |\n| 1 | 2 |\nAfter the table [1].').at(-1)).toEqual([
      'sentence',
      'After the table [1].',
      [1],
    ]);
    expect(shape('Some claim here\n---\nMore text.')).toEqual([['sentence', 'Some claim here\n---\nMore text.', []]]);
  });

  it('an initial or an abbreviation opening the answer does not end a sentence', () => {
    expect(shape('J. Smith wrote the guide [1].')).toEqual([['sentence', 'J. Smith wrote the guide [1].', [1]]]);
    expect(shape('E.g. the tool works [1].')).toEqual([['sentence', 'E.g. the tool works [1].', [1]]]);
  });
});

describe('claimUnits: a sentence ends after a closing mark of any quote style', () => {
  it.each([
    'It reads \u201EAlpha beta.\u201C [2] Gamma is 5 [1].',
    'It reads \u300CAlpha beta.\u300D [2] Gamma is 5 [1].',
    'It reads <q>Alpha beta.</q> [2] Gamma is 5 [1].',
    'It reads \uFF02Alpha beta.\uFF02 [2] Gamma is 5 [1].',
  ])('%s', (answer) => {
    expect(claimUnits(answer).map((u) => u.cites)).toEqual([[2], [1]]);
  });
});

describe('withoutLinkTargets', () => {
  it.each([
    ['See [the guide](https://x.com/v2/page-100) [1].', 'See [the guide]                            [1].'],
    ['[a](<https://x.com/a b/7>) and [b](/p/8 "title 9")', '[a]                        and [b]                '],
    ['[a](https://x.com/wiki/Foo_(bar)_2)', '[a]                                '],
    // Text that is not a link destination stays.
    ['costs [10] (or 20) and (30)', 'costs [10] (or 20) and (30)'],
    ['[1] (2 GB)', '[1] (2 GB)'],
  ])('link targets %#', (text, blanked) => {
    expect(withoutLinkTargets(text)).toBe(blanked);
    expect(withoutLinkTargets(text)).toHaveLength(text.length);
  });
});
