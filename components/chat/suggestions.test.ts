import { describe, expect, it } from 'vitest';
import { documentQuestion } from '@/lib/agent/document-questions';
import { suggestionsFor } from './suggestions';

describe('suggestionsFor', () => {
  it('builds starter questions from the newest documents, without duplicates, at most four', () => {
    const s = suggestionsFor([{ filename: 'Q3 board minutes.pdf' }, { filename: 'budget.xlsx' }]);
    expect(s).toHaveLength(4);
    expect(s[0]).toBe('Summarize the main points of Q3 board minutes.pdf');
    expect(new Set(s).size).toBe(s.length);
    expect(suggestionsFor([])).toHaveLength(2);
  });

  it('its first question is one the agent reads as an overview of that document (read from its opening)', () => {
    const [first] = suggestionsFor([{ filename: 'Q3 board minutes.pdf' }]);
    expect(documentQuestion(first ?? '')).toEqual({
      kind: 'overview',
      subject: 'Q3 board minutes.pdf',
      language: null,
    });
  });
});
