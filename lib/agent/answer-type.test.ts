import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from '@/lib/retrieval/analyzer';
import {
  definedTerm,
  definesTerm,
  detectAnswerType,
  holdsAnswerType,
  numberNearTerms,
  questionFrameTerms,
  specificWords,
  subQuestions,
  typedValueNearTerms,
  typeNounModifiers,
  typeNounTerms,
  withoutElision,
  withoutInterrogatives,
} from './answer-type';

describe('detectAnswerType', () => {
  it.each([
    ['How many employees does the company have?', 'quantity'],
    ['How much did PetCare sell in the first half of 2023?', 'quantity'],
    ['What was the total revenue reported in the 10-K?', 'quantity'],
    ['What is the price of oranges?', 'quantity'],
    ['Combien de logements le projet permet-il d’ajouter?', 'quantity'],
    ['When was this edition published?', 'date'],
    ['In which year did the team win the cup?', 'date'],
    ['On what date must comments be received?', 'date'],
    ['Who is the chief executive officer?', 'entity'],
    ['Which company published the advertisement?', 'entity'],
    ['Is the backup encrypted?', 'yesno'],
    ['What is a hausdorff space?', 'definition'],
    ['What does churn mean in this report?', 'definition'],
    ['How do I submit comments on the directive?', 'procedure'],
    ['What do the unallocated items mainly consist of?', 'other'],
    // "the date of", "the name of": the noun names the answer's type as "when" and "who" do
    ['What was the date of the incident?', 'date'],
    ['What is the year of publication?', 'date'],
    ['What is the name of the child’s mother?', 'entity'],
    ["What was the landlord's name?", 'entity'],
    ['What is the time limit for appeals?', 'other'],
    ['What is the name server setting?', 'other'],
    ['What does RPK stand for?', 'definition'],
  ])('%s → %s', (q, type) => {
    expect(detectAnswerType(q)).toBe(type);
  });

  it('a question asking a number of one dimension wants a quantity, however it opens', () => {
    expect(detectAnswerType('At what temperature is the focaccia baked?')).toBe('quantity');
    expect(detectAnswerType('How hot does the engine get?')).toBe('quantity');
    expect(detectAnswerType('At what age do pupils start school?')).toBe('quantity');
    expect(detectAnswerType('At what point did the talks fail?')).toBe('other');
  });

  it('a "when" inside a procedure question does not make it a date question', () => {
    expect(detectAnswerType('What should a trustee do when the handbook conflicts with local rules?')).not.toBe('date');
  });

  it('never throws and always returns a known type (property)', () => {
    const types = new Set(['quantity', 'date', 'entity', 'yesno', 'definition', 'procedure', 'other']);
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (q) => types.has(detectAnswerType(q))));
  });
});

describe('holdsAnswerType', () => {
  it('a quantity answer needs a number the question does not already hold', () => {
    const q = 'What was the total revenue in 2022?';
    expect(holdsAnswerType('Total revenue was 4,512 million in 2022.', 'quantity', q)).toBe(true);
    expect(holdsAnswerType('Annual report for the fiscal year 2022', 'quantity', q)).toBe(false);
    expect(holdsAnswerType('Revenue grew strongly across all regions.', 'quantity', q)).toBe(false);
  });

  it('a date answer needs a date or a time', () => {
    expect(holdsAnswerType('Comments are due by September 21, 2020.', 'date', 'When are comments due?')).toBe(true);
    expect(holdsAnswerType('The window is 02:00-04:00 UTC.', 'date', 'When is the window?')).toBe(true);
    expect(holdsAnswerType('Comments are welcome.', 'date', 'When are comments due?')).toBe(false);
  });

  it('a version or section number of three dotted parts is no date; a numeric date with a year is', () => {
    const q = 'When was the release published?';
    for (const version of ['3.2.0', '10.4.1', '1.2.3', '4.1.100'])
      expect(holdsAnswerType(`It will be removed in version ${version}.`, 'date', q)).toBe(false);
    for (const date of ['12/01/2015', '2021-03-12', '3.2.21', '14.10.2026', '2026/10/14'])
      expect(holdsAnswerType(`It was published on ${date}.`, 'date', q)).toBe(true);
  });

  it('reads "may" and "march" as months only when capitalised, and asks a day or a clock time when the question does', () => {
    const when = 'When is the hearing?';
    expect(holdsAnswerType('Speakers may not yield their time to others.', 'date', when)).toBe(false);
    expect(holdsAnswerType('Protesters march to the hall.', 'date', when)).toBe(false);
    expect(holdsAnswerType('The hearing is on May 4.', 'date', when)).toBe(true);
    expect(holdsAnswerType('May 2016 edition', 'date', when)).toBe(true);
    expect(holdsAnswerType('Filed in March.', 'date', when)).toBe(true);
    const clock = 'At what time does the meeting end?';
    expect(holdsAnswerType('The meeting ends at 9:30 p.m.', 'date', clock)).toBe(true);
    expect(holdsAnswerType('The meeting ends at 9 pm.', 'date', clock)).toBe(true);
    expect(holdsAnswerType('The meeting ends at noon.', 'date', clock)).toBe(true);
    expect(holdsAnswerType('The meeting of April 6, 2016 ends the session.', 'date', clock)).toBe(false);
    expect(holdsAnswerType('Meetings end on Tuesdays.', 'date', clock)).toBe(false);
    const day = 'On what date does the rule take effect?';
    expect(holdsAnswerType('The rule takes effect on October 5, 2020.', 'date', day)).toBe(true);
    expect(holdsAnswerType('The rule takes effect 2020-10-05.', 'date', day)).toBe(true);
    expect(holdsAnswerType('The FAA proposes to supersede AD 2018–23–51 of 2018.', 'date', day)).toBe(false);
    expect(holdsAnswerType('The rule takes effect in 2020.', 'date', day)).toBe(false);
  });

  it('a name answer needs a name the question does not hold', () => {
    const q = 'Who chairs the Board?';
    expect(holdsAnswerType('The meeting is chaired by Wendy Gudalewicz.', 'entity', q)).toBe(true);
    expect(holdsAnswerType('the chair of the board is elected yearly.', 'entity', q)).toBe(false);
  });

  it('open types accept any passage', () => {
    expect(holdsAnswerType('anything', 'procedure', 'How do I do it?')).toBe(true);
  });
});

describe('question terms', () => {
  it('drops interrogative phrases', () => {
    expect(withoutInterrogatives('How many votes did she get?').toLowerCase()).not.toContain('many');
  });
  it('finds names, numbers and codes', () => {
    expect(specificWords('What were Zone NA sales in 2023 for SNB22-3?')).toEqual(
      expect.arrayContaining(['Zone', 'NA', '2023', 'SNB22-3']),
    );
    expect(specificWords('What were the sales?')).toEqual([]);
  });
  it('drops the function words of a German or French question and lone lower-case letters', () => {
    const fr = analyze(
      withoutInterrogatives('Comment le sang est-il prélevé pour un examen des gaz du sang artériel?'),
    );
    expect(fr).toEqual(expect.arrayContaining(analyze('sang prélevé examen gaz artériel')));
    expect(fr).not.toEqual(expect.arrayContaining(analyze('pour')));
    const de = analyze(withoutInterrogatives('Wie viel kostet das Skript als A5-Ausdruck?'));
    expect(de).not.toEqual(expect.arrayContaining(analyze('als')));
    expect(analyze(withoutInterrogatives('When was Knowles v. Mirzayance argued?'))).not.toContain('v');
    // an English question keeps its words ("die" is a German article, an English verb)
    expect(analyze(withoutInterrogatives('Why do cells die when they lack oxygen?'))).toContain('die');
  });
});

describe('typedValueNearTerms', () => {
  const near = (text: string, type: Parameters<typeof typedValueNearTerms>[1], q: string, about: string) =>
    typedValueNearTerms(text, type, new Set(analyze(about)), q, analyze, 8);
  it('a date said next to what the question asks about fills the slot; one far away does not', () => {
    const q = 'When was the bridge opened?';
    expect(near('The bridge was opened to traffic in May 1932 after six years.', 'date', q, 'bridge opened')).toBe(
      true,
    );
    expect(
      near(
        'In 1932 the city council, after long debates about money and about the route through the old harbour district, finally approved the plan that later opened the bridge.',
        'date',
        q,
        'bridge opened',
      ),
    ).toBe(false);
  });
  it('a name the question already holds, or a capitalised first word, is not an answer', () => {
    const q = 'Who founded Acme?';
    expect(near('Acme was founded by John Smith in a garage.', 'entity', q, 'founded')).toBe(true);
    expect(near('Acme was founded in a garage by two brothers.', 'entity', q, 'founded')).toBe(false);
  });
  it('open types always qualify', () => {
    expect(near('Anything at all.', 'definition', 'What is a widget?', 'widget')).toBe(true);
  });
});

describe('numberNearTerms', () => {
  it('finds the number said next to what the question counts', () => {
    const terms = new Set(analyze('employees'));
    const q = 'How many employees were there in 2023?';
    expect(numberNearTerms('In 2023 the firm had 1,245 employees on staff.', terms, q, analyze)).toBe(true);
    expect(
      numberNearTerms(
        'Employees are our most important asset and we invest heavily in their training and their careers every year; revenue was 9,000.',
        terms,
        q,
        analyze,
      ),
    ).toBe(false);
  });
});

describe('subQuestions', () => {
  const terms = (t: string) => t.split(/\W+/).filter((w) => w.length > 3);
  it('splits where a conjunction opens a new question', () => {
    expect(
      subQuestions('How many boats does Harbor Club own, and what is the mooring fee at Pier Nine?', terms),
    ).toEqual(['How many boats does Harbor Club own', 'what is the mooring fee at Pier Nine?']);
    expect(subQuestions('What is the mooring fee; who collects payments at Pier Nine?', terms)).toEqual([
      'What is the mooring fee',
      'who collects payments at Pier Nine?',
    ]);
  });
  it('keeps one question whole: "and" between nouns, or a part without content words', () => {
    expect(subQuestions('What is the difference between moorings and berths at Pier Nine?', terms)).toHaveLength(1);
    expect(subQuestions('When was the harbor wall built and why?', terms)).toHaveLength(1);
    expect(subQuestions('Who designed the harbor wall and was praised by the council?', terms)).toHaveLength(1);
    expect(subQuestions('Where was the harbor wall designed and when was it finished?', terms)).toHaveLength(1);
  });
});

describe('type nouns', () => {
  it('a weekday, also in the plural, answers a date question', () => {
    expect(
      holdsAnswerType('We deploy on Tuesdays after the smoke tests pass.', 'date', 'On which day do we deploy?'),
    ).toBe(true);
    expect(holdsAnswerType('We deploy after the smoke tests pass.', 'date', 'On which day do we deploy?')).toBe(false);
  });

  it('name only the asked type, never a topic word', () => {
    const date = typeNounTerms('date');
    for (const w of ['day', 'year', 'month', 'date']) expect(date.has(analyze(w)[0] ?? '')).toBe(true);
    for (const w of ['deploy', 'revenue', 'total']) expect(date.has(analyze(w)[0] ?? '')).toBe(false);
    const procedure = typeNounTerms('procedure');
    expect([...procedure].sort()).toEqual(['done', 'perform']);
    for (const w of ['biopsy', 'request', 'steps']) expect(procedure.has(analyze(w)[0] ?? '')).toBe(false);
  });
});

describe('typeNounModifiers', () => {
  it('names the word that says which kind of identifier number is asked', () => {
    expect([...typeNounModifiers('What phone number can I call Cancer Council on?', 'quantity')]).toEqual(['phone']);
    expect([...typeNounModifiers('Which docket number does the appeal have?', 'quantity')]).toEqual(['docket']);
    expect([...typeNounModifiers('What serial numbers do the units carry?', 'quantity')]).toEqual(['serial']);
  });
  it('must not fire on a count ("number of"), a type noun opening the question, or another type', () => {
    expect(typeNounModifiers('What is the total number of registered voters?', 'quantity').size).toBe(0);
    expect(typeNounModifiers('What is the docket number of the appeal?', 'quantity').size).toBe(0);
    expect(typeNounModifiers('Number of employees in 2023?', 'quantity').size).toBe(0);
    expect(typeNounModifiers('What phone number can I call?', 'other').size).toBe(0);
    expect(typeNounModifiers('How is a biopsy usually done?', 'procedure').size).toBe(0);
    // a date's or a name's label tells several apart ("expiry date", "issue date"): never left unsaid
    expect(typeNounModifiers('What expiry date does the warranty have?', 'date').size).toBe(0);
    expect(typeNounModifiers('What total amount was paid?', 'quantity').size).toBe(0);
    expect(typeNounModifiers('How many employees does the company have?', 'quantity').size).toBe(0);
  });
});

describe('withoutElision (French questions)', () => {
  it('drops an elided article or pronoun glued to the next word', () => {
    expect(withoutElision('les tests de l’approche')).toBe('les tests de approche');
    expect(withoutElision("qu'il d'une j’ai")).toBe('il une ai');
    expect(
      analyze(withoutInterrogatives('Sur quels logs de requêtes les tests de l’approche ont-ils été faits?')),
    ).toContain('approch');
  });
  it('must not fire inside a word, nor on an English question', () => {
    expect(withoutElision('aujourd’hui')).toBe('aujourd’hui');
    expect(withoutInterrogatives("Who founded L'Oréal in Paris?")).toContain("L'Oréal");
  });
  it('leaves the bare word for any elided word (property)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('l', 'd', 'qu', 'n', 's', 'L', 'D'),
        fc.constantFrom('’', "'"),
        fc.stringMatching(/^[a-zéèàù]{2,12}$/),
        (article, apostrophe, word) => withoutElision(`de ${article}${apostrophe}${word} x`) === `de ${word} x`,
      ),
    );
  });
});

describe('questions in Chinese, Japanese, Korean and Thai', () => {
  it.each([
    ['东北电气发展股份有限公司2018年第一季度营业收入是多少?', 'quantity'],
    ['公司有几名员工？', 'quantity'],
    ['売上高はいくらですか', 'quantity'],
    ['직원은 몇 명입니까?', 'quantity'],
    ['公司是什么时候成立的？', 'date'],
    ['公司成立于哪一年？', 'date'],
    ['東京タワーはいつ建てられましたか', 'date'],
    ['东北电气发展股份有限公司的公司负责人是谁?', 'entity'],
    ['社長は誰ですか', 'entity'],
    ['ใครเป็นประธาน', 'entity'],
    ['公司的主要业务', 'other'],
  ] as const)('%s asks for %s', (question, type) => {
    expect(detectAnswerType(question)).toBe(type);
  });

  it('does not take a word that merely contains an interrogative character for one', () => {
    expect(detectAnswerType('几乎所有的收入')).toBe('other'); // 几乎 "almost", not 几 "how many"
  });

  it('finds a name in caseless text only when the question does not already hold it', () => {
    const question = '东北电气发展股份有限公司的公司负责人是谁?';
    expect(holdsAnswerType('公司负责人刘道骐', 'entity', question)).toBe(true);
    expect(holdsAnswerType('东北电气发展股份有限公司', 'entity', question)).toBe(false);
  });

  it('takes an organisation name ending in its organisation word as specific, and a year inside the run', () => {
    expect(specificWords('东北电气发展股份有限公司2018年第一季度营业收入是多少?')).toEqual([
      '东北电气发展股份有限公司',
      '2018',
    ]);
    // "公司" alone (the company) is a common noun, not a name.
    expect(specificWords('公司负责人是谁?')).toEqual([]);
    expect(specificWords('トヨタ自動車株式会社の社長は誰ですか')).toEqual(['トヨタ自動車株式会社']);
  });

  it('reads a number next to the asked words inside unspaced text', () => {
    const terms = new Set(analyze('营业收入'));
    expect(numberNearTerms('营业收入（元） 4,755,785.11', terms, '营业收入是多少?', analyze)).toBe(true);
    expect(
      typedValueNearTerms('公司负责人刘道骐', 'entity', new Set(analyze('负责人')), '公司负责人是谁?', analyze, 3),
    ).toBe(true);
  });
});

describe('questionFrameTerms', () => {
  it.each([
    ['where did the name penny mustard come from', 'come'],
    ['Where does the word "quarantine" come from?', 'come'],
    ['what does the term grenade mean', 'mean'],
    ['what is the meaning of grenade by bruno mars', 'mean'],
    ['What is meant by tax incidence?', 'meant'],
    ['what happens to toby at the end of the office', 'happen'],
    ['what happened after the merger', 'happen'],
    ['How does the paper "Creativity in Machine Learning" define creativity?', 'define'],
    ['What is the definition of a hausdorff space?', 'definition'],
    ['What does RPK stand for?', 'stand'],
    ['where does the bronx get its name from', 'get'],
    ['How did the Rocky Mountains get their name?', 'get'],
  ])('drops the frame verb of %j', (question, word) => {
    expect([...questionFrameTerms(question)]).toEqual(analyze(word));
  });

  it.each([
    'when did the first chucky movie come out',
    'who will come to the meeting from Paris',
    'what is the mean temperature in July',
    'how does the happening festival end',
    'where is the come from away musical staged',
    'How do I define a custom field?',
    'What does the definition section of the contract list?',
    'Where does the speaker stand on the tax plan?',
    'where do i get a name badge for the conference',
    'how does a newborn get its first vaccine',
  ])('keeps a frame word that names the topic in %j', (question) => {
    expect(questionFrameTerms(question).size).toBe(0);
  });

  it('only ever drops words of the question', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (q) => {
        const words = new Set(analyze(q));
        for (const t of questionFrameTerms(q)) expect(words.has(t)).toBe(true);
      }),
    );
  });
});

describe('holdsAnswerType: periods answer "when"', () => {
  const when = 'when were the books of the new testament written';
  it.each([
    'In the 1830s German scholars tried to date the books as late as the 3rd century.',
    'The letter was written in the 2nd century by a bishop.',
    'The first press was invented around AD 1040 in China.',
    'The wall was built in 220 BC by the first emperor.',
  ])('a decade, century or era year is a time: %j', (text) => {
    expect(holdsAnswerType(text, 'date', when)).toBe(true);
  });

  it.each([
    'The books were written by several authors in Greek.',
    'The 3rd chapter describes the letters of Paul.',
    'The ADC converter reads 12 bits.',
  ])('no period, no time: %j', (text) => {
    expect(holdsAnswerType(text, 'date', when)).toBe(false);
  });

  it('"on what date" still wants a day, not a decade', () => {
    expect(holdsAnswerType('It happened in the 1830s.', 'date', 'on what date did it happen')).toBe(false);
  });
});

describe('definedTerm', () => {
  it.each([
    ['How does the paper "Creativity in Machine Learning" define creativity?', 'creativity'],
    ['What is an abomination in the creature description?', 'abomination'],
    ['What is a hausdorff space?', 'hausdorff space'],
    ['What are the Fade?', 'Fade'],
    ['Define churn.', 'churn'],
    ['What is the definition of net revenue?', 'net revenue'],
    ['What does churn mean in this report?', 'churn'],
  ])('%j defines %j', (question, term) => {
    expect(definedTerm(question)).toBe(term);
  });

  it.each([
    'What is the docket number of Knowles v. Mirzayance?',
    'What is the estimated cost of renovating the Théâtre Sainte-Adèle building?',
    'How many NICS background checks were there in Texas?',
    'Who is the chief executive officer?',
    'How do I submit comments on the directive?',
    'What is the the?',
    'How do I define a custom field?',
  ])('asks no definition: %j', (question) => {
    expect(definedTerm(question)).toBeNull();
  });

  it('never throws (property)', () => {
    fc.assert(fc.property(fc.string({ maxLength: 160 }), (q) => definedTerm(q) === null || definedTerm(q) !== ''));
  });
});

describe('definesTerm', () => {
  const same = (a: string, b: string) =>
    a === b || (Math.min(a.length, b.length) >= 4 && (a.startsWith(b) || b.startsWith(a)));
  it.each([
    ['According to [Gad06] creativity is “the ability to use your imagination to produce new ideas”.', 'creativity'],
    ['Should the demon get the upper hand, the result is an unholy union known as an abomination.', 'abomination'],
    ['An abomination is a mage possessed by a demon.', 'abomination'],
    ['Churn means the share of customers who leave in a year.', 'churn'],
    ['A Hausdorff space is a topological space in which points can be separated.', 'hausdorff space'],
    ['This bond is called an abomination by the Circle.', 'abomination'],
    ['Net revenue is defined as revenue less returns.', 'net revenue'],
    ['La créativité est la capacité à produire des idées nouvelles.', 'créativité'],
  ])('%j defines %j', (sentence, term) => {
    expect(definesTerm(sentence, term, same)).toBe(true);
  });

  it.each([
    ['Thankfully, abominations are rare.', 'abomination'],
    ['Abominations have been responsible for some of the worst cataclysms in history.', 'abomination'],
    ['Could we define art and creativity better after having those results?', 'creativity'],
    ['Section III gives examples of creativity with images.', 'creativity'],
    ['We studied creativity. It is a hard problem.', 'creativity'],
    ['The space is a topological space.', 'hausdorff space'],
    ['Creativity is not well understood.', 'creativity'],
  ])('%j only mentions %j', (sentence, term) => {
    expect(definesTerm(sentence, term, same)).toBe(false);
  });

  it('is false for any sentence without the term (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 120 }), (sentence) => {
        fc.pre(!analyze(sentence).some((t) => same(t, analyze('zyxwvut')[0] ?? '')));
        expect(definesTerm(sentence, 'zyxwvut', same)).toBe(false);
      }),
    );
  });
});
