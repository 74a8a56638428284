import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { askedDimension, asksDimensionWith, type Dimension, saysMeasure, unitHeaderReader } from './measure';

describe('askedDimension', () => {
  it.each<[string, Dimension | null]>([
    ['How old was the patient at diagnosis?', 'age'],
    ['At what age do pupils start school?', 'age'],
    ['Wie alt ist das Gebäude?', 'age'],
    ['Quel âge a le directeur ?', 'age'],
    ['How far is the depot from the port?', 'distance'],
    ['How deep is the well?', 'length'],
    ['How heavy is the crate?', 'weight'],
    ['How fast does the train run?', 'speed'],
    ['How much does the annual licence cost?', 'money'],
    ['How much did the council pay for the land?', 'money'],
    ['Wie viel kostet die Anmeldung?', 'money'],
    ['Combien coûte le billet ?', 'money'],
    ['How long did the strike last?', 'duration'],
    ['For how long is the permit valid?', 'duration'],
    ['At what temperature is the bread baked?', 'temperature'],
    ['How hot does the engine get?', 'temperature'],
    ['Which temperature is required for storage?', 'temperature'],
    ['Quelle température faut-il ?', 'temperature'],
    // not a measurement of one dimension
    ['How many staff were hired?', null],
    ['How much revenue did the firm report?', null],
    ['How long is the notice period?', null],
    ['What is the total budget?', null],
    ['Who chairs the board?', null],
    ['How much did the division sell in 2023?', null],
  ])('%s → %s', (question, dimension) => {
    expect(askedDimension(question)).toBe(dimension);
  });
});

describe('saysMeasure', () => {
  it.each([
    ['How old was the patient?', 'A 54-year-old patient was admitted with chest pain.'],
    ['How old was the patient?', 'Patient details. Age: 54 years. Sex: male.'],
    ['How old was the patient?', 'The patient, aged 54, was admitted.'],
    ['How old was the patient?', 'He was admitted at the age of fifty-four.'],
    ['How old is the tree?', 'The oak is about 300 years old.'],
    ['How old was the patient?', 'The patient was 54 years of age on admission.'],
    ['How old is the mayor?', 'Jane Roe (born 13 April 1953) is the mayor of the town.'],
    ['Wie alt ist der Bürgermeister?', 'Der Bürgermeister, geboren 1961 in Ulm, ist seit 2014 im Amt.'],
    ['How far is the depot from the port?', 'The depot is 3.5 km from the port.'],
    ['How far is the depot from the port?', 'It is a two-hour drive from the port.'],
    ['How deep is the well?', 'The well was dug to 120 ft.'],
    ['How heavy is the crate?', 'The crate weighs 45 kg when full.'],
    ['How fast does the train run?', 'Trains run at up to 320 km/h on the new line.'],
    ['How much does the annual licence cost?', 'The annual licence costs €1,200.'],
    ['How much does the annual licence cost?', 'The annual licence costs USD 1,200.'],
    ['How much does the annual licence cost?', 'A licence costs 4.5 million Canadian dollars a year.'],
    ['How much did the council pay for the land?', 'The council paid Rs. 40 lakh for the plot.'],
    ['How much was paid to the district director?', 'DOE, JANE DISTRICT DIRECTOR 01/01/2020 03/31/2020 37,499.96'],
    ['How much did the house sell for?', 'The house sold for £450,000 in March.'],
    ['How long did the strike last?', 'The strike lasted three and a half weeks.'],
    ['How long does express shipping take?', 'Express shipping takes 1 to 2 business days and costs 12 euros.'],
    ['How long does a refund take?', 'Refunds are paid within 5 working days.'],
    ['How many staff were hired?', 'Any text at all, with or without 12 numbers.'],
    // an attributive age of the asked one, of a word the question uses, or of a noun only the sentence names
    ['How old was the child?', 'The agency received a report regarding a 3-year-old child brought to the hospital.'],
    ['How old was the son?', "The mother's boyfriend's 4 year old son lived in the home."],
    ['How old were the children?', 'Two children, a 4-year-old child and a baby, lived there.'],
    ['How old was the victim?', 'A 3-year-old child was brought to the hospital.'],
    ['How old was the child?', 'The child was 3 years old, and lived with a 4 year old cousin.'],
    ['At what temperature is the bread baked?', 'Heat the oven to 230 °C.'],
    ['At what temperature is the bread baked?', 'Bake at 450°F until golden.'],
    ['What temperature should the samples be kept at?', 'Store the samples at minus 20 degrees C.'],
    ['How hot does the engine get?', 'The engine reaches 110 ℃ under load.'],
  ])('%s is answered by "%s"', (question, text) => {
    expect(saysMeasure(text, question)).toBe(true);
  });

  it.each([
    // a number on topic, but not of the asked dimension
    ['How old was the child?', 'Were services under ch. 938 being provided to the child at the time?'],
    ['How old was the child?', 'Case 151201 concerns the child and the mother.'],
    ['How far is the depot from the port?', 'Gate 12 of the port leads to the depot.'],
    ['How heavy is the crate?', 'Crate 45 was shipped with 3 others.'],
    ['How much does the annual licence cost?', 'The annual licence was introduced in 2019 for 3 sectors.'],
    ['How long did the strike last?', 'The strike began on 12 May 2021 at 3 plants.'],
    ['How much did the council pay for the land?', 'The land, lot 12.5 of the survey, was bought by the council.'],
    // the question's own number is no answer
    ['How old was the child in 2015?', 'In 2015 the child moved house.'],
    ['How old was the child?', 'Services to the child in the previous five years: none.'],
    ['How old was the child?', 'The child lived with an aunt for 3 years.'],
    ['How old is the mayor?', 'The mayor was born in Leeds and elected in ward 12.'],
    // the age of another than the one asked about, in a sentence that names the asked one (a 90-day report)
    [
      'How old was the child?',
      "At the time of the incident, the child resided with his mother, mother's boyfriend and the mother's boyfriend's 4 year old son.",
    ],
    ['How old was the mother?', "The mother's 4-year-old son was at school."],
    ['How old is the patient?', 'The patient lives with a 9-year-old daughter.'],
    // a time or an amount said next to "temperature" measures no temperature
    ['At what temperature is the bread baked?', 'Bread keeps for 2 days at room temperature.'],
    ['At what temperature is the bread baked?', 'Press 200 g of tomatoes into the dough before baking.'],
  ])('%s is not answered by "%s"', (question, text) => {
    expect(saysMeasure(text, question)).toBe(false);
  });

  const UNITS: Record<Exclude<Dimension, 'money' | 'age' | 'distance'>, string[]> = {
    temperature: ['°C', '°F', 'degrees', 'celsius', 'kelvin', '°'],
    length: ['m', 'km', 'metres', 'feet', 'ft', 'inches'],
    weight: ['kg', 'g', 'tonnes', 'pounds', 'lbs', 'ounces'],
    speed: ['km/h', 'mph', 'knots', 'm/s'],
    duration: ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months', 'years'],
  };
  const QUESTION: Record<keyof typeof UNITS, string> = {
    temperature: 'How hot does the mast get?',
    length: 'How tall is the mast?',
    weight: 'How heavy is the mast?',
    speed: 'How fast does the mast turn?',
    duration: 'How long did the mast take to build?',
  };

  it('a number in a unit of the asked dimension answers; the same number in another dimension does not', () => {
    const dims = Object.keys(UNITS) as (keyof typeof UNITS)[];
    fc.assert(
      fc.property(
        fc.constantFrom(...dims),
        fc.constantFrom(...dims),
        fc.double({ min: 0.1, max: 99999, noNaN: true }),
        fc.nat(5),
        fc.nat(5),
        (asked, other, value, a, b) => {
          const number = value.toFixed(value < 10 ? 1 : 0);
          const unit = UNITS[asked][a % UNITS[asked].length];
          const wrong = UNITS[other][b % UNITS[other].length];
          expect(saysMeasure(`The figure given is ${number} ${unit} in all.`, QUESTION[asked])).toBe(true);
          if (other !== asked)
            expect(saysMeasure(`The figure given is ${number} ${wrong} in all.`, QUESTION[asked])).toBe(false);
          expect(saysMeasure(`The figure given is ${number} in all.`, QUESTION[asked])).toBe(false);
        },
      ),
    );
  });
});

describe('unitHeaderReader', () => {
  it('reads a column header naming a unit of the asked dimension', () => {
    const money = unitHeaderReader('How much does the cordless drill cost?');
    expect(money?.('Price (EUR)')).toBe(true);
    expect(money?.('Unit price $')).toBe(true);
    expect(money?.('Amount in USD')).toBe(true);
    expect(money?.('Stock')).toBe(false);
    expect(money?.('Weight (kg)')).toBe(false);
    const weight = unitHeaderReader('How heavy is the angle grinder?');
    expect(weight?.('Weight (kg)')).toBe(true);
    expect(weight?.('Price (EUR)')).toBe(false);
  });

  it('names the words a question asks its dimension with, and only those', () => {
    const q = 'How much does the cordless drill cost to repair?';
    expect(asksDimensionWith(q, 'cost')).toBe(true);
    expect(asksDimensionWith(q, 'repair')).toBe(false);
    expect(asksDimensionWith(q, 'drill')).toBe(false);
    expect(asksDimensionWith('How heavy is the crate?', 'heavy')).toBe(true);
    expect(asksDimensionWith('What is the price of NW-3002?', 'price')).toBe(false);
  });

  it('reads nothing for a question that asks no dimension', () => {
    expect(unitHeaderReader('What is the price of NW-3002?')).toBeNull();
  });
});
