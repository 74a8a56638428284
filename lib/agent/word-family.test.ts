import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '@/lib/retrieval/analyzer';
import { irregularBase } from './irregular-verbs';
import { holdsFamily, sameFamily } from './word-family';

const term = (word: string) => analyze(word)[0] ?? '';

describe('sameFamily', () => {
  it('meets words of one stem family, as before (one stem a prefix of the other, four letters or more)', () => {
    expect(sameFamily(term('illustrated'), term('Illustrator'))).toBe(true);
    expect(sameFamily(term('published'), term('Publisher'))).toBe(true);
    expect(sameFamily(term('argued'), term('argument'))).toBe(true);
  });
  it('meets an irregular verb form and a word of its base family (the question verb and a field label)', () => {
    expect(sameFamily(term('wrote'), term('Writer'))).toBe(true);
    expect(sameFamily(term('written'), term('writer'))).toBe(true);
    expect(sameFamily(term('writer'), term('wrote'))).toBe(true);
    expect(sameFamily(term('sang'), term('Singer'))).toBe(true);
    expect(sameFamily(term('taught'), term('Teacher'))).toBe(true);
    expect(sameFamily(term('sent'), term('Sender'))).toBe(true);
    expect(sameFamily(term('drew'), term('drawings'))).toBe(true);
  });
  it('does not stretch to unrelated words or short stems (must not fire)', () => {
    expect(sameFamily(term('wrote'), term('author'))).toBe(false);
    expect(sameFamily(term('wrote'), term('wrist'))).toBe(false);
    expect(sameFamily(term('told'), term('toll'))).toBe(false);
    expect(sameFamily(term('paid'), term('paint'))).toBe(false);
    expect(sameFamily(term('held'), term('helmet'))).toBe(false);
    expect(sameFamily(term('mixed'), term('Producer'))).toBe(false);
  });
  it('leaves ambiguous forms out of the table ("found" is a verb of its own, "left" an adjective)', () => {
    expect(irregularBase('found', analyze)).toBeNull();
    expect(irregularBase('left', analyze)).toBeNull();
    expect(irregularBase('wrote', analyze)).toBe(term('write'));
  });
  it('is symmetric and holds every word with itself', () => {
    const words = fc.constantFrom(
      'wrote',
      'writer',
      'written',
      'sang',
      'singer',
      'sent',
      'sender',
      'sentence',
      'author',
      'publisher',
      'published',
      'taught',
      'teacher',
      'drew',
      'drawing',
      'made',
      'maker',
      'paid',
      'payment',
      'cost',
      'kept',
      'keeper',
      'held',
    );
    fc.assert(
      fc.property(words, words, (a, b) => {
        const [x, y] = [term(a), term(b)];
        expect(sameFamily(x, y)).toBe(sameFamily(y, x));
        expect(sameFamily(x, x)).toBe(true);
        expect(holdsFamily(new Set([y]), x)).toBe(sameFamily(x, y));
      }),
    );
  });
});
