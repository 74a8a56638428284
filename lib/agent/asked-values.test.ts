import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { askedValues, missingValues, ordinalSuffix, ordinalWordValue, valuesIn } from './asked-values';

describe('askedValues', () => {
  it('reads months, days of the week and digit ordinals as the question writes them', () => {
    expect(askedValues('what is the average rainfall in lisbon in january').map((v) => v.keys)).toEqual([['month:1']]);
    expect(askedValues('Which shops open on Sundays?').map((v) => v.keys)).toEqual([['day:7']]);
    expect(askedValues('who ratified the 19th amendment').map((v) => v.keys)).toEqual([['ordinal:19']]);
    expect(askedValues('How many members joined as of Sept 2015?').map((v) => v.keys)).toEqual([['month:9']]);
  });

  it('reads "may" and "march" as months only where the question marks them so', () => {
    expect(askedValues('what may cause a headache')).toEqual([]);
    expect(askedValues('how far can an army march in a day')).toEqual([]);
    expect(askedValues('what holidays are in may').map((v) => v.keys)).toEqual([['month:5']]);
    expect(askedValues('what happened on may 4 1970').map((v) => v.keys)).toEqual([['month:5']]);
  });

  it('leaves out ordinal and cardinal words', () => {
    expect(askedValues('when was the first vaccine invented')).toEqual([]);
    expect(askedValues('identify four problems of the third estate')).toEqual([]);
  });

  it('reads a range as one value met by either end', () => {
    expect(askedValues('What were the sales in January–June 2023?')).toEqual([
      { label: 'January–June', keys: ['month:1', 'month:6'] },
    ]);
    expect(askedValues('which stores open monday to friday').map((v) => v.keys)).toEqual([['day:1', 'day:5']]);
  });
});

describe('valuesIn', () => {
  it('reads months and days in full and abbreviated, and ordinals in digits and words', () => {
    const have = valuesIn('Opened on Feb. 3 by his third son; closed every Tue and on the twenty-second day.');
    expect([...have].sort()).toEqual(['day:2', 'month:2', 'ordinal:22', 'ordinal:3'].sort());
    expect(valuesIn('The twenty - first edition').has('ordinal:21')).toBe(true);
  });

  it('reads a number whose superscript suffix a PDF set apart as that ordinal, and no other', () => {
    const pdf =
      'RIL invites all shareholders to its 45 Annual th General Meeting (AGM), to be held on 29 August, 2022.';
    expect(valuesIn(pdf).has('ordinal:45')).toBe(true);
    expect(valuesIn(pdf).has('ordinal:29')).toBe(false);
    expect(valuesIn('Page 22 of the report th').has('ordinal:22')).toBe(false);
    expect(missingValues('When is the 45th Annual General Meeting held?', pdf)).toEqual([]);
  });

  it('gives English ordinal suffixes', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 45, 101, 111].map(ordinalSuffix)).toEqual([
      'st',
      'nd',
      'rd',
      'th',
      'th',
      'th',
      'th',
      'st',
      'nd',
      'th',
      'st',
      'th',
    ]);
  });

  it('does not read the modal "may" or a capitalised word opening a sentence as a month or day', () => {
    expect(valuesIn('Prices may rise. Sat nav units are sold here.').size).toBe(0);
    expect(valuesIn('May 28 was the day.').has('month:5')).toBe(true);
  });
});

describe('ordinalWordValue', () => {
  it('values ordinal words', () => {
    expect(ordinalWordValue('third')).toBe(3);
    expect(ordinalWordValue('Twentieth')).toBe(20);
    expect(ordinalWordValue('forty-fifth')).toBe(45);
    expect(ordinalWordValue('twenty-tenth')).toBeUndefined();
    expect(ordinalWordValue('three')).toBeUndefined();
  });
});

describe('missingValues', () => {
  it('declines a passage that states the value for another month, day or place', () => {
    expect(
      missingValues(
        'what is the average temperature in oslo in july',
        'The average temperature in Oslo in February is -4 °C.',
      ),
    ).toEqual(['july']);
    expect(
      missingValues(
        'Which committee meets on Mondays and Thursdays?',
        'The finance committee meets on Mondays and Wednesdays.',
      ),
    ).toEqual(['Thursdays']);
    expect(missingValues('Who finished 12th in the race?', 'Smith finished 21st and Jones 13th.')).toEqual(['12th']);
  });

  it('answers when the passage states the value in another form', () => {
    expect(missingValues('what is the average temperature in oslo in july', 'Jul: 17 °C; Aug: 16 °C.')).toEqual([]);
    expect(missingValues("Who was Akbar's 3rd son?", 'Daniyal was the third son of Akbar.')).toEqual([]);
    expect(
      missingValues('What were the sales in January–June 2023?', 'Sales in the six months to June 2023 rose.'),
    ).toEqual([]);
    expect(missingValues('what does the passage say', 'Nothing dated.')).toEqual([]);
  });

  const MONTHS = [
    'January',
    'February',
    'April',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ];
  const FILLER = [
    'the',
    'rainfall',
    'average',
    'city',
    'was',
    'high',
    'low',
    'in',
    'recorded',
    'at',
    'station',
    '12',
    'mm',
  ];

  it('property: a month the question asks is missing exactly when the passage names no form of it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...MONTHS),
        fc.array(fc.constantFrom(...FILLER), { minLength: 1, maxLength: 20 }),
        fc.boolean(),
        fc.boolean(),
        (month, words, lowerQuestion, said) => {
          const asked = lowerQuestion ? month.toLowerCase() : month;
          const passage = said ? [...words, 'in', month, '.'].join(' ') : `${words.join(' ')} .`;
          const missing = missingValues(`what was the rainfall in ${asked}`, passage);
          expect(missing).toEqual(said ? [] : [asked]);
        },
      ),
    );
  });
});
