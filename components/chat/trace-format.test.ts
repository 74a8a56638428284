import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '@/lib/agent/events';
import {
  fallbackLabel,
  formatMs,
  isSearchTool,
  locationLabel,
  queryFromSummary,
  safetyFlagExplanation,
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
  });
});
