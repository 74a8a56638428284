import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isFieldLine, quotableText, quoteUnits, shortStatement, tooShortToQuote, wrapsProse } from './sentence-units';

const filler = 'Lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore.';

describe('wrapsProse', () => {
  it('joins a line that ends inside a sentence with the line it wraps onto', () => {
    expect(wrapsProse('Anyone wishing to address the Board of', 'Education on closed session matters may do so')).toBe(
      true,
    );
    expect(
      wrapsProse('ATTENDU QUE le projet de construction proposé prévoit, pour l’utilisation', 'projetée du sol'),
    ).toBe(true);
    expect(wrapsProse('un agrandissement de l’arrière du bâtiment,', 'préservé')).toBe(true);
    expect(wrapsProse('un algo-', 'rithme glouton')).toBe(true);
  });
  it('keeps form fields, headings, captions, numbers and table rows apart (must not fire)', () => {
    expect(
      wrapsProse('6480 Cameron Street Ste. 305 – Las Vegas, NV 89118', '(Address of principal executive offices)'),
    ).toBe(false);
    expect(wrapsProse('Demande de démolition pour le 1069, boulevard de Sainte-Adèle', 'Résolution DM-2023-001')).toBe(
      false,
    );
    expect(
      wrapsProse('Case Tracking Number: 150109-DSP-Milw-505 Agency: Bureau of Child Welfare', 'Child Information'),
    ).toBe(false);
    expect(wrapsProse('Tuesday, January 13, 2009', 'The above-entitled matter came on for oral')).toBe(false);
    expect(wrapsProse('3. CLOSED SESSION', 'By law, closed sessions are not open to the public.')).toBe(false);
    expect(wrapsProse('Date of Incident:', 'Description of the incident')).toBe(false);
    expect(wrapsProse('Zone NA | 12553 | 2713 | and', 'more text')).toBe(false);
    expect(wrapsProse('the rows of', 'Zone NA | 12553')).toBe(false);
    expect(wrapsProse('it ends with a number 42', 'next line')).toBe(false);
    expect(wrapsProse('a list of items', '- second item')).toBe(false);
  });
});

describe('quoteUnits', () => {
  it('reads a long PDF-wrapped sentence as one unit, and a form as its lines', () => {
    const text = [
      'ATTENDU QUE la portion arrière est en mauvais état;',
      'ATTENDU QUE le projet de construction proposé prévoit, pour l’utilisation',
      'projetée du sol dégagé, un agrandissement de l’arrière du bâtiment',
      'préservé, permettant l’ajout de 43 logements;',
      'ATTENDU la pertinence du projet de remplacement proposé;',
      'Date of Incident: 01/09/2015',
      'Age: 1 Year 9 Months Gender: Female',
    ].join('\n');
    const units = quoteUnits(text);
    expect(units.map((u) => u.text)).toContain(
      'ATTENDU QUE le projet de construction proposé prévoit, pour l’utilisation\nprojetée du sol dégagé, un agrandissement de l’arrière du bâtiment\npréservé, permettant l’ajout de 43 logements;',
    );
    expect(units.map((u) => u.text)).toContain('Date of Incident: 01/09/2015');
    expect(units.map((u) => u.text)).toContain('Age: 1 Year 9 Months Gender: Female');
  });
  it('reads a block of field lines as its lines, however short the block', () => {
    const block =
      'Author: Margaret Holloway\nIllustrator: Thomas Brandt\nPublisher: Harbour Press, Plymouth\nYear: 1931';
    expect(quoteUnits(block).map((u) => u.text)).toEqual([
      'Author: Margaret Holloway',
      'Illustrator: Thomas Brandt',
      'Publisher: Harbour Press, Plymouth',
      'Year: 1931',
    ]);
    // must not fire: fields mixed with prose stay one unit; one field line wrapped with prose
    const mixed =
      'Case Tracking Number: 151201-DSP-FOND-581\nDate of Incident: 12/01/2015\nThe agency received a report.';
    expect(quoteUnits(mixed).map((u) => u.text)).toEqual([mixed]);
    expect(quoteUnits('Note: the office is closed\non public holidays.').map((u) => u.text)).toEqual([
      'Note: the office is closed\non public holidays.',
    ]);
  });
  it('leaves short sentences and one-line text as the sentence splitter cut them', () => {
    expect(quoteUnits(`${filler} ${filler}`).map((u) => u.text)).toEqual([filler, filler]);
    expect(quoteUnits('A short line\nand its wrap.').map((u) => u.text)).toEqual(['A short line\nand its wrap.']);
  });
  it('every unit is the verbatim text at its offsets, in order and without overlap (property)', () => {
    const word = fc.constantFrom('the', 'Board', 'of', '42', 'x,', 'algo-', 'Total |', 'end.', '(Note)', 'Zone', ':');
    const line = fc.array(word, { minLength: 1, maxLength: 12 }).map((ws) => ws.join(' '));
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 30 }), (lines) => {
        const text = lines.join('\n');
        const units = quoteUnits(text);
        let last = 0;
        for (const u of units) {
          if (text.slice(u.start, u.end) !== u.text || u.start < last) return false;
          last = u.end;
        }
        return true;
      }),
    );
  });
});

describe('shortStatement and tooShortToQuote', () => {
  it('keeps a short sentence that states a value', () => {
    expect(shortStatement('This edition July 2016.')).toBe(true);
    expect(tooShortToQuote('This edition July 2016.')).toBe(false);
    expect(tooShortToQuote('It costs 10 euros.')).toBe(false);
  });
  it('keeps a field line of three words or more ("Author: E. F. Benson")', () => {
    expect(tooShortToQuote('Author: E. F. Benson')).toBe(false);
    expect(tooShortToQuote('Writer: Jonas Pike')).toBe(false);
    expect(isFieldLine('Translated by: Ingrid Sørensen')).toBe(true);
    // must not fire: a caption whose label ends in a number, a label without a value, a URL, a long label, two words
    expect(isFieldLine('Table 2: Results')).toBe(false);
    expect(isFieldLine('Date of Incident:')).toBe(false);
    expect(isFieldLine('https://example.org/page')).toBe(false);
    expect(isFieldLine('The five reasons we give here are: cost')).toBe(false);
    expect(tooShortToQuote('Language: English')).toBe(true);
  });
  it('keeps a list item that states an amount of something ("- 500 g bread flour")', () => {
    expect(tooShortToQuote('- 500 g bread flour')).toBe(false);
    expect(tooShortToQuote('* 2 sprigs fresh rosemary')).toBe(false);
    // must not fire: an item without a number, an item of two words, a numbered item whose only digit is its marker
    expect(tooShortToQuote('- fresh rosemary')).toBe(true);
    expect(tooShortToQuote('- 12 eggs')).toBe(true);
    expect(tooShortToQuote('3. Mix it well')).toBe(true);
  });
  it('still drops labels, running heads and fragments (must not fire)', () => {
    expect(tooShortToQuote('Page 4')).toBe(true);
    expect(tooShortToQuote('1100 REGISTERED VOTERS')).toBe(true);
    expect(tooShortToQuote('Fig. 3.')).toBe(true);
    expect(tooShortToQuote('See the table.')).toBe(true);
    expect(tooShortToQuote('Annual Report 2023')).toBe(true);
    expect(tooShortToQuote('A long enough sentence without any number at all.')).toBe(false);
  });
});

describe('quotableText', () => {
  it("elides a source's own reference markers so they are not read as citations", () => {
    expect(quotableText('LayoutParser, built upon Detectron2 [35], provides a minimal API.')).toBe(
      'LayoutParser, built upon Detectron2 … , provides a minimal API.',
    );
    expect(quotableText('the ResNet 50 or ResNet 101 backbones [13, 14], respectively.')).toBe(
      'the ResNet 50 or ResNet 101 backbones … , respectively.',
    );
    // a marker that ends (or opens) the unit is dropped, not elided
    expect(quotableText('as shown by prior work [7]')).toBe('as shown by prior work');
    expect(quotableText('[2] Smith et al. describe the method.')).toBe('Smith et al. describe the method.');
  });
  it('leaves brackets that are no reference numbers alone (must not fire)', () => {
    expect(quotableText('The array a[i] holds [x, y] pairs.')).toBe('The array a[i] holds [x, y] pairs.');
    expect(quotableText('Prices rose by [approx.] 12 % in 2023.')).toBe('Prices rose by [approx.] 12 % in 2023.');
    expect(quotableText('A line\nwrapped   here.')).toBe('A line wrapped here.');
  });
  it('keeps every word of the unit in order (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('alpha', 'beta', '[12]', '[3, 4]', 'x[1]', 'gamma.'), { maxLength: 12 }),
        (ws) => {
          const text = ws.join(' ');
          const out = quotableText(text);
          expect(out).not.toMatch(/(?:^|\s)\[\d/);
          const words = (t: string) => t.split(/\s+/).filter((w) => /^[a-z]/.test(w));
          expect(words(out)).toEqual(words(text));
        },
      ),
    );
  });
});
