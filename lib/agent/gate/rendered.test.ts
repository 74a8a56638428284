import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asRendered } from './rendered';

describe('asRendered', () => {
  it.each([
    // Character references show their characters.
    ['&quot;tokens never expire&quot; [1]', '"tokens never expire" [1]'],
    ['&#x31;&#x30;&#x30; GB [1]', '100 GB [1]'],
    ['&#49;&#48;&#48; GB [1]', '100 GB [1]'],
    ['&ldquo;x&rdquo; and &eacute;t&eacute;', '\u201Cx\u201D and \u00E9t\u00E9'],
    ['&#0; and &#xD800;', '\uFFFD and \uFFFD'],
    // Those that would form markup stay encoded; unknown names and escaped ampersands are text.
    ['x &lt;b&gt; y &amp; z &#96;', 'x &lt;b&gt; y &amp; z &#96;'],
    ['&bogus; and \\&quot;', '&bogus; and \\&quot;'],
    // Comments go; other tags show as written; quotation elements become quote marks.
    ['10<!-- -->00 GB', '1000 GB'],
    ['<span>7</span>0 users', '&lt;span>7&lt;/span>0 users'],
    [
      'It uses lp://<dataset-name>/<model-name> and List<String>.',
      'It uses lp://&lt;dataset-name>/&lt;model-name> and List&lt;String>.',
    ],
    ['It says <q>Legal holds extend it</q> [1].', 'It says "Legal holds extend it" [1].'],
    ['<blockquote>Legal holds extend it</blockquote> [1]', '"Legal holds extend it" [1]'],
    ['<div>\nhidden 1000\n</div>\n\nshown', '&lt;div>\nhidden 1000\n&lt;/div>\n\nshown'],
    ['<!-- hidden 1000 -->\n\nshown', '\n\nshown'],
    // Emphasis inside a word or number loses its marks; around whole words it stays.
    ['Use **10**00 GB [1].', 'Use 1000 GB [1].'],
    ['we ~~10~~00 and 5*0*0', 'we 1000 and 500'],
    ['**Important:** it is 5 [1].', '**Important:** it is 5 [1].'],
    ['a *word* and __init__ and snake_case_name', 'a *word* and __init__ and snake_case_name'],
    // A rewrite that uncovers markup is rewritten again.
    ['&#42;&#42;10&#42;&#42;00 GB', '1000 GB'],
    ['&q<!---->uot;x&quot;', '"x"'],
    // Code is shown as written.
    ['a `&quot;10**0**0` b', 'a `&quot;10**0**0` b'],
    ['```\n&quot;<!-- c -->\n```', '```\n&quot;<!-- c -->\n```'],
    ['    &quot;indented', '    &quot;indented'],
    // A link whose text is a marker is the marker; other links stay.
    ['It holds 10 GB [[1]](#source-1).', 'It holds 10 GB [1].'],
    ['[[2, 3]](#s)', '[2, 3]'],
    ['See [the guide](https://x.com/v2/page-100) [1].', 'See [the guide](https://x.com/v2/page-100) [1].'],
    ['[link [1]](http://a)', '[link [1]](http://a)'],
    ['[*[1]*](#a) and [[1]*x*](#b)', '[*[1]*](#a) and [[1]*x*](#b)'],
    // Most drafts have none of it.
    ['The limit is 100 requests per minute [1].', 'The limit is 100 requests per minute [1].'],
  ])('rewrite %#', (draft, shown) => {
    expect(asRendered(draft)).toBe(shown);
  });

  it('escapes every markup character of a draft still changing after the bound, so it shows as it is checked', () => {
    // Two passes are needed here (the comment goes, then the reference it split shows); one is allowed.
    expect(asRendered('&q<!---->uot;10**0**0 `x` [1] a_b ~c~ \\', 1)).toBe(
      '&amp;quot;1000 \\`x\\` \\[1\\] a\\_b \\~c\\~ \\\\',
    );
    expect(asRendered('&q<!---->uot;x', 2)).toBe('"x');
  });

  it('is idempotent: what it returns renders as it reads', () => {
    const piece = fc.constantFrom(
      '10',
      '00',
      ' ',
      'GB',
      '**',
      '*',
      '_',
      '~~',
      '&quot;',
      '&#x31;',
      '&#42;',
      '&amp;',
      '<b>',
      '</b>',
      '<!--',
      '-->',
      '<q>',
      '`',
      '[1]',
      '\n',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (parts) => {
        const draft = parts.join('');
        const shown = asRendered(draft);
        expect(asRendered(shown)).toBe(shown);
      }),
      { numRuns: 500 },
    );
  });

  it('a digit hidden by a reference, comment, tag or emphasis is always shown to the gate', () => {
    const hide = fc.constantFrom(
      (d: string) => `&#${d.charCodeAt(0)};`,
      (d: string) => `&#x${d.charCodeAt(0).toString(16)};`,
      (d: string) => `<!-- -->${d}`,
      (d: string) => `<!-- x -->${d}`,
      (d: string) => `**${d}**`,
      (d: string) => `~~${d}~~`,
    );
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 9 }), hide, (a, b, h) => {
        const draft = `The quota is ${a}${h(String(b))}0 GB [1].`;
        expect(asRendered(draft)).toBe(`The quota is ${a}${b}0 GB [1].`);
      }),
      { numRuns: 300 },
    );
  });
});
