import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument } from '../../test/support/agent/fixtures';
import { stateWith } from '../../test/support/agent/state';
import { answerSignals } from './confidence';
import { documentDateAnswer, openingDate } from './document-date';
import { extractiveAnswer } from './extractive';
import { validateDraft } from './validate';

const ESSAY =
  'January 2023 (Someone fed my essays into GPT to make something that could answer questions based on them.) The way to get new ideas is to notice anomalies.';

function opened(text: string, index = 0, title = 'How to Get New Ideas', filename = 'ideas-page.html') {
  const doc = makeDocument({ filename, title, mime: 'text/html' });
  return makeChunk(doc, index, text);
}

describe('the date a document opens with (document-date.ts)', () => {
  it('openingDate: a date standing first, or under a short title line; not one inside the text', () => {
    expect(openingDate(ESSAY)).toBe('January 2023');
    expect(openingDate('How to Get New Ideas\n\n12 March 2021\n\nText.')).toBe('12 March 2021');
    expect(openingDate('March 12, 2021\nDear Sir,')).toBe('March 12, 2021');
    expect(openingDate('2021-03-12 Minutes of the board')).toBe('2021-03-12');
    expect(openingDate('The company was founded in January 2023. It grew.')).toBeNull();
    expect(
      openingDate('A long first sentence that is surely not a title of anything at all here.\nJanuary 2023'),
    ).toBeNull();
    expect(openingDate('Mayhem 2023')).toBeNull();
  });

  it('property: any month and year opening the text is read back, whatever follows', () => {
    const months = [
      'January',
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
    ];
    fc.assert(
      fc.property(fc.constantFrom(...months), fc.integer({ min: 1000, max: 2999 }), fc.string(), (m, y, rest) => {
        expect(openingDate(`${m} ${y} ${rest.replace(/\n/g, ' ')}`)).toBe(`${m} ${y}`);
      }),
    );
  });

  it('answers "When was <title> written?" with the opening date, cited, and the gate passes it (Medium, not High)', () => {
    for (const question of [
      'When was How to Get New Ideas written?',
      'When was the essay written?',
      'When was How to Get New Ideas published?',
    ]) {
      const state = stateWith({ question, opened: [opened(ESSAY)] });
      const ex = extractiveAnswer(state, 'concise');
      expect(ex.answer, question).toContain('"January 2023" [1]');
      expect(validateDraft(ex.answer, state, { skipProcess: true }).passed, question).toBe(true);
      expect(answerSignals(state)?.openSpan).toBe(true);
    }
  });

  it('leaves other questions, later passages, other documents and two dated documents to the reader', () => {
    const q = 'When was How to Get New Ideas written?';
    const open = (...chunks: ReturnType<typeof opened>[]) => stateWith({ question: q, opened: chunks }).opened;
    // not asked when the document was made
    expect(documentDateAnswer('When did the author notice anomalies?', 'date', open(opened(ESSAY)))).toBeNull();
    // not the opening passage
    expect(documentDateAnswer(q, 'date', open(opened(ESSAY, 3)))).toBeNull();
    // the question names another document
    expect(documentDateAnswer('When was the annual report written?', 'date', open(opened(ESSAY)))).toBeNull();
    // two dated documents fit "the essay"
    const two = open(opened(ESSAY), opened('May 2020 Another essay.', 0, 'Another Essay', 'other.html'));
    expect(documentDateAnswer('When was the essay written?', 'date', two)).toBeNull();
    expect(documentDateAnswer(q, 'date', two)?.date).toBe('January 2023');
  });
});
