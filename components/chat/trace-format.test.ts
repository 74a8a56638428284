import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '@/lib/agent/events';
import {
  answerNumbers,
  checkSentence,
  fallbackLabel,
  formatMs,
  isSearchTool,
  issuesSentence,
  locationLabel,
  openedSentence,
  openingSentence,
  parseOpenedSummary,
  queryFromSummary,
  safetyFlagExplanation,
  searchSentence,
  toolLabel,
} from './trace-format';

describe('trace labels', () => {
  it('labels every tool', () => {
    for (const tool of TOOL_NAMES) expect(toolLabel(tool).length).toBeGreaterThan(2);
    expect(isSearchTool('open_citation')).toBe(false);
    expect(isSearchTool('search_text')).toBe(true);
  });
  it('explains the synthesis fallback as extractive mode', () => {
    expect(fallbackLabel('synthesis')).toMatch(/extractive mode/);
    expect(fallbackLabel('something_new')).toBe('Fallback (something_new)');
  });
  it('explains known safety flags and humanises unknown ones', () => {
    expect(safetyFlagExplanation('injection_in_context')).toBe(
      'A document contained instructions aimed at the assistant; they were ignored.',
    );
    expect(safetyFlagExplanation('new_flag_kind')).toBe('new flag kind.');
  });
  it('formats durations', () => {
    expect(formatMs(12.4)).toBe('12 ms');
    expect(formatMs(1534)).toBe('1.5 s');
    expect(formatMs(25_000)).toBe('25 s');
    expect(formatMs(Number.NaN)).toBe('');
  });
  it('recovers a query from a saved result summary', () => {
    expect(queryFromSummary('4 hits for "refund window" (keyword)')).toBe('refund window');
    expect(queryFromSummary('No results for "x y".')).toBe('x y');
    expect(queryFromSummary('Opened r1 as [1]: a.md')).toBeNull();
  });
  it('labels locations', () => {
    expect(locationLabel({ page: 3, sheet: null, headingPath: null })).toBe('page 3');
    expect(locationLabel({ page: null, sheet: 'Budget', headingPath: null })).toBe('sheet Budget');
    expect(locationLabel({ page: null, sheet: null, headingPath: 'A > B' })).toBe('A > B');
    // tables found in a PDF page or a DOCX section name their place and the table
    expect(locationLabel({ page: 3, sheet: 'Table 1', headingPath: null })).toBe('page 3 · Table 1');
    expect(locationLabel({ page: null, sheet: 'Table 2', headingPath: 'Results' })).toBe('Results · Table 2');
  });
});

describe('plain-language trace steps', () => {
  it('says what was searched and how much was found', () => {
    expect(searchSentence('refund policy', 12)).toBe('Searched your documents for “refund policy” — 12 passages');
    expect(searchSentence('refund policy', 1)).toBe('Searched your documents for “refund policy” — 1 passage');
    expect(searchSentence('x', 0)).toBe('Searched your documents for “x” — no passages found');
    expect(openingSentence(null, 2)).toBe('Read the opening of your documents — 2 passages');
    expect(openingSentence('report.pdf', null)).toBe('Reading the opening of “report.pdf”…');
    expect(searchSentence('refund policy', null)).toBe('Searching your documents for “refund policy”…');
  });

  it('reads the opened-source summary the open tool writes', () => {
    expect(parseOpenedSummary('Opened r4 as [3]: refund-2025.pdf p.4 (1.2 KB)')).toEqual({
      handle: 'r4',
      openedAs: 3,
      filename: 'refund-2025.pdf',
      page: 4,
      sheet: null,
    });
    expect(parseOpenedSummary('Opened r1 as [1]: budget.xlsx sheet Q1 2025 (0.4 KB)')?.sheet).toBe('Q1 2025');
    expect(parseOpenedSummary('Opened r2 as [2]: notes.md (3.0 KB)')?.page).toBeNull();
    expect(parseOpenedSummary('4 hits for "x"')).toBeNull();
  });

  it('shows the number the answer uses, not the number the source was opened under', () => {
    // Opened third during the run, cited first in the answer: the trace must say [1], like the answer.
    const numbers = answerNumbers([
      { n: 1, openedAs: 3, title: 'Refund policy 2025', filename: 'refund-2025.pdf' },
      { n: 2, openedAs: 1, title: null, filename: 'shipping.md' },
    ]);
    const third = parseOpenedSummary('Opened r7 as [3]: refund-2025.pdf p.4 (1.2 KB)');
    const first = parseOpenedSummary('Opened r1 as [1]: shipping.md (0.8 KB)');
    const second = parseOpenedSummary('Opened r2 as [2]: faq.md (0.8 KB)');
    if (!third || !first || !second) throw new Error('unparsed');
    expect(openedSentence(third, numbers)).toBe('Opened page 4 of Refund policy 2025 — cited as [1]');
    expect(openedSentence(first, numbers)).toBe('Opened shipping.md — cited as [2]');
    expect(openedSentence(second, numbers)).toBe('Opened faq.md — not cited in the answer');
    // While the answer runs there is no final numbering yet: no number at all rather than a wrong one.
    expect(openedSentence(third, null)).toBe('Opened page 4 of refund-2025.pdf');
  });

  it('never shows handles, internal numbers or codes in the plain words', () => {
    const numbers = answerNumbers([{ n: 1, openedAs: 2, title: null, filename: 'a.md' }]);
    const opened = parseOpenedSummary('Opened r12 as [2]: a.md (1.0 KB)');
    if (!opened) throw new Error('unparsed');
    const sentence = openedSentence(opened, numbers);
    expect(sentence).not.toMatch(/\br\d+\b|\[2\]/);
    const check = checkSentence(
      'draft',
      false,
      [{ code: 'QUOTE_NOT_FOUND' }, { code: 'UNGROUNDED_TERM' }, { code: 'QUOTE_NOT_FOUND' }],
      true,
    );
    expect(check).toBe(
      'Checked the draft: 2 quotes not found in the sources, 1 number or name not found in the sources — rewriting',
    );
    expect(check).not.toMatch(/[A-Z]{2,}_[A-Z]/);
  });

  it('words checks that passed, research checks and unknown issue codes', () => {
    expect(checkSentence('draft', true, [], false)).toMatch(/^Checked the draft: .*match your documents$/);
    expect(checkSentence('process', false, [{ code: 'MIN_SEARCHES_UNMET' }], false)).toBe(
      'Checked the research: 1 search still needed',
    );
    expect(issuesSentence([{ code: 'SOME_NEW_CHECK' }])).toBe('1 some new check');
  });
});
