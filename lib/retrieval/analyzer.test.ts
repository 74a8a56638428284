import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyze,
  analyzeForIndex,
  analyzeQuery,
  foldText,
  INDEX_STOP_WORDS,
  STOP_WORDS,
  termFrequencies,
} from '@/lib/retrieval/analyzer';

describe('analyze', () => {
  it.each([
    ['lower-cases and stems', 'Running Diseases QUICKLY', ['run', 'diseas', 'quickli']],
    ['removes English stop words', 'the effect of the drug on a patient', ['effect', 'drug', 'patient']],
    ['folds diacritics', 'Café naïve résumé São', ['cafe', 'naiv', 'resum', 'sao']],
    ['folds compatibility forms (ligatures, full-width)', 'ﬁle Ｆｕｌｌ', ['file', 'full']],
    ['keeps identifiers with underscores and their parts', 'run pg_reindex', ['run', 'pg_reindex', 'pg', 'reindex']],
    [
      'keeps version numbers and decimals whole',
      'upgrade to v2.1 with 3.14 and 1.2.3',
      ['upgrad', 'v2.1', '3.14', '1.2.3'],
    ],
    ['joins thousands separators', '1,000,000 and 3,500.25', ['1000000', '3500.25']],
    ['splits comma lists that are not thousands', '1990,2000 and 12,34', ['1990', '2000', '12', '34']],
    ['splits dots between letters', 'end.Start e.g.', ['end', 'start', 'e', 'g']],
    ['makes IL-6 and IL6 meet', 'IL-6', expect.arrayContaining(analyze('IL6'))],
    ['splits hyphens and slashes', 'long-term and/or', ['long', 'term']],
    [
      'also joins short hyphenated compounds with a digit',
      'covid-19 IL-6 SKU-42-B',
      ['covid19', 'covid', '19', 'il6', 'il', '6', 'sku42b', 'sku', '42', 'b'],
    ],
    ['does not join long hyphen chains', 'a1-b2-c3-d4', ['a1', 'b2', 'c3', 'd4']],
    ['drops possessive s and apostrophes', "the patient's don't O’Neill", ['patient', 'dont', 'oneil']],
    ['keeps numbers meaningful (not stemmed, not dropped)', 'p53 in 2019 dose 10mg', ['p53', '2019', 'dose', '10mg']],
    ['keeps non-Latin scripts with their marks', '東京 データベース', ['東京', 'データベース']],
    ['returns nothing for punctuation and stop words only', '!!! -- the of and ...', []],
  ])('%s', (_name, input, expected) => {
    expect(analyze(input)).toEqual(expected);
  });

  it('drops tokens longer than 64 characters', () => {
    const kept = `${'k'.repeat(63)}1`;
    expect(analyze(`short ${'x'.repeat(65)} ${kept}`)).toEqual(['short', kept]);
  });

  it('is deterministic and order-preserving', () => {
    const text = 'Vitamin D deficiency increases the risk of fractures in elderly patients.';
    const first = analyze(text);
    expect(analyze(text)).toEqual(first);
    expect(first).toEqual(['vitamin', 'd', 'defici', 'increas', 'risk', 'fractur', 'elderli', 'patient']);
  });

  it('makes query and document forms meet (plural/singular, accents, case)', () => {
    expect(analyze('Résumés')).toEqual(analyze('resume'));
    expect(analyze('MUTATIONS')).toEqual(analyze('mutation'));
  });

  it('does not stem the stop list itself into index terms', () => {
    for (const word of STOP_WORDS) expect(analyze(word)).toEqual([]);
  });

  it('handles empty and whitespace-only input', () => {
    expect(analyze('')).toEqual([]);
    expect(analyze(' \n\t ')).toEqual([]);
  });
});

describe('analyzeForIndex and analyzeQuery', () => {
  it('indexes every word but Lucene stop words, with the same token rules', () => {
    expect(analyzeForIndex('How do I set up the VPN?')).toEqual(['how', 'do', 'i', 'set', 'up', 'vpn']);
    expect(analyzeForIndex('covid-19 in the cells')).toEqual(['covid19', 'covid', '19', 'cell']);
    for (const word of INDEX_STOP_WORDS) expect(analyzeForIndex(word)).toEqual([]);
  });

  it('is a superset of analyze() for any text (a query term is always an index term)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const indexed = new Set(analyzeForIndex(text));
        for (const term of analyze(text)) expect(indexed.has(term)).toBe(true);
      }),
    );
  });

  it('queries content words, and falls back to every indexed word when there is none', () => {
    expect(analyzeQuery('How do I reset the router?')).toEqual(analyze('How do I reset the router?'));
    expect(analyzeQuery('what is it')).toEqual(['what']);
    expect(analyzeQuery('how to do it')).toEqual(['how', 'do']);
    expect(analyzeQuery('the of and')).toEqual([]);
  });
});

describe('foldText', () => {
  it('leaves ASCII case-folded only', () => {
    expect(foldText('Hello_World 1.5')).toBe('hello_world 1.5');
  });
});

describe('termFrequencies', () => {
  it('counts analysed terms', () => {
    expect(Object.fromEntries(termFrequencies('Cells and cell CELLS grow'))).toEqual({ cell: 3, grow: 1 });
  });
});
