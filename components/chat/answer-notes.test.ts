import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { ChatResult } from '@/lib/chat/message';
import { AnswerNotes } from './answer-notes';

function chatResult(over: Partial<ChatResult> = {}): ChatResult {
  return {
    answerId: 'a1',
    answer: 'The nightly backup window starts at 02:00 UTC [1].',
    citations: [],
    insufficiencies: [],
    clarification: null,
    confidence: 'medium',
    safetyFlags: [],
    strippedMarkers: [],
    validated: true,
    status: 'complete',
    mode: 'agent',
    recommendedMode: 'agent',
    models: { decision: null, synthesis: null, embedding: null, extractive: true },
    timings: { totalMs: 10, firstTokenMs: 5 },
    ...over,
  };
}

const render = (result: ChatResult) => renderToStaticMarkup(createElement(AnswerNotes, { result }));

describe('AnswerNotes marks an answer whose sources held planted instructions', () => {
  it('shows the injection note under the answer', () => {
    const html = render(chatResult({ safetyFlags: ['injection_in_context', 'extractive_mode'] }));
    expect(html).toContain('data-testid="safety-flags"');
    expect(html).toContain('A document contained instructions aimed at the assistant; they were ignored.');
    // the extractive-mode flag is shown elsewhere, not in the safety list
    expect(html).not.toContain('No language model answered');
  });

  it('shows no safety list for a clean answer', () => {
    expect(render(chatResult({ safetyFlags: ['extractive_mode'] }))).not.toContain('safety-flags');
  });
});
