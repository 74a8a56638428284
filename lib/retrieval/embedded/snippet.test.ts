import { describe, expect, it } from 'vitest';
import { analyze } from '@/lib/retrieval/analyzer';
import { makeSnippet } from '@/lib/retrieval/embedded/snippet';

const terms = (query: string) => new Set(analyze(query));

describe('makeSnippet', () => {
  const filler = (n: number, word = 'lorem') => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');

  it('centres on the matching terms of a long text, with ellipses on cut sides', () => {
    const text = `${filler(100)} the kangaroo population declined sharply ${filler(100, 'ipsum')}`;
    const snippet = makeSnippet(text, terms('kangaroo populations'));
    expect(snippet).toContain('kangaroo population declined');
    expect(snippet.startsWith('…')).toBe(true);
    expect(snippet.endsWith('…')).toBe(true);
    expect(snippet.length).toBeLessThanOrEqual(245);
  });

  it('prefers the window holding the most distinct query terms', () => {
    const text = `${filler(60)} zebra ${filler(60)} zebra giraffe lion ${filler(60)} zebra zebra ${filler(60)}`;
    expect(makeSnippet(text, terms('zebra giraffe lion'))).toContain('zebra giraffe lion');
  });

  it('matches stems (plural in the query, singular in the text) and whole short terms only', () => {
    expect(makeSnippet(`${filler(80)} one mutation found ${filler(80)}`, terms('mutations'))).toContain(
      'mutation found',
    );
    const text = `${filler(80)} dietary intake ${filler(40)} vitamin d levels ${filler(80)}`;
    expect(makeSnippet(text, terms('vitamin d'))).toContain('vitamin d levels');
  });

  it('folds accents in non-ASCII text', () => {
    const text = `${filler(80)} le résumé détaillé ${filler(80)}`;
    expect(makeSnippet(text, terms('resume'))).toContain('résumé');
  });

  it('returns the beginning when nothing matches or the query has no terms', () => {
    const text = `First words here. ${filler(100)}`;
    expect(makeSnippet(text, terms('absent'))).toMatch(/^First words here\./);
    expect(makeSnippet(text, new Set())).toMatch(/^First words here\./);
  });

  it('returns short texts whole, whitespace collapsed', () => {
    expect(makeSnippet('A  short\n\ntext about cats.', terms('cats'))).toBe('A short text about cats.');
    expect(makeSnippet('', terms('x'))).toBe('');
  });
});
