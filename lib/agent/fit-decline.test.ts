import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asksUnstatedDenial, fitDeclines } from './fit-decline';

describe('asksUnstatedDenial', () => {
  it('fires when the question asks about a denial and the quoted sentences state none', () => {
    expect(
      asksUnstatedDenial('What is not prevented from entering an organism?', [
        'In simple terms, physical barriers prevent pathogens such as bacteria and viruses from entering the organism.',
      ]),
    ).toBe(true);
    expect(
      asksUnstatedDenial("When didn't Washington learn about Trent's retreat?", [
        'Learning of a French scouting party in the area, Washington surprised the Canadians on May 28.',
      ]),
    ).toBe(true);
    expect(
      asksUnstatedDenial('two manners of articulation that do not occur in english', [
        'This emphasis is typically caused by increased loudness and vowel length, full articulation of the vowel.',
      ]),
    ).toBe(true);
    expect(
      fitDeclines('Who proposes the date of the poll not be varied?', ['The date may be varied by a month.']),
    ).toBe(true);
  });

  it('does not fire when a quoted sentence states a negation, an absence or an exception', () => {
    expect(
      asksUnstatedDenial('What is not prevented from entering an organism?', [
        'Barriers prevent most pathogens from entering, but they do not stop every virus.',
      ]),
    ).toBe(false);
    expect(
      asksUnstatedDenial('Which planets have no moons?', ['All planets except Mercury and Venus have moons.']),
    ).toBe(false);
    // a contrast states what is not so: "rather than", "instead of"
    expect(
      asksUnstatedDenial("What didn't Newton's mechanics describe?", [
        'Newtonian mechanics describes idealized point particles rather than three-dimensional objects.',
      ]),
    ).toBe(false);
    expect(
      asksUnstatedDenial('Which fuel did the plant not burn?', ['The plant burned gas instead of coal after 1990.']),
    ).toBe(false);
    expect(asksUnstatedDenial('Which plants do not produce seeds?', ['Ferns lack seeds and spread by spores.'])).toBe(
      false,
    );
  });

  it('does not fire on a plain question, even when a quoted sentence denies its predicate (a confidence signal only)', () => {
    expect(
      asksUnstatedDenial('What did the Grand Chamber say the Commission had proven?', [
        'The Grand Chamber held that the Commission had not proven that the aid was unlawful.',
      ]),
    ).toBe(false);
    expect(
      asksUnstatedDenial('what determines the distance a beam bridge can span', [
        "This doesn't mean beam bridges aren't used to cross great distances.",
      ]),
    ).toBe(false);
  });

  it('does not fire on a title that holds a negation when the sentence quotes it', () => {
    expect(
      asksUnstatedDenial("who sang i don't want to miss a thing", [
        '"I Don\'t Want to Miss a Thing" is a power ballad performed by the American rock band Aerosmith.',
      ]),
    ).toBe(false);
  });

  it('does not fire on a negation that denies nothing asked ("not only", "No. 5") nor without sentences', () => {
    expect(
      asksUnstatedDenial('Which city is not only a port but also a capital?', ['Lisbon is a port and the capital.']),
    ).toBe(false);
    expect(asksUnstatedDenial('What runs along Route No. 5?', ['A bus line runs along Route 5.'])).toBe(false);
    expect(asksUnstatedDenial('What is not prevented from entering an organism?', [])).toBe(false);
    expect(asksUnstatedDenial('not?', ['Something is said.'])).toBe(false);
  });

  it('never fires on a question without a negation word', () => {
    const word = fc.constantFrom('what', 'who', 'did', 'the', 'court', 'prove', 'river', 'flows', 'into', 'city', 'is');
    const sentence = fc.array(fc.constantFrom('the', 'court', 'did', 'not', 'prove', 'it', 'no', 'river', 'flows'), {
      minLength: 1,
      maxLength: 12,
    });
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 10 }), fc.array(sentence, { maxLength: 3 }), (q, ss) => {
        expect(
          asksUnstatedDenial(
            `${q.join(' ')}?`,
            ss.map((s) => `${s.join(' ')}.`),
          ),
        ).toBe(false);
      }),
    );
  });
});

describe('asksUnstatedDenial: a denial said by a negating prefix', () => {
  it('does not fire when a quoted sentence negates an asked word by its prefix', () => {
    expect(
      asksUnstatedDenial('Which tenants have not paid the rent?', ['The rent of units 3 and 5 is unpaid since March.']),
    ).toBe(false);
    expect(
      asksUnstatedDenial('Which members are not resident in the country?', [
        'Two board members are non-resident for tax purposes.',
      ]),
    ).toBe(false);
  });

  it('still fires when a prefixed word is not one the question asks about', () => {
    expect(
      asksUnstatedDenial('Which tenants have not paid the rent?', [
        'The tenants of units 3 and 5 paid the rent in an unusual way.',
      ]),
    ).toBe(true);
  });
});

describe('asksUnstatedDenial: only the denied words count for the prefix', () => {
  it('fires when the prefixed word is a topic word the question does not deny', () => {
    expect(
      asksUnstatedDenial(
        "What does not depend on the immune system's ability to distinguish between the self and others?",
        [
          'Both innate and adaptive immunity depend on the ability of the immune system to distinguish between self and non-self molecules.',
        ],
      ),
    ).toBe(true);
  });
});
