import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument } from '../../test/support/agent/fixtures';
import { stateWith } from '../../test/support/agent/state';
import { extractiveAnswer } from './extractive';
import { looksLikeHeading } from './extractive-select';
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

  it('recognises titles and headings', () => {
    const state = stateWith({ question: 'x', opened: [TENK] });
    const o = state.opened[0];
    if (!o) throw new Error('opened');
    expect(looksLikeHeading('Galaxy Gaming 10-K', o)).toBe(true);
    expect(looksLikeHeading('Quarterly Results Overview', o)).toBe(true);
    expect(looksLikeHeading('The company had 1,245 employees at the end of 2023.', o)).toBe(false);
  });
});
