import { describe, expect, it } from 'vitest';
import { predicates } from './predication';

describe('predicates', () => {
  it.each([
    'premium tokens are exempt from all limits',
    'premium tokens expire after 30 days',
    'the board approved the merger',
    'which are issued at login',
    'Refunds take 14 days',
    'premium tokens unlimited',
    'this is not documented',
    'older tokens invalid',
    'Stripe unavailable',
    'very old tokens unusable',
  ])('states: %s', (text) => {
    expect(predicates(text)).toBe(true);
  });

  it.each([
    'the renewal date of the contract',
    'or the renewal date of the contract',
    'the term',
    'by card',
    'Unfortunately',
    'service level agreement',
    '',
    '   ',
    'very expensive',
    'free',
  ])('only names: %j', (text) => {
    expect(predicates(text)).toBe(false);
  });

  it('errs towards stating: a noun the tagger reads as a verb makes its piece a clause of its own', () => {
    // "file" and "upload" in noun compounds are tagged VERB. The piece then has to be cited or admit on its own:
    // a false block (the draft is reprompted), never a claim excused by an admission next to it.
    expect(predicates('the maximum file size')).toBe(true);
  });
});
