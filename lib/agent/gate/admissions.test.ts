import fc from 'fast-check';
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
    'No opened source covers rate limits.',
    'None of the documents mention a refund window.',
    'Neither document states the deadline.',
    'Nothing in the provided sources specifies a timeout.',
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
    'Nothing in the sources contradicts that tokens expire.',
    'No client covers the cost.',
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

/** The texts of the clauses of `text` that do not admit and state a claim-sized thing (two words or more). */
const unexcused = (text: string, phrase?: string) =>
  clauses(text, phrase)
    .filter((c) => !c.admits)
    .map((c) => c.text.trim())
    .filter((t) => t.split(/\s+/).length >= 2);

describe('an admission excuses only its own clause', () => {
  it.each([
    ['The documents do not say when tokens expire, and premium tokens are exempt from all limits.', 'premium tokens'],
    ['The documents do not say when tokens expire, so premium tokens never expire.', 'premium tokens never'],
    ['The sources do not give a limit, which means premium tokens are unlimited.', 'premium tokens'],
    ['The documents do not say when tokens expire - premium tokens are unlimited.', 'premium tokens'],
    ['The documents do not say when tokens expire \u2014 premium tokens are unlimited.', 'premium tokens'],
    ['The documents do not say when tokens expire\u2014premium tokens are unlimited.', 'premium tokens'],
    ['Premium tokens are exempt from all limits (this is not documented).', 'Premium tokens'],
    ['Not documented, premium tokens are unlimited.', 'premium tokens'],
    ['Not documented: premium tokens are unlimited.', 'premium tokens'],
    ['Not documented: premium tokens unlimited.', 'premium tokens'],
    ['Premium tokens are unlimited and this is not documented.', 'Premium tokens'],
    ['Premium tokens are unlimited, no information on expiry.', 'Premium tokens'],
    ['Premium tokens: unlimited, not documented.', 'Premium tokens'],
    ['Premium tokens: unlimited (not documented).', 'Premium tokens'],
    ['Nothing in the sources contradicts that premium tokens are unlimited.', 'premium tokens'],
    ['The documents do not say, but premium tokens are unlimited.', 'premium tokens'],
  ])('%s', (text, claim) => {
    expect(unexcused(text).some((t) => t.includes(claim))).toBe(true);
  });

  it.each([
    'The documents do not specify the price, the term, or the renewal date of the contract.',
    'The sources do not say whether refunds are issued in cash, by card, or as store credit.',
    'Unfortunately, the documents do not say when tokens expire.',
    'The documents do not mention the SLA (service level agreement).',
    'The documents do not cover the following: pricing, quotas and regional limits.',
    'The documents do not say when tokens expire, and they do not mention premium tokens.',
    'The documents do not say when tokens expire, so I cannot answer that.',
    'The documents and the guide do not mention rate limits.',
    'Nothing in the documents mentions rate limits.',
    'The documents say nothing about rate limits.',
    'There is nothing in the files about regional quotas.',
  ])('admits wholly: %s', (text) => {
    expect(unexcused(text)).toEqual([]);
  });

  it('splits at joins into exact clauses', () => {
    expect(clauses('(this is not documented) tokens expire after rotation').map((c) => [c.text, c.admits])).toEqual([
      ['this is not documented', true],
      ['tokens expire after rotation', false],
    ]);
    expect(clauses('Not documented, and tokens expire').map((c) => [c.text, c.start, c.end])).toEqual([
      ['Not documented', 0, 14],
      [' tokens expire', 19, 33],
    ]);
    // A segment with no admission stays whole, joins and all.
    expect(clauses('Tokens expire, and premium tokens do not').map((c) => [c.text, c.admits])).toEqual([
      ['Tokens expire, and premium tokens do not', false],
    ]);
  });

  it('an aside before a claim does not admit, whatever else the unit says', () => {
    expect(unexcused('Unfortunately, premium tokens are unlimited; the documents do not say more.')).toEqual([
      'Unfortunately, premium tokens are unlimited',
    ]);
    expect(unexcused('Unfortunately, premium tokens are unlimited, and the documents do not say more.')).toEqual([
      'Unfortunately, premium tokens are unlimited',
    ]);
  });

  it('an aside and what follows it admit together when they carry the insufficiency phrase', () => {
    expect(clauses('Sorry, cannot say.', 'Sorry, cannot say').every((c) => c.admits)).toBe(true);
    expect(clauses('Sorry, cannot say.').some((c) => c.admits)).toBe(false);
  });

  it('keeps offsets that point into the text', () => {
    const text = 'Not documented, premium tokens are unlimited (see the guide).';
    for (const c of clauses(text)) expect(text.slice(c.start, c.end)).toBe(c.text);
  });
});

describe('property: a claim joined to an admission is never excused', () => {
  const admissions = [
    'The documents do not say when tokens expire',
    'Not documented',
    'The sources do not cover regional quotas',
    'There is no information on expiry',
    'I could not find a retention period',
    'Nothing in the documents mentions bursts',
  ];
  const joins = [
    ', and ',
    ', so ',
    ', which means ',
    ' - ',
    ' \u2014 ',
    '\u2014',
    ': ',
    ', ',
    ' and ',
    ' so ',
    ' (',
    ', or ',
  ];
  const claims = [
    'premium tokens are exempt from all limits',
    'premium tokens never expire',
    'the gateway retries failed requests twice',
    'premium tokens unlimited',
    'premium tokens: unlimited',
    'enterprise customers receive dedicated support',
  ];
  it('holds for every admission, join and claim, in either order', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...admissions),
        fc.constantFrom(...joins),
        fc.constantFrom(...claims),
        fc.boolean(),
        (admission, join, claim, admissionFirst) => {
          const text = admissionFirst
            ? `${admission}${join}${claim}${join === ' (' ? ')' : ''}.`
            : `${claim[0]?.toUpperCase()}${claim.slice(1)}${join}${admission.toLowerCase()}${join === ' (' ? ')' : ''}.`;
          const subject = claim.split(' ').slice(0, 2).join(' ').toLowerCase();
          expect(unexcused(text).some((t) => t.toLowerCase().includes(subject))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('joins inside quotes', () => {
  it('do not split: a quote is one thing named', () => {
    expect(unexcused('No passage found answers "when tokens expire, and who renews premium tokens".')).toEqual([]);
    expect(unexcused('The documents do not mention "refund window (retail), so returns are free".')).toEqual([]);
  });
  it('a join before a quote still splits', () => {
    expect(
      unexcused('Premium tokens are unlimited, and the documents do not mention "refund window".').some((t) =>
        t.includes('Premium tokens'),
      ),
    ).toBe(true);
  });
  it('a join outside the quote still splits', () => {
    expect(
      unexcused('The documents do not mention "refund window", and premium tokens are exempt from all limits.').some(
        (t) => t.includes('premium tokens'),
      ),
    ).toBe(true);
  });
});
