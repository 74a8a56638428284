import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument } from '../../test/support/agent/fixtures';
import { stateWith } from '../../test/support/agent/state';
import { questionFrameTerms } from './answer-type';
import { extractiveAnswer } from './extractive';
import { saysAllBut } from './extractive-select';
import { identifierLabels, labelsOfHeldIdentifiers } from './identifier-label';

describe('identifier labels', () => {
  it('finds the lower-case noun before a code mixing letters and digits, or hyphenated digits', () => {
    expect(identifierLabels('When was the permit in file BK-2231-X issued?')).toEqual([
      { identifier: 'BK-2231-X', label: ['file'] },
    ]);
    expect(identifierLabels('Which alloy covers steel grade S355J2?')[0]?.label).toEqual(['grade']);
    expect(identifierLabels('What is the status of ticket 4411-20?')[0]?.identifier).toBe('4411-20');
  });

  it('a plain number, a year or a capitalised word before a code labels nothing', () => {
    expect(identifierLabels('How many permits were issued in 2015?')).toEqual([]);
    expect(identifierLabels('How many rooms does the hotel have? 120 rooms')).toEqual([]);
    expect(identifierLabels('What does the Boeing 737-8 weigh?')).toEqual([]);
  });

  it('a label counts only when the evidence holds its identifier (spacing and hyphens aside)', () => {
    const q = 'When was the permit in file BK-2231-X issued?';
    expect([...labelsOfHeldIdentifiers(q, 'bk2231x-summary.pdf Permit issued: 03/02/2019')]).toEqual(['file']);
    expect([...labelsOfHeldIdentifiers(q, 'BK-2232-X Permit issued: 03/02/2019')]).toEqual([]);
  });

  it('saysAllBut needs every other attribute word said and at least one of them', () => {
    const have = new Set(['incid', 'date']);
    expect(saysAllBut(['incid', 'case'], new Set(['case']), have)).toBe(true);
    expect(saysAllBut(['incid', 'case', 'treat'], new Set(['case']), have)).toBe(false);
    expect(saysAllBut(['case'], new Set(['case']), have)).toBe(false);
    expect(saysAllBut(['incid', 'case'], new Set(), have)).toBe(false);
  });

  it('property: labels are only ever question words standing right before an identifier the text holds', () => {
    const code = fc.stringMatching(/^[A-Z]{2}\d{2,5}(?:-[A-Z0-9]{1,3})?$/);
    const noun = fc.constantFrom('case', 'file', 'grade', 'precinct', 'ticket', 'order');
    fc.assert(
      fc.property(noun, code, fc.boolean(), (n, c, held) => {
        const q = `What is the status of ${n} ${c}?`;
        const labels = labelsOfHeldIdentifiers(q, held ? `Record ${c}: closed` : 'Record: closed');
        expect(labels.size > 0).toBe(held);
        for (const t of labels) expect(identifierLabels(q).some((x) => x.label.includes(t))).toBe(true);
      }),
    );
  });
});

describe('"when did X occur" asks for a date: "occur" is the question frame', () => {
  it('the frame verb is no topic word', () => {
    expect([...questionFrameTerms('When did the outage in ticket 4411-20 occur?')]).toEqual(['occur']);
    expect([...questionFrameTerms('On what date did the flood happen?')]).toEqual(['happen']);
    expect([...questionFrameTerms('Where did the flood occur?')]).toEqual([]);
  });
});

const FORM = makeChunk(
  makeDocument({ filename: 'incident-report-TK4411-20.pdf' }),
  0,
  'Service Incident Summary TK4411-20\nRegion: North district\nDate of Outage: 03/14/2021\nThe outage was reported by a customer.',
);

describe('a form field answers when only the identifier label is unsaid', () => {
  it('must answer: the date field of the record the identifier names', () => {
    const state = stateWith({ question: 'On what date did the outage in ticket TK4411-20 occur?', opened: [FORM] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).toContain('03/14/2021');
    expect(ex.answer).toMatch(/\[\d+\]/);
  });

  it('must decline: another attribute word is unsaid as well', () => {
    const state = stateWith({
      question: 'On what date was the outage in ticket TK4411-20 repaired by the contractor?',
      opened: [FORM],
    });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).not.toMatch(/\[\d+\]/);
  });

  it('must decline: the evidence names another identifier', () => {
    const state = stateWith({ question: 'On what date did the outage in ticket TK9999-20 occur?', opened: [FORM] });
    const ex = extractiveAnswer(state, 'concise');
    expect(ex.answer).not.toMatch(/\[\d+\]/);
  });
});
