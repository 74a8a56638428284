import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument } from '../../test/support/agent/fixtures';
import { stateWith } from '../../test/support/agent/state';
import { answerSignals } from './confidence';
import { extractiveAnswer } from './extractive';
import { oneTypoApart, respelling, splitCompounds } from './extractive-select';
import { askedAcronyms, spelledAcronyms } from './text';

function chunkOf(filename: string, text: string) {
  return makeChunk(makeDocument({ filename, title: null }), 0, text);
}

describe('askedAcronyms', () => {
  it('reads capitals, possessives and dotted forms as bare lower-case letters', () => {
    expect(askedAcronyms("What type of committee is set down under the SP's standing orders?")).toEqual(['sp']);
    expect(askedAcronyms('How many EU treaties and U.S. states?')).toEqual(['eu', 'us']);
  });

  it('must not fire on capitalised words, single capitals or long capital runs', () => {
    expect(askedAcronyms('Who wrote Hamlet in England?')).toEqual([]);
    expect(askedAcronyms('What is vitamin A?')).toEqual([]);
    expect(askedAcronyms('What does ABCDEFGH stand for?')).toEqual([]);
    expect(askedAcronyms('Is the NASAgov site up?')).toEqual([]);
  });
});

describe('spelledAcronyms', () => {
  it('finds a run of capitalised words whose initials spell the acronym, glue words giving no letter', () => {
    expect(spelledAcronyms('None of the treaties establishing the European Union mention it.', ['eu'])).toEqual(['eu']);
    expect(spelledAcronyms("set down under the Scottish Parliament's standing orders", ['sp'])).toEqual(['sp']);
    expect(spelledAcronyms('The Bank of England raised rates.', ['be'])).toEqual(['be']);
    expect(spelledAcronyms('The European Union grew.', ['eu'])).toEqual(['eu']);
  });

  it('must not fire on a longer name, lower-case words or another acronym', () => {
    expect(spelledAcronyms('The European Union Council met.', ['eu'])).toEqual([]);
    expect(spelledAcronyms('european union rules apply', ['eu'])).toEqual([]);
    expect(spelledAcronyms('The EU met in Brussels.', ['sp'])).toEqual([]);
    expect(spelledAcronyms('Scottish and Welsh parliaments', ['sp'])).toEqual([]);
    expect(spelledAcronyms('anything at all', [])).toEqual([]);
  });

  it('reports only wanted acronyms, and none from lower-case text (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[A-Za-z]{1,8}$/), { maxLength: 12 }),
        fc.array(fc.stringMatching(/^[a-z]{2,4}$/), { maxLength: 4 }),
        (words, wanted) => {
          const text = words.join(' ');
          for (const a of spelledAcronyms(text, wanted)) expect(wanted).toContain(a);
          expect(spelledAcronyms(text.toLowerCase(), wanted)).toEqual([]);
        },
      ),
    );
  });
});

describe('oneTypoApart', () => {
  it('joins one wrong letter or two swapped neighbours', () => {
    expect(oneTypoApart('kelven', 'kalven')).toBe(true);
    expect(oneTypoApart('zeria', 'zeira')).toBe(true);
    expect(oneTypoApart('affext', 'affect')).toBe(true);
  });

  it('must not fire on other first letters, other lengths, two changes or the same word', () => {
    expect(oneTypoApart('prussia', 'russia')).toBe(false);
    expect(oneTypoApart('bread', 'dread')).toBe(false);
    expect(oneTypoApart('plane', 'planet')).toBe(false);
    expect(oneTypoApart('steam', 'stare')).toBe(false);
    expect(oneTypoApart('abcde', 'abedc')).toBe(false);
    expect(oneTypoApart('water', 'water')).toBe(false);
  });

  it('is symmetric and never joins words of different lengths (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{5,9}$/), fc.stringMatching(/^[a-z]{5,9}$/), (a, b) => {
        expect(oneTypoApart(a, b)).toBe(oneTypoApart(b, a));
        if (a.length !== b.length) expect(oneTypoApart(a, b)).toBe(false);
      }),
    );
  });
});

describe('respelling', () => {
  it('maps a passage word to the misspelt question term only when no passage holds the term itself', () => {
    const r = respelling('When did Zeria publish?', ['zeria', 'publish'], [new Set(['zeira', 'publish'])]);
    expect([...r.typos]).toEqual([['zeira', 'zeria']]);
    const spelled = respelling('When did Zeria publish?', ['zeria', 'publish'], [new Set(['zeria', 'zeira'])]);
    expect(spelled.typos.size).toBe(0);
  });

  it('must not respell short words, numbers or codes', () => {
    const r = respelling('What did the cat eat in 1949?', ['cat', 'eat', '1949'], [new Set(['car', 'eat', '1948'])]);
    expect(r.typos.size).toBe(0);
    expect(r.acronyms).toEqual([]);
  });
});

describe('splitCompounds: a question word the passage writes as two words', () => {
  const walmart = new Map([['walmart', 'walmart']]);
  it('finds the word apart, hyphenated or hyphenated with spaces', () => {
    expect(splitCompounds("Bob Bogle came up with the name `` Wal - Mart '' for the new chain .", walmart)).toEqual([
      'walmart',
    ]);
    expect(splitCompounds('The first Wal-Mart opened in 1962.', walmart)).toEqual(['walmart']);
    expect(splitCompounds('Health care spending rose.', new Map([['healthcare', 'healthcar']]))).toEqual(['healthcar']);
  });

  it('must not join the end of one word with the next, or parts of one letter', () => {
    expect(splitCompounds('The wall martyrs were remembered.', walmart)).toEqual([]);
    expect(splitCompounds('Dewal mart stores', walmart)).toEqual([]);
    expect(splitCompounds('a lot of rain', new Map([['alot', 'alot']]))).toEqual([]);
  });

  it('finds only words of the map, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        for (const t of splitCompounds(text, walmart)) expect(t).toBe('walmart');
      }),
    );
  });

  it('reads two question words a passage writes as one, only when a passage lacks one of them', () => {
    const r = respelling('who founded wal mart', ['found', 'wal', 'mart'], [new Set(['sam', 'walmart', 'found'])]);
    expect([...r.joined]).toEqual([['walmart', ['wal', 'mart']]]);
    expect(respelling('who founded wal mart', ['found', 'wal', 'mart'], [new Set(['wal', 'mart'])]).joined.size).toBe(
      0,
    );
    // "to day" is no "today": each word must be a topic word of two or more letters, the pair six or more
    expect(respelling('a b', ['a', 'b'], [new Set(['ab'])]).joined.size).toBe(0);
  });

  it('is read only for question words no opened passage holds', () => {
    expect([
      ...respelling('where did walmart start', ['walmart', 'start'], [new Set(['wal', 'mart'])]).compounds,
    ]).toEqual([['walmart', 'walmart']]);
    expect(respelling('where did walmart start', ['walmart', 'start'], [new Set(['walmart'])]).compounds.size).toBe(0);
  });
});

describe('extractive answers read acronyms and one-letter misspellings', () => {
  it('answers a question writing as two words what its passage writes as one', () => {
    const c = chunkOf('chain.txt', 'Sam Walton founded Walmart in Rogers , Arkansas , in 1962 .');
    const state = stateWith({ question: 'who founded wal mart', opened: [c] });
    expect(extractiveAnswer(state, 'concise').answer).toMatch(/Sam Walton.*\[1\]/);
    expect(answerSignals(state)?.declined).toBe(false);
  });

  it('answers a question naming a word its passage writes as two', () => {
    const c = chunkOf('chain.txt', 'Sam Walton founded Wal - Mart in Rogers , Arkansas , in 1962 .');
    const state = stateWith({ question: 'who founded walmart', opened: [c] });
    expect(extractiveAnswer(state, 'concise').answer).toMatch(/Sam Walton.*\[1\]/);
    expect(answerSignals(state)?.declined).toBe(false);
  });

  it('answers a question naming an organisation by the acronym its passage spells out', () => {
    const c = chunkOf(
      'parliament.md',
      "Mandatory Committees are committees which are set down under the Scottish Parliament's standing orders, which govern their remits and proceedings.",
    );
    const state = stateWith({
      question: "What type of committee is set down under the SP's standing orders?",
      opened: [c],
    });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('Mandatory Committees');
    expect(answerSignals(state)?.declined).toBe(false);
  });

  it('answers a misspelt word the passage spells right', () => {
    const c = chunkOf(
      'newton.md',
      "Newton's laws and Newtonian mechanics were first developed to describe how forces affect idealized point particles rather than three-dimensional objects.",
    );
    const state = stateWith({ question: "What didn't Newton's mechanics affext?", opened: [c] });
    expect(extractiveAnswer(state, 'concise').answer).toContain('three-dimensional objects');
    expect(answerSignals(state)?.declined).toBe(false);
  });

  it('still declines when the acronym names another body than the passage spells out', () => {
    const c = chunkOf(
      'parliament.md',
      "Mandatory Committees are committees which are set down under the Scottish Parliament's standing orders, which govern their remits and proceedings.",
    );
    const state = stateWith({
      question: "What type of committee is set down under the WP's standing orders?",
      opened: [c],
    });
    extractiveAnswer(state, 'concise');
    expect(answerSignals(state)?.declined).toBe(true);
  });

  it('still declines when the differing word is a real one of another first letter', () => {
    const c = chunkOf('chemistry.md', 'Dalton published his study of gases in 1808 in Manchester.');
    const state = stateWith({ question: 'When did Galton publish his study?', opened: [c] });
    extractiveAnswer(state, 'concise');
    expect(answerSignals(state)?.declined).toBe(true);
  });
});
