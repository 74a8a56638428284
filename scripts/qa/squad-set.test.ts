import { describe, expect, it } from 'vitest';
import { containsSquadAnswer, squadCorpus, squadNormalize } from './squad-set';

describe('SQuAD scorer', () => {
  it('normalises as the official script does (case, punctuation, articles, spaces)', () => {
    expect(squadNormalize('The  Denver Broncos!')).toBe('denver broncos');
    expect(squadNormalize("Levi's Stadium")).toBe('levi s stadium');
  });

  it('matches a gold span as whole words only', () => {
    expect(containsSquadAnswer('"The game was won by the Denver Broncos." [1]', ['Denver Broncos'])).toBe(true);
    expect(containsSquadAnswer('It took place in 1990s Denver. [1]', ['1990'])).toBe(false);
    expect(containsSquadAnswer('In 1990, it moved. [1]', ['1990'])).toBe(true);
    expect(containsSquadAnswer('anything', [])).toBe(false);
    expect(containsSquadAnswer('anything', ['the'])).toBe(false);
  });

  it('makes one document per distinct paragraph and maps every question to it', () => {
    const rows = [
      { id: 'a', question: 'q1', context: 'Paragraph one.', answers: ['one'], answerable: true },
      { id: 'b', question: 'q2', context: 'Paragraph one.', answers: [], answerable: false },
      { id: 'c', question: 'q3', context: 'x '.repeat(2000), answers: ['x'], answerable: true },
    ];
    const { docs, chunks, goldDoc } = squadCorpus(rows, 'owner');
    expect(docs).toHaveLength(2);
    expect(goldDoc.get('a')).toBe(goldDoc.get('b'));
    expect(goldDoc.get('c')).not.toBe(goldDoc.get('a'));
    expect(chunks.length).toBeGreaterThan(2); // the long paragraph is split
    expect(chunks.every((c) => c.ownerId === 'owner')).toBe(true);
  });
});
