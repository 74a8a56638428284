import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayTitle, usableTitle } from './display-title';

describe('displayTitle', () => {
  it.each([
    ['Annual Report 2023', 'Annual Report 2023'],
    ['  Board   minutes\n20 June ', 'Board minutes 20 June'],
    ['Règlement intérieur', 'Règlement intérieur'],
    ['Q3 results: revenue by region', 'Q3 results: revenue by region'],
    ['Version 2.0', 'Version 2.0'],
  ])('keeps the real title %j', (title, shown) => {
    expect(displayTitle({ filename: 'file.pdf', title })).toBe(shown);
  });

  it.each([
    ['10811.exe'],
    ['Microsoft Word - x.doc'],
    ['Microsoft Word - Quarterly plan.docx'],
    ['report_final.pdf'],
    ['Untitled'],
    ['untitled-3'],
    ['Document1'],
    ['Book1'],
    ['Sheet1'],
    [''],
    ['   '],
    ['2023-06-20'],
    ['123456'],
    ['—'],
    ['x'],
    ['A'.repeat(121)],
    ['Garbled \ufffd\ufffd title'],
    ['Line\u0007bell'],
    ['# $ % & * ab'],
  ])('falls back to the file name for %j', (title) => {
    expect(displayTitle({ filename: '2023-06-20-PV.pdf', title })).toBe('2023-06-20-PV.pdf');
  });

  it('falls back when the title repeats the file name with or without its extension', () => {
    expect(usableTitle({ filename: 'Budget plan.xlsx', title: 'budget plan' })).toBeNull();
    expect(usableTitle({ filename: 'Budget plan.xlsx', title: 'Budget plan.xlsx' })).toBeNull();
  });

  it('uses the file name when there is no title', () => {
    expect(displayTitle({ filename: 'notes.md' })).toBe('notes.md');
    expect(displayTitle({ filename: 'notes.md', title: null })).toBe('notes.md');
  });

  it('never shows an empty name', () => {
    expect(displayTitle({ filename: '   ', title: '' })).toBe('Unnamed file');
  });

  it('property: the result is the collapsed title or the collapsed file name, never empty', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.option(fc.string()), (filename, title) => {
        const shown = displayTitle({ filename, title });
        const collapse = (s: string) => s.replace(/[\s\u00a0]+/g, ' ').trim();
        expect(shown.length).toBeGreaterThan(0);
        expect([collapse(title ?? ''), collapse(filename) || 'Unnamed file']).toContain(shown);
      }),
    );
  });

  it('property: a shown title is short, mostly letters and has no file extension', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (filename, title) => {
        const used = usableTitle({ filename, title });
        if (used === null) return;
        expect(used.length).toBeLessThanOrEqual(120);
        expect(used).not.toMatch(/\.[a-z][a-z0-9]{0,4}$/i);
        const letters = (used.match(/\p{L}/gu) ?? []).length;
        expect(letters * 2).toBeGreaterThanOrEqual(used.replace(/\s/g, '').length);
      }),
    );
  });

  it('property: any "name.ext" title is treated as a file name', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9 _-]{1,30}$/),
        fc.stringMatching(/^[a-z][a-z0-9]{0,3}$/),
        (stem, ext) => {
          expect(usableTitle({ filename: 'upload.pdf', title: `${stem}.${ext}` })).toBeNull();
        },
      ),
    );
  });

  it('property: titles made of words stay', () => {
    const word = fc.stringMatching(/^[A-Za-zÀ-ÿ]{3,12}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 2, maxLength: 8 }), (words) => {
        const title = words.join(' ');
        expect(displayTitle({ filename: 'upload.pdf', title })).toBe(title);
      }),
    );
  });
});
