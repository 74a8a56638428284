import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  analyze,
  analyzeForIndex,
  analyzeQuery,
  analyzeQueryTerms,
  analyzeWords,
  foldText,
  INDEX_STOP_WORDS,
  STOP_WORDS,
  termFrequencies,
} from '@/lib/retrieval/analyzer';
import { HAS_UNSPACED_SCRIPT } from '@/lib/retrieval/unspaced-scripts';
import * as v3 from '@/test/support/retrieval/analyzer-v3';

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
    ['keeps non-Latin scripts with their marks', 'Ελληνικά кириллица עברית', ['ελληνικα', 'кириллица', 'עברית']],
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

describe('scripts written without spaces', () => {
  it.each([
    [
      'splits Chinese into dictionary words, then adds the Han bigrams that are not a word already',
      '营业收入是多少',
      ['营业', '收入', '是', '多少', '业收', '入是', '是多'],
    ],
    ['splits digits from the Han text around them', '2018年第一季度', ['2018', '年', '第一', '季度', '年第', '一季']],
    [
      'keeps the ordinary rules for the Latin text and numbers around',
      '营业收入（元） 4,755,785.11 covid-19',
      ['营业', '收入', '业收', '元', '4755785.11', 'covid19', 'covid', '19'],
    ],
    [
      'splits Japanese kanji and kana, folding half-width kana',
      '東京都に住んでいます ｶﾀｶﾅ',
      ['東京', '都', 'に', '住', 'んで', 'い', 'ます', 'カタカナ', '京都'],
    ],
    ['splits Thai', 'ภาษาไทยเป็นภาษา', ['ภาษา', 'ไทย', 'เป็น', 'ภาษา']],
    ['splits Lao', 'ພາສາລາວເປັນ', ['ພາສາ', 'ລາວ', 'ເປັນ']],
    ['splits Khmer', 'ភាសាខ្មែរគឺជាភាសា', ['ភាសាខ្មែរ', 'គឺជា', 'ភាសា']],
    ['splits Burmese', 'မြန်မာဘာသာစကား', ['မြန်မာဘာသာ', 'စကား']],
    ['leaves spaced Korean to the ordinary rules', '서울에서 만났습니다', ['서울에서', '만났습니다']],
    ['joins Chinese wrapped by a line break', '有限公\n司', ['有限公司', '有限', '限公', '公司']],
    ['keeps a space between Thai phrases a boundary', 'ภาษา ไทย', ['ภาษา', 'ไทย']],
    ['does not join Han across Latin text', '中 b 文', ['中', 'b', '文']],
    ['handles Han outside the Basic Multilingual Plane', '𠀀𠀁中', ['𠀀', '𠀁', '中', '𠀀𠀁', '𠀁中']],
  ])('%s', (_name, input, expected) => {
    expect(analyze(input)).toEqual(expected);
  });

  it("finds a Chinese question's words in its document even when the dictionary splits them differently", () => {
    const document = new Set(analyzeForIndex('公司负责人刘道骐、主管会计工作负责人'));
    // "有限公司" is one dictionary word, "公司" another: the document's bigrams still hold the question's word.
    expect(analyze('公司')).toEqual(['公司']);
    expect(analyzeForIndex('东北电气发展股份有限公司')).toContain('公司');
    // A name glued to a title is split 人|刘|道|骐, the name alone 刘|道骐: the bigram 道骐 meets.
    expect(analyze('刘道骐').filter((term) => document.has(term))).toContain('道骐');
    const question = analyzeQueryTerms('东北电气发展股份有限公司的公司负责人是谁?').content;
    expect(question).toEqual(expect.arrayContaining(['公司', '负责', '责人']));
  });

  it('analyzeWords leaves out the bigrams and nothing else', () => {
    expect(analyzeWords('东北电气发展股份有限公司 covid-19')).toEqual([
      '东北',
      '电气',
      '发展',
      '股份',
      '有限公司',
      'covid19',
      'covid',
      '19',
    ]);
    // Text without Han characters has no bigrams: both analyses agree. A compatibility character whose NFKC form is
    // Han (🈐 → 手, ㊀ → 一) is Han to the analyser, so it is replaced too.
    const han = /\p{Script=Han}/u;
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        const value = [...text].map((ch) => (han.test(ch.normalize('NFKC')) ? 'x' : ch)).join('');
        expect(analyzeWords(value)).toEqual(analyze(value));
      }),
    );
  });

  it('gives every bigram of a Han query to any text that contains it', () => {
    const han = fc.integer({ min: 0x4e00, max: 0x9fa5 }).map((code) => String.fromCodePoint(code));
    const text = fc.string({ unit: fc.oneof(han, fc.constantFrom('a', ' ', '1', '。', '\n', 'の')), maxLength: 30 });
    fc.assert(
      fc.property(fc.string({ unit: han, minLength: 2, maxLength: 6 }), text, text, (query, before, after) => {
        const indexed = new Set(analyzeForIndex(`${before}${query}${after}`));
        const chars = Array.from(query);
        for (let i = 0; i + 1 < chars.length; i++) expect(indexed.has(`${chars[i]}${chars[i + 1]}`)).toBe(true);
      }),
    );
  });

  it('analyses text without those scripts exactly as version 3 did (every function, every language)', () => {
    const unit = fc.oneof(
      fc.constantFrom(
        'a',
        'É',
        'ß',
        'ü',
        'ç',
        "'",
        '’',
        '-',
        '_',
        '.',
        ',',
        '1',
        ' ',
        '\n',
        'ﬁ',
        'Ｆ',
        '서',
        'д',
        '\u0301',
      ),
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    );
    // "Without those scripts" after folding too: NFKC turns compatibility characters such as 🈐 (U+1F210) or ㊙
    // into Han, which version 4 splits into words as it should (a counterexample a random run once found).
    const unspacedOnceFolded = (ch: string) =>
      HAS_UNSPACED_SCRIPT.test(ch) || HAS_UNSPACED_SCRIPT.test(ch.normalize('NFKC'));
    const text = fc
      .string({ unit, maxLength: 60 })
      .map((value) => Array.from(value, (ch) => (unspacedOnceFolded(ch) ? 'x' : ch)).join(''));
    const language = fc.constantFrom(undefined, 'en', 'de', 'fr', 'und');
    fc.assert(
      fc.property(text, language, (value, code) => {
        expect(analyze(value, code)).toEqual(v3.analyze(value, code));
        expect(analyzeForIndex(value, code)).toEqual(v3.analyzeForIndex(value, code));
        expect(analyzeQueryTerms(value, ['en', 'de', 'fr'])).toEqual(v3.analyzeQueryTerms(value, ['en', 'de', 'fr']));
      }),
      { numRuns: 500 },
    );
  });

  it('splits compatibility characters that fold into Han, as it splits Han itself', () => {
    expect(analyze('🈐x')).toEqual(['手', 'x']);
    expect(v3.analyze('🈐x')).toEqual(['手x']);
  });

  it('analyses real English, German and French prose exactly as version 3 did', () => {
    const prose = [
      "The patient's IL-6 levels rose 1,000-fold (p < 0.05) in v2.1 of the pg_reindex study, e.g. in 2019.",
      'Die Häuser der Stadt wurden über Jahrzehnte gebaut; Maßnahmen für Straßen und Brücken.',
      "L'agrandissement de l'hôpital qu'un comité a décidé jusqu'à présent coûte 3 500,25 €.",
    ];
    for (const value of prose) {
      for (const code of ['en', 'de', 'fr']) {
        expect(analyze(value, code)).toEqual(v3.analyze(value, code));
        expect(analyzeForIndex(value, code)).toEqual(v3.analyzeForIndex(value, code));
      }
    }
  });
});
