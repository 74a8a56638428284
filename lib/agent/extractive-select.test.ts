import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument } from '../../test/support/agent/fixtures';
import { stateWith } from '../../test/support/agent/state';
import { answerSignals } from './confidence';
import { extractiveAnswer } from './extractive';
import {
  type Candidate,
  definitionSlot,
  echoOf,
  endsInNameTitle,
  evidenceByDocument,
  holds,
  isFormField,
  looksLikeHeading,
  negatesAny,
} from './extractive-select';
import { validateDraft } from './validate';

function chunkOf(filename: string, text: string, title: string | null = null) {
  const doc = makeDocument({ filename, title });
  return makeChunk(doc, 0, text);
}

const TENK = chunkOf(
  '10k.html',
  'ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT OF 1934\nGalaxy Gaming, Inc.\nIndicate by check mark whether the registrant is a shell company. Yes No',
  'Galaxy Gaming 10-K',
);

describe('extractive evidence selection', () => {
  it('a how-many question is answered by the sentence with a number, not the summary without one', () => {
    const c = chunkOf(
      'staff.md',
      'Our workforce is central to our strategy and culture. The company had 1,245 employees at the end of 2023. Employees are offered training.',
    );
    const state = stateWith({ question: 'How many employees did the company have at the end of 2023?', opened: [c] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('1,245 employees');
    expect(ex.answer).not.toContain('central to our strategy');
  });

  it('a quote ending in the title of a name is cut off, and records it', () => {
    expect(endsInNameTitle('Revision 3, approved by Dr.')).toBe(true);
    expect(endsInNameTitle('Questions go to Mme.')).toBe(true);
    // must not fire: a title after a name, a word ending like a title, a title inside the sentence
    expect(endsInNameTitle('It was written by Martin Luther King Jr.')).toBe(false);
    expect(endsInNameTitle('The path leads to the MDr.')).toBe(false);
    expect(endsInNameTitle('Approved by Dr. Ada Lee.')).toBe(false);
    const protocol = chunkOf(
      'protocol.txt',
      'PROTOCOL LB-07: Colony PCR for screening transformants, revision 3, approved by Dr. Tomasz Wierzbicki on 9 September 2026.',
    );
    const state = stateWith({ question: 'Who approved protocol LB-07?', opened: [protocol] });
    extractiveAnswer(state, 'concise');
    expect(answerSignals(state)?.cutName).toBe(true);
  });

  it('records a section choice when only the heading says the asked attribute and its section holds other sentences', () => {
    const doc = makeDocument({ filename: 'postmortem.md', title: 'Postmortem: Checkout outage of 4 November 2026' });
    const section = (text: string) => makeChunk(doc, 1, text, { headingPath: 'Postmortem > Root cause' });
    const question = 'What was the root cause of the checkout outage?';
    const two = section(
      "## Root cause\n\nA configuration change to the payment gateway's connection pool reduced the maximum number of connections from 200 to 20. Under afternoon load, checkout requests waited for a free connection and timed out after 10 seconds.",
    );
    const state = stateWith({ question, opened: [two] });
    extractiveAnswer(state, 'concise');
    expect(answerSignals(state)?.sectionChoice).toBe(true);
    // must not fire: a section of one sentence, or a quoted sentence that says the asked attribute itself
    const one = section(
      '## Root cause\n\nUnder afternoon load, checkout requests waited for a free connection and timed out after 10 seconds.',
    );
    const alone = stateWith({ question, opened: [one] });
    extractiveAnswer(alone, 'concise');
    expect(answerSignals(alone)?.sectionChoice).toBe(false);
    const says = section(
      '## Root cause\n\nThe root cause was a connection pool reduced from 200 to 20 connections. Checkout requests timed out after 10 seconds.',
    );
    const direct = stateWith({ question, opened: [says] });
    extractiveAnswer(direct, 'concise');
    expect(answerSignals(direct)?.sectionChoice).toBe(false);
  });

  it('records a conflict when the document states the asked quantity twice with different numbers', () => {
    const doc = makeDocument({
      filename: 'winter-sports.epub',
      title: 'Winter Sports in Switzerland',
      mime: 'application/epub+zip',
    });
    const front = makeChunk(
      doc,
      0,
      'WINTER SPORTS IN SWITZERLAND\n\nWITH 12 FULL-PAGE ILLUSTRATIONS IN COLOUR BY\n\nC. FLEMING WILLIAMS',
    );
    const advert = makeChunk(
      doc,
      1,
      'HOMES AND HAUNTS OF RUSKIN\n\nBy Sir EDWARD T. COOK\n\nWith 28 Full-page Illustrations in Colour and 17 in Black and White by Miss E. M. B. Warren.',
    );
    const question = 'How many full-page illustrations in colour does the book have?';
    const state = stateWith({ question, opened: [advert, front] });
    const ex = extractiveAnswer(state, 'concise');
    expect(answerSignals(state)?.conflict).toBe(true);
    // asked of the book itself: the statement before the other (its title page) is the book's own
    expect(ex.answer).toContain('WITH 12 FULL-PAGE ILLUSTRATIONS IN COLOUR BY" [');
    expect(ex.answer).not.toContain('28');
    expect(validateDraft(ex.answer, state, { skipProcess: true }).passed).toBe(true);
    // not asked of the document: the conflict is recorded, the best-scored sentence stays
    const plain = stateWith({
      question: 'How many full-page illustrations in colour are there?',
      opened: [advert, front],
    });
    const other = extractiveAnswer(plain, 'concise');
    expect(answerSignals(plain)?.conflict).toBe(true);
    expect(other.answer).toContain('28');
    // the advertisement alone states one value
    const alone = stateWith({ question, opened: [advert] });
    extractiveAnswer(alone, 'concise');
    expect(answerSignals(alone)?.conflict).toBe(false);
  });

  it('answers "where does X get its name" from the sentence saying what X is named after', () => {
    const c = chunkOf(
      'lakeside.txt',
      'The town of Lakeside lies on the western shore . Lakeside is named after the family of Johan Lake , an early settler .',
    );
    const ex = extractiveAnswer(
      stateWith({ question: 'where does lakeside get its name from', opened: [c] }),
      'concise',
    );
    expect(ex.answer).toMatch(/named after the family of Johan Lake.*\[1\]/);
  });

  it('answers a question whose stance words ("ever", "must") the passage does not write', () => {
    const c = chunkOf('wildcats.txt', 'Kentucky lies in the American South . Kentucky won the title in 1950 .');
    const ex = extractiveAnswer(stateWith({ question: 'has kentucky really ever won', opened: [c] }), 'concise');
    expect(ex.answer).toMatch(/Kentucky won the title in 1950.*\[1\]/);
  });

  it('declines with no citation and names the missing words when the passage lacks the asked attribute', () => {
    const state = stateWith({ question: 'What was the total revenue reported in the 10-K?', opened: [TENK] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).not.toMatch(/\[\d+\]/);
    expect(ex.answer).toContain('Insufficient documentation');
    expect(ex.answer).toMatch(/"revenue"/i);
    expect(ex.insufficiencies.length).toBeGreaterThan(0);
    expect(validateDraft(ex.answer, state, { skipProcess: true }).passed).toBe(true);
  });

  it('uses a demanded insufficiency phrase when declining', () => {
    const state = stateWith({
      question:
        'What was the total revenue reported in the 10-K? If it is not documented, say "Not documented in the files".',
      opened: [TENK],
    });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer.startsWith('Not documented in the files')).toBe(true);
  });

  it('never quotes the same text twice', () => {
    const text = 'The backup window is 02:00-04:00 UTC every night.';
    const state = stateWith({
      question: 'When is the backup window?',
      opened: [chunkOf('a.md', text), chunkOf('b.md', text)],
    });
    const ex = extractiveAnswer(state, 'detailed');
    expect(ex.answer.split('02:00-04:00').length - 1).toBe(1);
  });

  it('never quotes a sentence that another quote holds whole (overlapping chunks split a paragraph differently)', () => {
    const whole =
      'To be eligible for a package you must have a home lending balance of $150,000 and pay an annual package fee of $395.';
    // the next chunk starts inside the paragraph: its first unit is the sentence's tail
    const tail = 'a home lending balance of $150,000 and pay an annual package fee of $395.';
    const state = stateWith({
      question: 'What is the annual package fee?',
      opened: [chunkOf('rates.pdf', whole), chunkOf('rates.pdf', `${tail}\nRates are subject to change.`)],
    });
    const ex = extractiveAnswer(state, 'detailed');
    expect(ex.answer.split('annual package fee of $395').length - 1).toBe(1);
    expect(ex.answer).toContain('[1]');
  });

  it('a field line whose label derives from the question verb answers it (an agent noun, an irregular verb)', () => {
    const c = chunkOf(
      'song.txt',
      [
        'Harbour Lights (single, 2019)',
        '',
        'Writer: Jonas Pike',
        'Singer: Mara Quill',
        'Producer: Leo Hartmann',
        '',
        'Harbour Lights reached number four in the regional charts in its first week.',
      ].join('\n'),
    );
    const ask = (question: string) => extractiveAnswer(stateWith({ question, opened: [c] }), 'concise');
    expect(ask('Who wrote Harbour Lights?').answer).toContain('"Writer: Jonas Pike"');
    expect(ask('Who sang Harbour Lights?').answer).toContain('"Singer: Mara Quill"');
    // must not fire: a verb no label derives from
    // must not fire: a field line whose label says too little of the asked attribute stays a title-like line
    const form = chunkOf(
      'summary-report.pdf',
      [
        'Case Tracking Number: 150109-DSP-Milw-505 Agency: Bureau of Milwaukee Child Welfare',
        'Child Information',
        'Age: 1 Year',
      ].join('\n'),
    );
    const hospital = extractiveAnswer(
      stateWith({
        question: 'What is the name of the hospital where the child in case 150109-DSP-Milw-505 was treated?',
        opened: [form],
      }),
      'concise',
    );
    expect(hospital.answer).not.toMatch(/\[\d\]/);
    const mixed = ask('Who mixed Harbour Lights?');
    expect(mixed.answer).not.toContain('Leo Hartmann');
    expect(mixed.answer).not.toMatch(/\[\d\]/);
  });

  it('a form field labelled with the whole question outranks sentences that only hold the topic and a date', () => {
    const c = chunkOf(
      'report.pdf',
      [
        'Form DCF-2476 (R. 04/2014) Summary Report for a Serious Incident, to be returned within 90 days.',
        'Summary of involvement in the previous five years (not the current incident): on April 28, 2015, a report was screened in.',
        'Date of Incident: 12/01/2015',
      ].join('\n'),
    );
    const ex = extractiveAnswer(stateWith({ question: 'What was the date of the incident?', opened: [c] }), 'concise');
    expect(ex.answer).toContain('Date of Incident: 12/01/2015');
  });

  it('recognises titles and headings', () => {
    const state = stateWith({ question: 'x', opened: [TENK] });
    const o = state.opened[0];
    if (!o) throw new Error('opened');
    expect(looksLikeHeading('Galaxy Gaming 10-K', o)).toBe(true);
    expect(looksLikeHeading('Quarterly Results Overview', o)).toBe(true);
    expect(looksLikeHeading('The company had 1,245 employees at the end of 2023.', o)).toBe(false);
  });

  it('a list item stating an amount is no heading, and answers how much of it is needed', () => {
    const state = stateWith({ question: 'x', opened: [TENK] });
    const o = state.opened[0];
    if (!o) throw new Error('opened');
    expect(looksLikeHeading('- 500 g bread flour', o)).toBe(false);
    // must not fire: a bullet without an amount, a title
    expect(looksLikeHeading('- Bread Flour', o)).toBe(true);
    const recipe = chunkOf(
      'focaccia.html',
      'Ingredients\n\n- 500 g bread flour\n- 400 ml lukewarm water\n- 7 g instant yeast',
      'Rosemary Focaccia',
    );
    const ex = extractiveAnswer(
      stateWith({ question: 'How much bread flour does the focaccia need?', opened: [recipe] }),
      'concise',
    );
    expect(ex.answer).toContain('"- 500 g bread flour" [1]');
    expect(ex.answer).not.toContain('water');
  });

  describe('the asked entity named once above the answer sentence', () => {
    const minutes = (sentence: string) =>
      chunkOf(
        'minutes.md',
        `# Acme Widgets board minutes, March 2024\nThe board met in Lyon and approved the budget. ${sentence} The meeting closed at noon.`,
      );
    const ask = (question: string, sentence: string) => {
      const state = stateWith({ question, opened: [minutes(sentence)] });
      return { ex: extractiveAnswer(state, 'concise'), state };
    };

    it('answers from a sentence that says the whole attribute under a chunk that names the entity', () => {
      const { ex, state } = ask(
        'What was the quarterly dividend of Acme Widgets?',
        'The quarterly dividend was raised to 12 cents per share.',
      );
      expect(ex.answer).toContain('12 cents per share');
      expect(ex.answer).not.toContain('Insufficient documentation');
      expect(validateDraft(ex.answer, state, { skipProcess: true }).passed).toBe(true);
    });
    it('must not fire when the sentence negates the attribute', () => {
      const { ex } = ask(
        'What was the quarterly dividend of Acme Widgets?',
        'The minutes do not record the quarterly dividend for 2024.',
      );
      expect(ex.answer).toContain('Insufficient documentation');
      expect(ex.answer).not.toMatch(/\[\d+\]/);
    });
    it('must not fire when the sentence says the attribute only in part', () => {
      const { ex } = ask(
        'What was the special quarterly dividend of Acme Widgets?',
        'The quarterly dividend was raised to 12 cents per share.',
      );
      expect(ex.answer).toContain('Insufficient documentation');
    });
    it('must not fire when the entity is named nowhere in the chunk', () => {
      const { ex } = ask(
        'What was the quarterly dividend of Globex Corporation?',
        'The quarterly dividend was raised to 12 cents per share.',
      );
      expect(ex.answer).toContain('Insufficient documentation');
    });
  });

  describe('a type noun\'s label word ("phone" of "phone number") left unsaid', () => {
    const leaflet = chunkOf(
      'leaflet.pdf',
      'Staging and grading breast cancer. For information and support on cancer-related issues, call Cancer Council 13 11 20. Ask your doctor about the tests.',
    );
    const ask = (question: string) => {
      const state = stateWith({ question, opened: [leaflet] });
      return { ex: extractiveAnswer(state, 'concise'), state };
    };
    it('answers when the rest of the asked attribute is said next to a value', () => {
      const { ex, state } = ask('What phone number can I call Cancer Council on?');
      expect(ex.answer).toContain('13 11 20');
      expect(validateDraft(ex.answer, state, { skipProcess: true }).passed).toBe(true);
    });
    it('must not fire when the label word is the whole asked attribute', () => {
      expect(ask('What is the fax number of Cancer Council?').ex.answer).toContain('Insufficient documentation');
    });
    it('must not fire when the rest of the attribute is not said', () => {
      expect(ask('What fax number can I send Cancer Council forms to?').ex.answer).toContain(
        'Insufficient documentation',
      );
    });
  });

  describe('a form value quoted with the cell line above it', () => {
    const cover = (lines: string) =>
      chunkOf(
        '10k.html',
        `Galaxy Gaming, Inc.\n\n(Exact name of registrant as specified in its charter)\n\n${lines}\n(702) 939-3254\n(Registrant’s telephone number)\n\nSecurities registered under Section 12(b) of the Act:`,
      );
    const ask = (question: string, lines: string) =>
      extractiveAnswer(stateWith({ question, opened: [cover(lines)] }), 'concise').answer;
    const caption =
      'Nevada |  | 20-8143439\n(State or other jurisdiction of incorporation or organization) |  | (IRS Employer Identification No.)\n6480 Cameron Street Ste. 305 – Las Vegas, NV 89118\n(Address of principal executive offices)';
    it('answers when the lines saying the attribute are prose, whatever cell line is quoted with them', () => {
      expect(ask('Where are Galaxy Gaming’s principal executive offices?', caption)).toContain('6480 Cameron Street');
    });
    it('must not fire when the attribute is said in part', () => {
      expect(ask('Who is the chief executive officer of Galaxy Gaming?', caption)).toContain(
        'Insufficient documentation',
      );
    });
    it('must not fire when only a cell line says the attribute', () => {
      const cells = 'Nevada |  | 20-8143439\nAddress of principal executive offices |  | 6480 Cameron Street Ste. 305';
      expect(ask('Where are Galaxy Gaming’s principal executive offices?', cells)).toContain(
        'Insufficient documentation',
      );
    });
  });

  describe('"How is X done?"', () => {
    const leaflet = chunkOf(
      'biopsy.pdf',
      'Core biopsy – A wider needle is used to remove a piece of tissue (a core) from the lump. It is usually carried out under local anaesthetic. Surgical biopsy – the surgeon removes the lump.',
    );
    const ask = (question: string) => extractiveAnswer(stateWith({ question, opened: [leaflet] }), 'concise').answer;
    it('answers with the way it is done, without the passage saying "done"', () => {
      expect(ask('How is a core biopsy of the breast done?')).toContain('wider needle');
    });
    it('must not fire when the passage does not say what is done', () => {
      expect(ask('How is a lumpectomy of the breast done?')).toContain('Insufficient documentation');
    });
  });

  describe('French questions with elided articles', () => {
    const paper = chunkOf(
      'fr_olap.pdf',
      'Nous résumons des logs de requêtes OLAP. La précision de notre approche est de 92 % sur des logs MDX. La section 2 présente les travaux connexes.',
    );
    const ask = (question: string) => extractiveAnswer(stateWith({ question, opened: [paper] }), 'concise').answer;
    it('reads "l’approche" as "approche"', () => {
      expect(ask('Quelle est la précision de l’approche ?')).toContain('92 %');
    });
    it('must not fire on what the passage does not say', () => {
      expect(ask('Quelle est la rapidité de l’approche ?')).toContain('Insufficient documentation');
    });
  });

  it('negatesAny: a negation before an asked word in the same clause', () => {
    const terms = ['firearm', 'sold'];
    expect(negatesAny('They do not represent the number of firearms sold Based on state laws', terms)).toBe(true);
    expect(negatesAny("The shop didn't report how many firearms were sold.", terms)).toBe(true);
    expect(negatesAny('Les armes ne sont pas vendues aux mineurs', ['vendu'])).toBe(true);
    // must not fire: no negation, or the negation in another clause or after the word
    expect(negatesAny('In November 2015, 1,000 firearms were sold in Texas.', terms)).toBe(false);
    expect(negatesAny('Not all states report, but 1,000 firearms were sold in Texas.', terms)).toBe(false);
    expect(negatesAny('1,000 firearms were sold, not 2,000 as reported.', terms)).toBe(false);
  });

  it('reads a form field (label: value with a digit) as a statement, not a heading', () => {
    const state = stateWith({ question: 'x', opened: [TENK] });
    const o = state.opened[0];
    if (!o) throw new Error('opened');
    expect(isFormField('Special Needs: None known Date of Incident: 01/09/2015')).toBe(true);
    expect(isFormField('Fax: 202-493-2251')).toBe(true);
    expect(looksLikeHeading('Special Needs: None known Date of Incident: 01/09/2015', o)).toBe(false);
    // must not fire: captions and headings whose label ends in a number, labels without a value, values without digits
    expect(isFormField('Table 2: Results for 2019')).toBe(false);
    expect(isFormField('Chapter 3: Methods')).toBe(false);
    expect(isFormField('Date of Incident:')).toBe(false);
    expect(isFormField('Status: closed')).toBe(false);
    expect(looksLikeHeading('Quarterly Results Overview', o)).toBe(true);
  });

  it('quotes a sentence holding a bracketed reference number with the reference elided, and the gate passes it', () => {
    const c = chunkOf(
      'layout-parser.pdf',
      'LayoutParser, built upon Detectron2 [35], provides a minimal API for layout detection in Python. It is open source.',
    );
    const state = stateWith({
      question: 'Which library is LayoutParser built upon for layout detection?',
      opened: [c],
    });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('built upon Detectron2 …');
    expect(ex.answer).not.toContain('[35]');
    expect(validateDraft(ex.answer, state, { skipProcess: true }).passed).toBe(true);
  });

  it('counts the words of a Chinese sentence, and its full stop ends it: not a heading', () => {
    const state = stateWith({ question: 'x', opened: [TENK] });
    const o = state.opened[0];
    if (!o) throw new Error('opened');
    expect(
      looksLikeHeading('公司负责人刘道骐、主管会计工作负责人肖寻声明：保证季度报告中财务报表的真实、准确、完整。', o),
    ).toBe(false);
    expect(looksLikeHeading('第一节 重要提示', o)).toBe(true); // a short line without a stop still is
  });

  it('recognises page furniture: table-of-contents lines, line-number runs, upper-case letterheads', () => {
    const state = stateWith({ question: 'x', opened: [TENK] });
    const o = state.opened[0];
    if (!o) throw new Error('opened');
    expect(looksLikeHeading('Results of the member survey ......................... 14', o)).toBe(true);
    expect(looksLikeHeading('1 2 3 4 5 6 7 8 9 10 Official transcript of the hearing', o)).toBe(true);
    expect(looksLikeHeading('RIVERTON WATER BOARD Regular Meeting MINUTES 12 Elm Street, Riverton', o)).toBe(true);
    expect(looksLikeHeading('The hearing was adjourned at 4:15 p.m. by the chair, Ms Ortega.', o)).toBe(false);
  });

  it('prefers the sentence that says the asked attribute over one that repeats the entity name', () => {
    const c = chunkOf(
      'riverton-minutes.md',
      'The Riverton Water Board met in the Riverton council chamber with every Riverton Water Board member present. ' +
        'The Riverton Water Board thanked the Riverton residents for attending the Riverton Water Board session. ' +
        'Residents who wish to speak must hand a green request slip to the clerk before the session opens.',
    );
    const state = stateWith({ question: 'How do residents speak at the Riverton Water Board?', opened: [c] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('green request slip');
  });

  it('names a sheet whose name holds numbers, and the answer passes the gate', () => {
    const doc = makeDocument({ filename: 'regions.xlsx', title: 'Regions' });
    const c = makeChunk(doc, 0, 'Region | Units sold | Returns\nNorthwest | 4410 | 37\nSouthwest | 3920 | 51', {
      sheet: 'Totals 31 03 2024',
    });
    const state = stateWith({ question: 'How many units did the Southwest region sell?', opened: [c] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('3920');
    expect(ex.answer).toContain('sheet Totals 31 03 2024');
    expect(validateDraft(ex.answer, state, { skipProcess: true }).passed).toBe(true);
  });

  it('words of one family match (one stem a prefix of the other, at least four letters)', () => {
    expect(holds(new Set(['argument']), 'argu')).toBe(true);
    expect(holds(new Set(['regist']), 'registr')).toBe(true);
    expect(holds(new Set(['cat']), 'cattl')).toBe(false);
    expect(holds(new Set(['port']), 'sport')).toBe(false);
  });

  it('answers when the passage says the asked attribute in another form of the word', () => {
    const c = chunkOf(
      'hearing.md',
      'The hearing on the Delmont zoning appeal took place in the county annex. Counsel for the appellant, Ms Ibarra, presented the argument for the Delmont appeal.',
    );
    const state = stateWith({ question: 'Who argued the Delmont zoning appeal?', opened: [c] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('Ms Ibarra');
  });

  it('answers a compound question part by part, each from its own document', () => {
    const boats = chunkOf('fleet.md', 'Harbor Club owns 14 sailing boats, moored at the east basin.');
    const fees = chunkOf('fees.md', 'The mooring fee at Pier Nine is 35 dollars per night, payable at the office.');
    const state = stateWith({
      question: 'How many sailing boats does Harbor Club own, and what is the mooring fee at Pier Nine?',
      opened: [boats, fees],
    });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('14 sailing boats');
    expect(ex.answer).toContain('35 dollars');
    expect(validateDraft(ex.answer, state, { skipProcess: true }).passed).toBe(true);
  });

  it('declines only the part nothing answers', () => {
    const boats = chunkOf('fleet.md', 'Harbor Club owns 14 sailing boats, moored at the east basin.');
    const state = stateWith({
      question: 'How many sailing boats does Harbor Club own, and what is the mooring fee at Pier Nine?',
      opened: [boats],
    });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('14 sailing boats');
    expect(ex.answer).toMatch(/do not mention .*"fee"/);
    expect(ex.insufficiencies.length).toBeGreaterThan(0);
    expect(validateDraft(ex.answer, state, { skipProcess: true }).passed).toBe(true);
  });

  it('reads a long PDF-wrapped clause as one sentence and answers from it', () => {
    const c = chunkOf(
      'pv.pdf',
      [
        'ATTENDU QUE la portion arrière, visée par la demande, est en mauvais état',
        'et que son niveau d’authenticité est peu élevé;',
        'ATTENDU QUE le projet de construction proposé prévoit, pour l’utilisation',
        'projetée du sol dégagé, un agrandissement de l’arrière du bâtiment',
        'préservé, permettant l’ajout de 43 logements;',
        'ATTENDU QU’aucune opposition n’a été reçue à la suite de la publication',
        'de l’avis public;',
      ].join('\n'),
    );
    const state = stateWith({
      question: 'Combien de logements le projet de construction permet-il d’ajouter?',
      opened: [c],
    });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('43 logements');
    expect(ex.answer).toContain('projet de construction');
    expect(validateDraft(ex.answer, state, { skipProcess: true }).passed).toBe(true);
  });

  it('quotes a short sentence that states a value, and still declines what it does not say', () => {
    const c = chunkOf(
      'guide.pdf',
      'Understanding Breast Cancer\n\nA guide for people with cancer, their families and friends\n\nFirst published May 2006. This edition July 2016.\n\nThe guide is reviewed approximately every two years.',
      'Understanding Breast Cancer',
    );
    const asked = stateWith({
      question: 'When was this edition of Understanding Breast Cancer published?',
      opened: [c],
    });
    const ex = extractiveAnswer(asked, 'concise');
    expect(ex.answer).toContain('This edition July 2016.');
    expect(validateDraft(ex.answer, asked, { skipProcess: true }).passed).toBe(true);
    const other = stateWith({ question: 'When was the French translation of this edition printed?', opened: [c] });
    expect(extractiveAnswer(other, 'concise').answer).not.toMatch(/\[\d+\]/);
  });

  it('records a rival: another document saying something else about the question, not a copy of the answer', () => {
    const answer = 'The Ridgeback ferry leaves the north pier at 07:40 every weekday morning.';
    const rivalText = 'The Ridgeback ferry leaves the south pier at 08:15 every weekday morning in summer.';
    const contested = stateWith({
      question: 'When does the Ridgeback ferry leave the pier on weekday mornings?',
      opened: [chunkOf('timetable.md', answer), chunkOf('summer.md', rivalText)],
    });
    extractiveAnswer(contested, 'concise');
    expect(answerSignals(contested)?.rivalMargin ?? 1).toBeLessThan(0.35);
    // The same sentence in a second file (a CSV and its TSV) agrees with the answer: no rival.
    const copied = stateWith({
      question: 'When does the Ridgeback ferry leave the pier on weekday mornings?',
      opened: [chunkOf('timetable.md', answer), chunkOf('timetable-copy.md', answer)],
    });
    extractiveAnswer(copied, 'concise');
    expect(answerSignals(copied)?.rivalMargin).toBe(1);
    expect(answerSignals(copied)?.margin ?? 1).toBeLessThan(0.35);
  });

  it('never quotes a planted line that a PDF wrap joined to the prose after it', () => {
    // A span the chunk's injection scan marked as planted (set by hand here: the detector's own spans are wider), in
    // one long sentence wrapped over lines: the span's second line wraps into the clean prose after it.
    const planted =
      'A reseller note from the meeting of March 2024\nsays the Model K kettle warranty covers accidental damage of every';
    const text = [
      'The Model K kettle warranty covers the heating element and the switch for two years.',
      planted,
      'kind including drops and spills for as long as the Model K kettle warranty lasts and the owner keeps',
      'the receipt and the box and registers the kettle online within a month of the day it was bought at',
      'any shop or online store that sells the kettle in the country where the owner lives and uses it',
    ].join('\n');
    const state = stateWith({
      question: 'Does the Model K kettle warranty cover drops and spills?',
      opened: [chunkOf('k.pdf', text)],
    });
    const o = state.opened[0];
    if (!o) throw new Error('opened');
    o.injected = [planted];
    const ex = extractiveAnswer(state, 'detailed');
    expect(ex.answer).toContain('heating element');
    expect(ex.answer).not.toMatch(/accidental|drops|reseller/);
  });

  it('declines when the asked words are spread over two unrelated documents (each is judged alone)', () => {
    const state = stateWith({
      question: 'who won the war of the grand alliance',
      opened: [
        chunkOf('awards.md', 'In 2013 Choo Sung-hoon won the ratings war between the variety shows.'),
        chunkOf('colonies.md', 'The Greek colonies joined the grand alliances of the mainland for religious reasons.'),
      ],
    });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('Insufficient documentation');
    expect(ex.answer).not.toMatch(/\[\d+\]/);
    expect(answerSignals(state)?.declined).toBe(true);
  });

  it('answers when one document says it, whatever another document quoted beside it says', () => {
    const state = stateWith({
      question: 'who won the war of the grand alliance',
      opened: [
        chunkOf('war.md', 'The Grand Alliance won the war against France, which ended with the Treaty of Ryswick.'),
        chunkOf('colonies.md', 'The Greek colonies joined the grand alliances of the mainland for religious reasons.'),
      ],
    });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('Treaty of Ryswick');
    expect(answerSignals(state)?.declined).toBe(false);
  });

  it('reads the sentences of one document together', () => {
    const state = stateWith({
      question: 'what is the purpose of the monitoring board and who chairs it',
      opened: [
        chunkOf(
          'board.md',
          'The monitoring board reviews the purpose of each audit before it starts. The chair of the monitoring board is Ana Ruiz.',
        ),
      ],
    });
    const ex = extractiveAnswer(state, 'concise');
    expect(answerSignals(state)?.declined).toBe(false);
    expect(ex.answer).toContain('monitoring board');
  });
});

describe('evidenceByDocument', () => {
  const state = stateWith({
    question: 'x',
    opened: [chunkOf('a.md', 'Alpha one. Alpha two. Alpha three.'), chunkOf('b.md', 'Beta one.')],
  });
  const [a, b] = state.opened;
  if (!a || !b) throw new Error('opened');
  const candidate = (opened: typeof a, text: string, start: number): Candidate => ({
    opened,
    sentence: { text, start, end: start + text.length },
    terms: new Set(text.toLowerCase().split(/\W+/).filter(Boolean)),
  });
  const a1 = candidate(a, 'Alpha one.', 0);
  const a2 = candidate(a, 'Alpha two.', 11);
  const a3 = candidate(a, 'Alpha three.', 22);
  const b1 = candidate(b, 'Beta one.', 0);
  const scored = [
    { c: a1, s: 1, heading: false },
    { c: b1, s: 0.9, heading: false },
    { c: a2, s: 0.7, heading: false },
    { c: a3, s: 0.5, heading: false },
  ];

  it('groups the picked sentences by document and adds the own sentences of each document near the best score', () => {
    const groups = evidenceByDocument([a1, b1], scored, 2);
    expect(groups).toEqual([[a1, a2], [b1]]);
  });

  it('adds no sentence scoring below the quoted share, nor a heading, nor one of an unpicked document', () => {
    const withHeading = [
      { c: a1, s: 1, heading: false },
      { c: b1, s: 0.9, heading: false },
      { c: a2, s: 0.7, heading: true },
      { c: a3, s: 0.5, heading: false },
    ];
    const groups = evidenceByDocument([a1], withHeading, 3);
    expect(groups).toEqual([[a1]]);
  });
});

describe('definition questions: the defining sentence fills the slot', () => {
  const CREATURE = chunkOf(
    'creatures.pdf',
    'Abominations have been responsible for some of the worst cataclysms in history, and a creature of that kind is feared. The creature description names each abomination in turn. Should the demon get the upper hand, the result is an unholy union known as an abomination. Thankfully, abominations are rare.',
    'Creature description',
  );

  it('quotes the sentence that defines the asked term, not the one that mentions it with more of the question', () => {
    const state = stateWith({ question: 'What is an abomination in the creature description?', opened: [CREATURE] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('unholy union known as an abomination');
  });

  it('reads "how does X define Y" as asking what Y is: "define" is no word the answer must hold', () => {
    const paper = chunkOf(
      'paper.pdf',
      'This paper is structured as follows: Section III gives examples of creativity with images. According to [Gad06] creativity is “the ability to use your imagination to produce new ideas”. Could we define art and creativity better?',
      'Creativity in Machine Learning',
    );
    const state = stateWith({
      question: 'How does the paper "Creativity in Machine Learning" define creativity?',
      opened: [paper],
    });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('the ability to use your imagination');
    expect(ex.answer).toMatch(/\[1\]/);
    expect(ex.answer).not.toContain('do not answer this question');
  });

  it('leaves the ranking alone when no sentence defines the term, or the question asks a value', () => {
    const pool = (opened: ReturnType<typeof chunkOf>) =>
      opened.text.split(/(?<=\.) /).map(
        (text, i): Candidate => ({
          opened: { n: 1, handle: 'c1', chunk: opened, score: 1, injected: [], suspect: [], modelChars: 0 },
          sentence: { text, start: i * 100, end: i * 100 + text.length },
          terms: new Set(),
        }),
      );
    const none = pool(chunkOf('a.md', 'Abominations are rare. Abominations have caused cataclysms.'));
    const slot = definitionSlot('What is an abomination?', none);
    expect(none.every(slot)).toBe(true);
    const defining = pool(CREATURE);
    const value = definitionSlot('What is the number of abominations in the creature description?', defining);
    expect(defining.every(value)).toBe(true);
    const asked = definitionSlot('What is an abomination?', defining);
    expect(defining.map(asked)).toEqual([false, false, true, false]);
  });
});

describe('fit signals recorded with the answer (lib/agent/answer-fit.ts)', () => {
  it('records a denial of the asked predicate, and the answer (unchanged) is labelled Low', () => {
    const c = chunkOf(
      'ruling.md',
      'The Grand Chamber held that the Commission had not proven that the subsidy distorted competition. The case was closed in 2011.',
    );
    const state = stateWith({ question: 'What did the Grand Chamber say the Commission had proven?', opened: [c] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('had not proven');
    expect(answerSignals(state)?.fit?.polarityMismatch).toBe(true);
  });

  it('records no doubt for a sentence that states what the question asks', () => {
    const c = chunkOf(
      'ruling.md',
      'The Grand Chamber held that the Commission had proven that the subsidy distorted competition.',
    );
    const state = stateWith({ question: 'What did the Grand Chamber say the Commission had proven?', opened: [c] });
    extractiveAnswer(state, 'concise');
    const fit = answerSignals(state)?.fit;
    expect(fit).toBeDefined();
    expect(fit?.polarityMismatch).toBe(false);
    expect(fit?.valueRebound).toBe(false);
  });
});

describe('declines on a fit signal (lib/agent/fit-decline.ts)', () => {
  it('declines a question about a denial that the passage only states plainly', () => {
    const c = chunkOf(
      'immunity.md',
      'In simple terms, physical barriers prevent pathogens such as bacteria and viruses from entering the organism.',
    );
    const state = stateWith({ question: 'What is not prevented from entering an organism?', opened: [c] });
    extractiveAnswer(state, 'concise');
    expect(answerSignals(state)?.declined).toBe(true);
  });

  it('answers the same question when the passage states the denial', () => {
    const c = chunkOf(
      'immunity.md',
      'Physical barriers prevent bacteria from entering the organism. Some viruses are not prevented from entering it.',
    );
    const state = stateWith({ question: 'What is not prevented from entering an organism?', opened: [c] });
    const ex = extractiveAnswer(state, 'concise');
    expect(answerSignals(state)?.declined).toBe(false);
    expect(ex.answer).toContain('not prevented');
  });
});

describe('months, days and ordinals the question states (lib/agent/asked-values.ts)', () => {
  const climate = chunkOf(
    'climate.md',
    'The average temperature in Lisbon in August is 24 °C. The average temperature annually is 17 °C.',
    'Climate of Lisbon',
  );

  it('declines a month the passage does not state, naming it', () => {
    const state = stateWith({ question: 'what is the average temperature in lisbon in january', opened: [climate] });
    const ex = extractiveAnswer(state, 'concise');
    expect(answerSignals(state)?.declined).toBe(true);
    expect(ex.answer).not.toMatch(/\[\d+\]/);
    expect(ex.answer).toContain('january');
  });

  it('answers the month the passage states', () => {
    const state = stateWith({ question: 'what is the average temperature in lisbon in august', opened: [climate] });
    const ex = extractiveAnswer(state, 'concise');
    expect(answerSignals(state)?.declined).toBe(false);
    expect(ex.answer).toContain('24 °C');
  });

  it('declines another ordinal than the one the passage states, and answers the one it states', () => {
    const c = chunkOf(
      'rankings.md',
      'In 2015 the annual survey of cities ranked Porto as the 32nd most liveable city in Europe.',
    );
    const other = stateWith({
      question: 'In which year was Porto ranked the 22nd most liveable city in Europe?',
      opened: [c],
    });
    extractiveAnswer(other, 'concise');
    expect(answerSignals(other)?.declined).toBe(true);
    const same = stateWith({
      question: 'In which year was Porto ranked the 32nd most liveable city in Europe?',
      opened: [c],
    });
    extractiveAnswer(same, 'concise');
    expect(answerSignals(same)?.declined).toBe(false);
  });
});

describe('numbers the question states, read with the chunk title', () => {
  const text =
    'Filming took place in Northern Ireland , Croatia and Iceland . The production moved its southern scenes to Dubrovnik .';

  it('answers when the title carries the number the text does not repeat', () => {
    const c = chunkOf('series-season-2.txt', text, 'The Long Winter (season 2)');
    const state = stateWith({ question: 'where did they film the long winter season 2', opened: [c] });
    const ex = extractiveAnswer(state, 'concise');
    expect(answerSignals(state)?.declined).toBe(false);
    expect(ex.answer).toContain('Northern Ireland');
  });

  it('declines when neither the title nor the text carries it', () => {
    const c = chunkOf('series-season-3.txt', text, 'The Long Winter (season 3)');
    const state = stateWith({ question: 'where did they film the long winter season 2', opened: [c] });
    extractiveAnswer(state, 'concise');
    expect(answerSignals(state)?.declined).toBe(true);
  });
});

describe('a sentence that only repeats the question', () => {
  // A data sheet's keyword line ("Tensile Strength of SNB22-3.") and its table, with values, in other words.
  const sheet = () =>
    chunkOf(
      'alloy.html',
      [
        'Mechanical properties of grade QX41-7',
        '',
        'Assortment | Yield point | Tensile strength | Elongation',
        '- | N/mm 2 | N/mm 2 | %',
        'Bars | 640 | 815 | 14',
        '',
        'QX41-7 standards | JIS G 4108 : Alloy steel bars for special application',
        '',
        'QX41-7 datasheet. Tensile Strength of QX41-7. Density of QX41-7. Elongation of QX41-7.',
      ].join('\n'),
      'QX41-7 data sheet',
    );

  it('is never quoted as the answer; the table row under the caption naming the grade answers', () => {
    for (const [question, value] of [
      ['What is the tensile strength of QX41-7?', '815'],
      ['What is the elongation of QX41-7?', '14'],
      ['What is the yield point of QX41-7 bars?', '640'],
    ] as const) {
      const state = stateWith({ question, opened: [sheet()] });
      const ex = extractiveAnswer(state, 'concise');
      expect(ex.answer, question).toContain(`: ${value} [1]`);
      expect(ex.answer, question).not.toMatch(/of QX41-7\./);
    }
  });

  it('a table cell under a caption that says the asked attribute covers it (Brinell hardness under "Hardness of …")', () => {
    const hardness = chunkOf(
      'alloy.html',
      ['Hardness of grade QX41-7', '', '- | Brinell HBW / HB | Rockwell C HRC | Vickers HV', 'QX41-7 | 293-375'].join(
        '\n',
      ),
      'QX41-7 data sheet',
    );
    const state = stateWith({ question: 'What is the Brinell hardness of QX41-7?', opened: [hardness] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('293-375 [1]');
    expect(answerSignals(state)?.attributeCoverage).toBe(1);
  });

  it('is not evidence: a property the document only names in its keyword line is declined', () => {
    const state = stateWith({ question: 'What is the density of QX41-7?', opened: [sheet()] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('Insufficient documentation');
    expect(ex.answer).not.toMatch(/\[\d+\]/);
  });

  it('answers a yes/no question and a choice between named alternatives', () => {
    const yes = chunkOf('grade.md', 'The grade QX41-7 is a structural steel. It is forged.');
    const ex = extractiveAnswer(stateWith({ question: 'Is QX41-7 a structural steel?', opened: [yes] }), 'concise');
    expect(ex.answer).toContain('QX41-7 is a structural steel.');
    const echoes = echoOf('Which team won the final, the Leafs or the Bruins?', 'entity');
    expect(echoes('The Leafs won the final.')).toBe(false);
    expect(echoOf('Who won the final?', 'entity')('The final was won.')).toBe(true);
    expect(echoOf('Who won the final?', 'entity')('The Leafs won the final.')).toBe(false);
  });

  it('a number beside the grade but not the asked property is not the asked quantity (never High)', () => {
    const c = chunkOf(
      'alloy.md',
      'QX41-7 standards: JIS G 4108 covers alloy steel bars. The tensile strength is high for bolting uses.',
    );
    const state = stateWith({ question: 'What is the tensile strength of QX41-7?', opened: [c] });
    extractiveAnswer(state, 'concise');
    const signals = answerSignals(state);
    expect(signals?.declined === true || signals?.slotNear === false).toBe(true);
    // The same sentence with the value beside the property fills the slot.
    const filled = chunkOf('alloy.md', 'QX41-7 standards: JIS G 4108. The tensile strength is 815 N/mm2 for bars.');
    const state2 = stateWith({ question: 'What is the tensile strength of QX41-7?', opened: [filled] });
    extractiveAnswer(state2, 'concise');
    expect(answerSignals(state2)?.slotNear).toBe(true);
  });
});
