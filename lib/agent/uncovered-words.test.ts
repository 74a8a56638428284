import { describe, expect, it } from 'vitest';
import { analyze } from '@/lib/retrieval/analyzer';
import { uncoveredWords } from './extractive';

const terms = (...words: string[]) => words.flatMap((w) => analyze(w));

describe('uncoveredWords (the words a partial-coverage note lists as unmentioned)', () => {
  it('leaves out the interrogative and the frame of the question', () => {
    expect(uncoveredWords('how much were the actors in friends paid', terms('much', 'actors', 'friends'))).toEqual([
      'actors',
      'friends',
    ]);
    expect(
      uncoveredWords('where does the phrase getting cold feet come from', terms('getting', 'cold', 'come')),
    ).toEqual(['getting', 'cold']);
    expect(uncoveredWords('what is the meaning of ayes and noes', terms('meaning', 'noes'))).toEqual(['noes']);
  });

  it('keeps a frame verb that is a topic word in another question', () => {
    expect(uncoveredWords('when did the beatles come to america', terms('come', 'america'))).toEqual([
      'come',
      'america',
    ]);
    expect(uncoveredWords('how many votes did the amendment need', terms('votes', 'amendment'))).toEqual([
      'votes',
      'amendment',
    ]);
  });
});
