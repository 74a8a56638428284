import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument } from '../../test/support/agent/fixtures';
import { stateWith } from '../../test/support/agent/state';
import { countedNoun, isTitleRun, saysCount } from './answer-shape';
import { extractiveAnswer } from './extractive';
import { coordinated, questionParts } from './extractive-select';

const sameWord = (word: string, noun: string) => word.replace(/s$/, '') === noun.replace(/s$/, '');

function chunkOf(filename: string, text: string) {
  return makeChunk(makeDocument({ filename, title: null }), 0, text);
}

const declined = (answer: string) => answer.startsWith('Insufficient documentation') && !/\[\d+\]/.test(answer);

describe('isTitleRun: a run of capitalised words is no prose', () => {
  it('recognises a flattened infobox, a chart header and a letterhead', () => {
    expect(
      isTitleRun(
        'Hassan Whiteside Whiteside with the Heat in 2016 No. 21 -- Miami Heat Position Center League NBA ( 1989 - 06 - 13 ) June 13 , 1989 ( age 28 ) Gastonia , North Carolina',
      ),
    ).toBe(true);
    expect(
      isTitleRun(
        'Weekly charts ( edit ) Chart ( 1986 -- 90 ) Peak position Australia ( Kent Music Report ) Austria ( Ö3 Austria Top 40 ) Belgium ( Ultratop )',
      ),
    ).toBe(true);
    expect(
      isTitleRun(
        'CUPERTINO UNION SCHOOL DISTRICT\nBoard of Education\nSpecial Meeting\nAGENDA\nCupertino Union School District\n1309 S. Mary Avenue\nSunnyvale, CA 94087',
      ),
    ).toBe(true);
  });

  it('does not fire on prose, even prose full of names, nor on German prose, nor on short lines or caseless scripts', () => {
    expect(
      isTitleRun(
        "After the fall of Constantinople in 1453 AD , Mehmed II declared himself Kayser - i Rum , literally `` Caesar of Rome '' .",
      ),
    ).toBe(false);
    expect(
      isTitleRun(
        'Die Gesellschaft hat im Geschäftsjahr 2023 einen Umsatz von 12 Millionen Euro erzielt und die Zahl der Mitarbeiter auf 140 erhöht.',
      ),
    ).toBe(false);
    expect(isTitleRun('Board of Education Special Meeting')).toBe(false);
    expect(isTitleRun('The Cedar River rises in Dodge County , Minnesota , and flows into Iowa .')).toBe(false);
    expect(isTitleRun('东北电气发展股份有限公司 2023 年 年度 报告 董事会 决定 公司 员工 人数 为 一千 二百 人')).toBe(
      false,
    );
  });

  it('property: lower-case words added to a run of capitalised words make it prose', () => {
    fc.assert(
      fc.property(fc.integer({ min: 16, max: 40 }), (n) => {
        const capitalised = Array.from({ length: n }, (_, i) => `Name${String.fromCharCode(97 + (i % 26))}`);
        expect(isTitleRun(capitalised.join(' '))).toBe(true);
        const prose = capitalised.flatMap((w) => [w, 'was', 'seen', 'there']);
        expect(isTitleRun(prose.join(' '))).toBe(false);
      }),
    );
  });
});

describe('saysCount: a how-many question wants a number said of what it counts', () => {
  it('finds the counted noun', () => {
    expect(countedNoun('how many goals have arsenal scored in the premier league')).toBe('goals');
    expect(countedNoun('How many employees did the company have?')).toBe('employees');
    expect(countedNoun('what is the average temperature in ecuador')).toBeNull();
    // the head of the noun phrase, not its first word; nothing when no noun follows
    expect(countedNoun('How many US presidents are alumni of the school?')).toBe('presidents');
    expect(countedNoun('How many tons of living plants are in the rainforest?')).toBe('tons');
    expect(countedNoun('How many new species?')).toBe('species');
    expect(countedNoun('How many were killed by plague in Naples in 1656?')).toBeNull();
    expect(countedNoun('how many of the players scored')).toBeNull();
  });

  it('accepts a number (digits or words) next to the counted noun', () => {
    const q = 'how many copies of the album were sold';
    expect(saysCount('In its first week the album sold 528,000 copies in the United States .', q, sameWord)).toBe(true);
    expect(saysCount('It was reported to have sold ten million copies worldwide .', q, sameWord)).toBe(true);
    expect(saysCount('Copies sold : 1.2 million .', q, sameWord)).toBe(true);
  });

  it('counts the head noun of a longer phrase, and asks nothing of a question that names no noun', () => {
    const q = 'How many US presidents are alumni of the school?';
    expect(saysCount("Harvard's alumni include eight U.S. presidents and 62 billionaires.", q, sameWord)).toBe(true);
    expect(saysCount('The school has 62 living billionaires among its alumni.', q, sameWord)).toBe(false);
    expect(
      saysCount('In 1656, the plague killed about half of Naples.', 'How many were killed in Naples?', sameWord),
    ).toBe(true);
  });

  it('rejects a number said of something else in an on-topic sentence, and a number the question gives', () => {
    const q = 'how many goals have arsenal scored in the premier league';
    expect(
      saysCount(
        "Goalkeeper Jens Lehmann kept ten consecutive clean sheets in the run - in to Arsenal 's first final , where the goals came late .",
        q,
        sameWord,
      ),
    ).toBe(false);
    expect(saysCount('Arsenal scored goals in every game of 2004 .', q, sameWord)).toBe(false);
    expect(saysCount('The 2004 goals were scored by Henry .', 'how many goals were scored in 2004', sameWord)).toBe(
      false,
    );
  });

  it('reads "the number of X" as asking for a count of X, unless a noun makes it an identifier or it asks yes or no', () => {
    expect(countedNoun('what is a good number of inventory turns')).toBe('turns');
    expect(countedNoun('What is the total number of employees at the plant?')).toBe('employees');
    expect(countedNoun('What was the average number of visitors per day?')).toBe('visitors');
    expect(countedNoun('number of seats in the national assembly')).toBe('seats');
    // "phone number", "case number": an identifier, not a count
    expect(countedNoun('What is the phone number of the district office?')).toBeNull();
    expect(countedNoun('What is the case number of the filing?')).toBeNull();
    // a yes/no question names a count without asking for it; "how many" keeps its reading
    expect(countedNoun('Do the statistics represent the number of firearms sold?')).toBeNull();
    expect(countedNoun('Is the number of members fixed by law?')).toBeNull();
    expect(countedNoun('Is there a limit on how many guests can attend?')).toBe('guests');
  });

  it('wants a number said of what "the number of" counts', () => {
    const q = 'what is the total number of employees at the plant';
    expect(saysCount('The plant employs 1,200 employees on three shifts .', q, sameWord)).toBe(true);
    expect(saysCount('Employees at the plant work in 3 shifts .', q, sameWord)).toBe(false);
  });

  it('holds for a question that counts nothing', () => {
    expect(saysCount('No number here .', 'what is the price of the ticket', sameWord)).toBe(true);
  });
});

describe('questionParts: a comma inside a date does not split the question', () => {
  it('keeps "April 6, 2016" in one part', () => {
    const parts = questionParts(
      'What did the Cupertino board decide on Board Governance at the April 6, 2016 meeting?',
    );
    expect(parts).toHaveLength(1);
  });

  it('completes a one-word part from the part before it (coordinated words share their clause)', () => {
    expect(coordinated([['cedar', 'river', 'begin'], ['end']])).toEqual([
      ['cedar', 'river', 'begin'],
      ['cedar', 'river', 'end'],
    ]);
    const parts = questionParts('where does the cedar river begin and end').map((p) => [...p].sort());
    expect(parts).toContainEqual(['cedar', 'end', 'river']);
  });

  it('leaves a part of two or more words, and a one-word first part, as they are', () => {
    expect(
      coordinated([
        ['revenu', 'acme'],
        ['margin', 'globex'],
      ]),
    ).toEqual([
      ['revenu', 'acme'],
      ['margin', 'globex'],
    ]);
    expect(coordinated([['end'], ['cedar', 'river']])).toEqual([['end'], ['cedar', 'river']]);
    expect(coordinated([['river'], ['end']])).toEqual([['river'], ['end']]);
  });

  it('still splits at a comma before words', () => {
    expect(questionParts('What is the revenue of Acme, the margin of Globex?').length).toBeGreaterThan(1);
  });
});

describe('the answerability decision with the answer-shape rules', () => {
  it('declines a how-many question whose on-topic sentence counts something else', () => {
    const state = stateWith({
      question: 'how many goals have arsenal scored in the premier league',
      opened: [
        chunkOf(
          'arsenal.txt',
          "Goalkeeper Jens Lehmann kept ten consecutive clean sheets in the run - in to Arsenal 's first Champions League final , and Arsenal scored goals in the premier league all season .",
        ),
      ],
    });
    expect(declined(extractiveAnswer(state, 'concise').answer)).toBe(true);
  });

  it('answers the same question when the sentence says the count of goals', () => {
    const state = stateWith({
      question: 'how many goals have arsenal scored in the premier league',
      opened: [chunkOf('arsenal.txt', 'Arsenal have scored 2,000 goals in the premier league since its founding .')],
    });
    const answer = extractiveAnswer(state, 'concise').answer;
    expect(answer).toContain('2,000 goals');
    expect(answer).toMatch(/\[1\]/);
  });

  it('declines a "number of" question whose on-topic sentence counts something else, and answers the count', () => {
    const ask = (text: string) =>
      extractiveAnswer(
        stateWith({
          question: 'what is the total number of employees at the bakery',
          opened: [chunkOf('bakery.txt', text)],
        }),
        'concise',
      ).answer;
    expect(declined(ask('Employees at the bakery work in 3 shifts around the clock .'))).toBe(true);
    expect(ask('The bakery has 240 employees in total .')).toMatch(/240 employees.*\[1\]/);
  });

  const INFOBOX =
    'Celebrity Big Brother Winter 2018 ( show ) HouseGuests Name Entered Exited Marissa Day 1 Day 26 Ross Day 1 Day 26 Mark Day 1 Day 26 Ariadna Day 1 Day 26';

  it('declines when only an infobox run shares most, not all, of the asked words', () => {
    const state = stateWith({
      question: 'who won celebrity big brother winter 2018',
      opened: [chunkOf('cbb.txt', INFOBOX)],
    });
    expect(declined(extractiveAnswer(state, 'concise').answer)).toBe(true);
  });

  it('answers a prose sentence sharing the same words (the stricter reading is for title runs only)', () => {
    const state = stateWith({
      question: 'who won celebrity big brother winter 2018',
      opened: [
        chunkOf(
          'cbb.txt',
          'The winter 2018 series of Celebrity Big Brother was presented by Julie Chen on the network .',
        ),
      ],
    });
    expect(extractiveAnswer(state, 'concise').answer).toMatch(/Julie Chen.*\[1\]/);
  });

  it('answers a coordinated question from the sentence saying one of its parts', () => {
    const state = stateWith({
      question: 'where does the cedar river begin and end',
      opened: [chunkOf('cedar.txt', 'The Cedar River rises in Dodge County , Minnesota , and flows into Iowa .')],
    });
    expect(extractiveAnswer(state, 'concise').answer).toMatch(/Dodge County.*\[1\]/);
  });

  it('judges a coordinated question as each part would be judged alone', () => {
    const ask = (question: string, text: string) =>
      declined(extractiveAnswer(stateWith({ question, opened: [chunkOf('river.txt', text)] }), 'concise').answer);
    for (const text of [
      'The Cedar River is popular with anglers and canoeists in the summer .',
      'The Mississippi River is popular with anglers and canoeists in the summer .',
      'Its source is a spring in the hills above the town .',
    ])
      expect(ask('where does the cedar river begin and end', text)).toBe(
        ask('where does the cedar river begin', text) && ask('where does the cedar river end', text),
      );
    expect(ask('where does the cedar river begin and end', 'The Mississippi River is popular with anglers .')).toBe(
      true,
    );
  });

  it('answers from an infobox run that holds every asked word', () => {
    const state = stateWith({
      question: 'when was hassan whiteside born',
      opened: [
        chunkOf(
          'whiteside.txt',
          'Hassan Whiteside Whiteside with the Heat in 2016 No. 21 -- Miami Heat Position Center League NBA Born June 13 , 1989 ( age 28 ) Gastonia , North Carolina',
        ),
      ],
    });
    const answer = extractiveAnswer(state, 'concise').answer;
    expect(answer).toContain('June 13 , 1989');
    expect(answer).toMatch(/\[1\]/);
  });
});
