import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { citesGold, containsGold, containsVariant, goldNumber, loadQaSet, numbersIn } from './qa-set';

describe('QA set scorer', () => {
  it('compares numbers by value, not as substrings', () => {
    expect(containsVariant('Zone NA | 12553 | 2713 [1]', '12553')).toBe(true);
    expect(containsVariant('Sales were 12,553 million CHF.', '12553')).toBe(true);
    expect(containsVariant('Maple Leafs won in 2013.', '13')).toBe(false);
    expect(containsVariant('Der Preis betrug 15,50 €.', '15,50')).toBe(true);
    expect(containsVariant('de plus de 1 200 000$', '1 200 000')).toBe(true);
    expect(containsVariant('BY REVENUE `7,92,756 crore', '7,92,756')).toBe(true);
    expect(containsVariant('restructuring costs -140', '-140')).toBe(true);
    expect(containsVariant('restructuring costs 140', '-140')).toBe(false);
    expect(containsVariant('it represents 28% of all cancers', '28%')).toBe(true);
    expect(containsVariant('see source [13]', '13')).toBe(false);
  });

  it('folds case, dashes and whitespace for text', () => {
    expect(containsVariant('supersede AD 2018–23–51, which', '2018-23-51')).toBe(true);
    expect(containsVariant('JIS  G\n4108 : Alloy', 'jis g 4108')).toBe(true);
    expect(containsVariant('nothing here', 'JIS G 4108')).toBe(false);
  });

  it('needs every answer group and every document group', () => {
    expect(containsGold('13 cups; apples 1.99', [['13'], ['1.99']])).toBe(true);
    expect(containsGold('13 cups', [['13'], ['1.99']])).toBe(false);
    expect(containsGold('anything', [])).toBe(false);
    expect(citesGold(new Set(['a.csv']), [['a.csv', 'a.tsv'], ['b.md']])).toBe(false);
    expect(citesGold(new Set(['a.tsv', 'b.md']), [['a.csv', 'a.tsv'], ['b.md']])).toBe(true);
  });

  it('parses gold numbers as written', () => {
    expect(goldNumber('12,553')).toBe(12553);
    expect(goldNumber('0.0919')).toBe(0.0919);
    expect(goldNumber('JIS G 4108')).toBeNull();
    expect(goldNumber('2018-23-51')).toBeNull();
    expect(numbersIn('1 200 000').has(1200000)).toBe(true);
  });

  it('loads the committed set: enough questions, a quarter unanswerable, every gold number parses', () => {
    const set = loadQaSet(path.resolve(import.meta.dirname, '../../eval/qa/questions.jsonl'));
    expect(set.length).toBeGreaterThanOrEqual(120);
    expect(set.filter((q) => !q.answerable).length / set.length).toBeGreaterThanOrEqual(0.25);
    expect(new Set(set.map((q) => q.id)).size).toBe(set.length);
  });
});
