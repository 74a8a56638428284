import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  answerFit,
  combinedFit,
  degreeMissing,
  deniesTerms,
  type FitSentence,
  namesNotInSentences,
  oneSentenceShare,
  placeMissing,
  polarityMismatch,
  spreadAcross,
  termsMissing,
  valueRebound,
} from './answer-fit';

/** Sentences of one chunk, in order, with their offsets (joined by one space). */
function chunk(source: string, ...texts: string[]): FitSentence[] {
  const context = texts.join(' ');
  let at = 0;
  return texts.map((text) => {
    const s = { text, context, source, start: at };
    at += text.length + 1;
    return s;
  });
}

describe('polarityMismatch', () => {
  it('fires when the sentence denies the asked predicate', () => {
    expect(
      polarityMismatch('What did the Grand Chamber say the Commission had proven?', [
        'The Grand Chamber held that the Commission had not proven that the aid was unlawful.',
      ]),
    ).toBe(true);
    expect(
      polarityMismatch('What should fall under article 56 according to several governments?', [
        'Several governments argued that lotteries should not fall within article 56.',
      ]),
    ).toBe(true);
  });

  it('fires when the question asks about a denial no sentence states', () => {
    expect(
      polarityMismatch('What is not prevented from entering an organism?', [
        'Physical barriers prevent pathogens such as bacteria and viruses from entering the organism.',
      ]),
    ).toBe(true);
  });

  it('does not fire when both deny (a question that itself negates)', () => {
    expect(
      polarityMismatch('Why did the team not play in the 2020 season?', [
        'The team did not play in the 2020 season because of the pandemic.',
      ]),
    ).toBe(false);
    expect(
      polarityMismatch('Which fruit has no seeds?', [
        'Bananas grown for food have no seeds and are propagated from pups.',
      ]),
    ).toBe(false);
  });

  it('does not fire on a "not" in a relative clause unrelated to the asked predicate', () => {
    expect(
      polarityMismatch('When was the company founded?', [
        'The company, which did not disclose its revenue, was founded in 1990.',
      ]),
    ).toBe(false);
    expect(
      polarityMismatch('When was the company founded?', [
        'The company that did not pay its taxes was founded in 1990 in Ohio.',
      ]),
    ).toBe(false);
    expect(
      polarityMismatch('What did Microsoft announce?', [
        'Microsoft announced a settlement in which it will not appeal the ruling.',
      ]),
    ).toBe(false);
  });

  it('does not fire on "not only" or on a yes/no question answered "no"', () => {
    expect(
      polarityMismatch('What does the tariff cover?', ['The tariff covers not only steel but also aluminium.']),
    ).toBe(false);
    expect(
      polarityMismatch('Are the Practice Tips mandatory?', ['The Practice Tips are not considered mandatory.']),
    ).toBe(false);
    expect(
      polarityMismatch('Do the statistics represent the number of firearms sold?', [
        'These statistics do not represent the number of firearms sold.',
      ]),
    ).toBe(false);
  });

  it('is false with nothing quoted', () => {
    expect(polarityMismatch('What is not prevented?', [])).toBe(false);
  });
});

describe('deniesTerms', () => {
  it('reads contractions and stops at a clause boundary', () => {
    expect(deniesTerms("They didn't renew the lease.", new Set(['renew']))).toBe(true);
    expect(deniesTerms('They did not, however, stop; the lease was renewed.', new Set(['renew']))).toBe(false);
    expect(deniesTerms('See No. 21 for the lease renewal terms.', new Set(['leas']))).toBe(false);
  });
});

describe('namesNotInSentences', () => {
  it('counts the asked names the quoted sentence lacks and which of them its chunk holds elsewhere', () => {
    const sentences = chunk(
      'p1',
      'Warsaw has several universities, among them the Chopin University of Music.',
      'Krakow has a conservatory too.',
    ).slice(0, 1);
    expect(namesNotInSentences('What is one of the largest music schools in Krakow?', sentences)).toEqual({
      missing: 1,
      elsewhere: 1,
    });
    expect(namesNotInSentences('What is one of the largest music schools in Warsaw?', sentences)).toEqual({
      missing: 0,
      elsewhere: 0,
    });
  });
});

describe('valueRebound', () => {
  it('fires when the value the question states belongs to another noun in the sentence', () => {
    expect(
      valueRebound('Where was the average household size 3.21?', [
        'The average household size was 2.55 and the average family size was 3.21.',
      ]),
    ).toBe(true);
  });

  it('does not fire when the value stands by its own noun, or when the sentence lacks the value', () => {
    expect(
      valueRebound('What was the average family size of 3.21 based on?', [
        'The average household size was 2.55 and the average family size was 3.21.',
      ]),
    ).toBe(false);
    expect(valueRebound('Who appoints chapter 13 trustees?', ['The US Trustee appoints chapter 13 trustees.'])).toBe(
      false,
    );
    expect(valueRebound('What happened in 1990?', ['Nothing of note happened.'])).toBe(false);
  });

  it('does not read years and codes, which name many things in one sentence', () => {
    expect(
      valueRebound('Which directive would the proposed 737 MAX rule supersede?', [
        'The FAA proposes to supersede AD 2018-23-51, which applies to all Model 737-8 and 737-9 (737 MAX) airplanes.',
      ]),
    ).toBe(false);
    expect(
      valueRebound('Why did Carter boycott the 1980 Olympics?', [
        'On 14 January 1980, the Carter Administration set a deadline, including an international boycott of the games.',
      ]),
    ).toBe(false);
  });

  it('does not fire when one quoted sentence binds the value as the question does', () => {
    expect(
      valueRebound('Who appoints and supervises chapter 13 standing trustees?', [
        'The appointment of chapter 13 trustees is done by the US Trustee.',
        'Payments under chapter 7 and 13 are made by the trustee, who also reports to the chapter office.',
      ]),
    ).toBe(false);
  });
});

describe('placeMissing', () => {
  it('fires on a "where" question quoted with a sentence that names no place', () => {
    expect(
      placeMissing('Where was the average household size 3.21?', [
        'The average household size was 2.55 and the average family size was 3.21.',
      ]),
    ).toBe(true);
  });

  it('does not fire when the sentence names a place, an address or a location', () => {
    expect(placeMissing('Where was the treaty signed?', ['The treaty was signed by both kings at Utrecht.'])).toBe(
      false,
    );
    expect(placeMissing('Where is the library available?', ['The library is available at https://example.org.'])).toBe(
      false,
    );
    expect(placeMissing('Where is bone marrow found?', ['Bone marrow is found within the spongy bones.'])).toBe(false);
  });

  it('does not apply to "where did X come from" or to other questions', () => {
    expect(placeMissing('Where did the word come from?', ['The word is older than the language.'])).toBe(false);
    expect(placeMissing('What was the household size?', ['The household size was 2.55.'])).toBe(false);
  });
});

describe('spreadAcross', () => {
  it('fires when two separate passages each hold part of the question', () => {
    const a = chunk('a', 'The Grand Alliance was formed in 1689.');
    const b = chunk('b', 'The team won the award in 1994.');
    expect(spreadAcross('Who won the award for the war of the Grand Alliance?', [...a, ...b])).toBe(true);
  });

  it('does not fire on a legitimately spread answer: adjacent sentences of one passage', () => {
    const s = chunk('a', 'Rollo founded the Duchy of Normandy in 911.', 'He ruled the duchy until 927.');
    expect(spreadAcross('Who founded and ruled the Duchy of Normandy until 927?', s)).toBe(false);
  });

  it('does not fire on sentences of one passage that answer together, adjacent or not', () => {
    const s = chunk(
      'a',
      'Zi refers to the North Star, the abode of the Celestial Emperor.',
      'The palace had 980 buildings.',
      'The Forbidden City, as the residence of the terrestrial emperor, was its earthly counterpart.',
    );
    expect(
      spreadAcross(
        'Why is the Forbidden City called after the North Star abode?',
        [s[0], s[2]].filter((x) => x !== undefined),
      ),
    ).toBe(false);
  });

  it('does not fire when one sentence holds the question', () => {
    const s = [...chunk('a', 'Rollo founded the Duchy of Normandy in 911.'), ...chunk('b', 'Normandy is in France.')];
    expect(spreadAcross('Who founded the Duchy of Normandy?', s)).toBe(false);
  });
});

describe('termsMissing and degreeMissing', () => {
  it('measures the asked terms no sentence holds', () => {
    expect(
      termsMissing('What can a contingency plan suffer from?', ['Construction projects can suffer from delays.']),
    ).toBeCloseTo(2 / 3);
    expect(
      termsMissing('What can a construction project suffer from?', ['Construction projects can suffer from delays.']),
    ).toBe(0);
  });

  it('fires on a degree the sentence does not state, not on one it states', () => {
    expect(
      degreeMissing('What is the oldest work of Norman art?', [
        'The most famous work of Norman art is the Bayeux Tapestry.',
      ]),
    ).toBe(true);
    expect(
      degreeMissing('What is the most famous work of Norman art?', [
        'The most famous work of Norman art is the Bayeux Tapestry.',
      ]),
    ).toBe(false);
    expect(degreeMissing('What is a work of Norman art?', ['The Bayeux Tapestry is a work of Norman art.'])).toBe(
      false,
    );
  });

  it('reads "the most" before a plural noun as the largest count, which the sentence must state', () => {
    const rows = ['Boeing Company Long Beach | 312 | Layoff Permanent', 'Twitter, Inc. | 96 | Layoff Permanent'];
    expect(degreeMissing('Which company had the most layoffs?', rows)).toBe(true);
    expect(degreeMissing('Which company had the most layoffs?', ['Boeing had the most layoffs of 2015.'])).toBe(false);
    expect(
      degreeMissing('Who has won the most Grand Slam titles?', ['Djokovic holds the record of 24 Grand Slam titles.']),
    ).toBe(false);
    // An intensity is no count: "the most intense rival" may be answered by "an intense rivalry".
    expect(degreeMissing('Who is the most intense rival?', ['Their rivalry was intense.'])).toBe(false);
  });
});

describe('answerFit and combinedFit', () => {
  it('a sentence that says what the question asks raises no signal', () => {
    const fit = answerFit(
      'When did the Brotherhood renounce violence?',
      chunk('a', 'By the 1970s, the Brotherhood had renounced violence.'),
    );
    expect(fit).toMatchObject({
      polarityMismatch: false,
      namesMissing: 0,
      valueRebound: false,
      placeMissing: false,
      spread: false,
      termsMissing: 0,
      degreeMissing: false,
    });
  });

  it('a compound answer carries every part’s doubts', () => {
    const plain = answerFit('When was it founded?', chunk('a', 'It was founded in 1990.'));
    const denied = answerFit('What was proven?', chunk('b', 'Nothing was proven; it was not proven at all.'));
    expect(combinedFit([plain, denied])?.polarityMismatch).toBe(true);
    expect(combinedFit([undefined])).toBeUndefined();
  });

  it('adding an unrelated sentence after the answer never removes a denial (property)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{3,8}( [a-z]{3,8}){0,5}\.$/), (extra) => {
        const q = 'What did the court say the Commission had proven?';
        const s = ['The court held that the Commission had not proven its case.', extra];
        return polarityMismatch(q, s);
      }),
    );
  });

  it('a question whose sentence is the question restated as a statement raises no polarity or degree signal (property)', () => {
    const word = fc.constantFrom('river', 'treaty', 'engine', 'museum', 'council', 'harbour', 'bridge', 'charter');
    const verb = fc.constantFrom('built', 'signed', 'opened', 'funded', 'designed', 'closed');
    fc.assert(
      fc.property(word, verb, fc.boolean(), (noun, v, negate) => {
        const q = `Who ${negate ? 'did not ' : ''}${v === 'built' ? 'build' : v.replace(/ed$/, '')} the ${noun}?`;
        const s = [`The ${noun} was ${negate ? 'not ' : ''}${v} by the Hansa merchants.`];
        return !polarityMismatch(q, s) && !degreeMissing(q, s);
      }),
    );
  });
});

describe('oneSentenceShare', () => {
  it('is 1 when one sentence holds every topic word, read under its heading', () => {
    expect(
      oneSentenceShare(
        'Who challenged the plague theory first?',
        chunk('a', 'The plague theory was first challenged by Shrewsbury.'),
      ),
    ).toBe(1);
    const headed = [{ ...chunk('a', 'It opened in 1990 with 40 beds.')[0]!, heading: 'Royal Infirmary' }];
    expect(oneSentenceShare('When did the Royal Infirmary open?', headed)).toBe(1);
    // an acronym the sentence spells out is said by it
    expect(
      oneSentenceShare(
        "What type of committee is set down under the SP's standing orders?",
        chunk('a', "Mandatory Committees are set down under the Scottish Parliament's standing orders."),
      ),
    ).toBe(1);
    // frame words ("what is the name of") are no topic words
    expect(oneSentenceShare('What is the name of the prison?', chunk('a', 'Pawiak was the prison.'))).toBe(1);
  });

  it('is below 1 when the question’s words are gathered from two sentences (adversarial: the union holds them all)', () => {
    const q = 'What did Warner Sinback offer?';
    const sentences = chunk(
      'a',
      'At the instigation of Warner Sinback, a data network was designed.',
      'The centers were service bureaus, offering batch processing.',
    );
    expect(oneSentenceShare(q, sentences)).toBeLessThan(1);
    expect(answerFit(q, sentences).termsMissing).toBe(0);
  });

  it('is 1 for a question without topic words and 0 when nothing is quoted', () => {
    expect(oneSentenceShare('What is it?', [])).toBe(1);
    expect(oneSentenceShare('When did the Brotherhood renounce violence?', [])).toBe(0);
  });

  it('never falls when a sentence is added, and a compound answer keeps its weakest part (property)', () => {
    const word = fc.constantFrom('river', 'treaty', 'engine', 'museum', 'council', 'harbour', 'bridge', 'charter');
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), fc.array(word, { maxLength: 4 }), (a, b) => {
        const q = 'When was the river treaty for the museum bridge signed?';
        const one = chunk('a', `The ${a.join(' and ')} was there.`);
        const two = chunk('a', `The ${a.join(' and ')} was there.`, `The ${b.join(' and ')} stood.`);
        expect(oneSentenceShare(q, two)).toBeGreaterThanOrEqual(oneSentenceShare(q, one));
        const fits = [answerFit(q, one), answerFit(q, two)];
        expect(combinedFit(fits)?.oneSentenceShare).toBe(Math.min(...fits.map((f) => f.oneSentenceShare)));
      }),
    );
  });
});
