import { describe, expect, it } from 'vitest';
import { stanceTerms } from './stance-words';

describe('stanceTerms', () => {
  it('reads modal verbs and stance adverbs as no topic words', () => {
    expect(stanceTerms('how many jurors must agree in order to reach a verdict').size).toBe(1);
    expect(stanceTerms('has the university of kentucky ever won a national championship').size).toBe(1);
    expect(stanceTerms('why is interphase not truly a period of rest').size).toBe(1);
    expect(stanceTerms('why might it be difficult to diagnose a specific illness').size).toBe(1);
  });

  it('reads "supposed/expect to" before a verb only, and keeps "need"', () => {
    expect(stanceTerms('who was supposed to be in blazing saddles').size).toBe(1);
    expect(stanceTerms('where do you expect to find a composite cone volcano').size).toBe(1);
    // "need" names a requirement the passage must state; a noun or object after "expect" names the topic.
    expect(stanceTerms('what encoding decision needs to be made').size).toBe(0);
    expect(stanceTerms('what is the need for a backup policy').size).toBe(0);
    expect(stanceTerms('what did the board expect from the merger').size).toBe(0);
  });

  it('leaves topic words alone', () => {
    expect(stanceTerms('who sang the song the reverend mr black').size).toBe(0);
    expect(stanceTerms('when did the wall in berlin come down').size).toBe(0);
  });
});
