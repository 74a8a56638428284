import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '@/lib/agent/events';
import type { ChatMessage, ChatResult } from '@/lib/chat/message';
import { messageText, readAnswer, traceSummary, visibleAnswerText } from './message-view';

const call: TraceEvent = {
  type: 'tool_call',
  id: 'call-1-1',
  tool: 'search_docs',
  iteration: 1,
  input: { query: 'refund', mode: 'hybrid' },
};
const result: TraceEvent = {
  type: 'tool_result',
  id: 'call-1-1',
  tool: 'search_docs',
  ok: true,
  hits: 4,
  summary: '4 hits for "refund"',
  ms: 12,
};
const rejected: TraceEvent = {
  type: 'draft_rejected',
  id: 'draft_rejected-1',
  attempt: 1,
  errors: [{ code: 'MISQUOTE', message: 'quote not found' }],
};

function chatResult(over: Partial<ChatResult> = {}): ChatResult {
  return {
    answerId: 'a1',
    answer: 'Final [1]',
    citations: [],
    insufficiencies: [],
    clarification: null,
    confidence: 'high',
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

function message(parts: ChatMessage['parts'], metadata?: ChatMessage['metadata']): ChatMessage {
  return { id: 'm1', role: 'assistant', parts, ...(metadata ? { metadata } : {}) };
}

describe('readAnswer', () => {
  it('marks the draft followed by draft_rejected as rejected, not the next one', () => {
    const view = readAnswer(
      message([
        { type: 'data-trace', id: call.id, data: result },
        { type: 'text', text: 'first draft', state: 'done' },
        {
          type: 'data-trace',
          id: 'validation-1',
          data: { type: 'validation', id: 'validation-1', attempt: 1, stage: 'draft', passed: false, errors: [] },
        },
        { type: 'data-trace', id: rejected.id, data: rejected },
        { type: 'text', text: 'second draft', state: 'streaming' },
      ]),
    );
    expect(view.drafts.map((d) => [d.attempt, d.text, d.rejection !== null, d.streaming])).toEqual([
      [1, 'first draft', true, false],
      [2, 'second draft', false, true],
    ]);
    expect(view.status).toBe('running');
    expect(visibleAnswerText(view, true)).toBe('second draft');
    // Not live (the stream broke before a result): a draft the gate never passed is not shown as the answer.
    expect(visibleAnswerText(view)).toBe('');
  });

  it('lets the result supersede the drafts and give the status', () => {
    const view = readAnswer(
      message(
        [
          { type: 'data-session', id: 'session', data: { conversationId: 'c1', answerId: 'a1', title: 'T' } },
          { type: 'text', text: 'streamed', state: 'done' },
          { type: 'data-result', id: 'result-a1', data: chatResult({ status: 'stopped' }) },
        ],
        { status: 'complete' },
      ),
    );
    expect(view.session?.conversationId).toBe('c1');
    expect(view.status).toBe('stopped');
    expect(visibleAnswerText(view)).toBe('Final [1]');
  });

  it('shows a clarifying question once: in its box, not again as the answer text', () => {
    const question = 'I found nothing in your documents for this. Could you rephrase it or name the document?';
    const clarification = { type: 'no_results' as const, question, details: 'Searched "x".' };
    const asked = readAnswer(
      message([{ type: 'data-result', id: 'r', data: chatResult({ answer: question, clarification }) }], {
        status: 'complete',
      }),
    );
    expect(visibleAnswerText(asked)).toBe('');
    const answered = readAnswer(
      message([{ type: 'data-result', id: 'r', data: chatResult({ answer: 'Partial [1]', clarification }) }], {
        status: 'complete',
      }),
    );
    expect(visibleAnswerText(answered)).toBe('Partial [1]');
  });

  it('uses the metadata status without a result (interrupted answers)', () => {
    expect(readAnswer(message([], { status: 'interrupted' })).status).toBe('interrupted');
  });

  it('shows nothing when every draft was rejected and no result came', () => {
    const view = readAnswer(
      message([
        { type: 'text', text: 'bad', state: 'done' },
        { type: 'data-trace', id: rejected.id, data: rejected },
      ]),
    );
    expect(visibleAnswerText(view, true)).toBe('');
  });
});

describe('traceSummary', () => {
  it('counts searches, opened sources, pending calls and failed checks', () => {
    const open: TraceEvent = {
      type: 'tool_result',
      id: 'call-2-2',
      tool: 'open_citation',
      ok: true,
      hits: 1,
      summary: 'Opened r1 as [1]',
      ms: 1,
    };
    const pending: TraceEvent = { ...call, id: 'call-3-2' };
    const failed: TraceEvent = { type: 'validation', id: 'v', attempt: 1, stage: 'draft', passed: false, errors: [] };
    expect(traceSummary([result, open, pending, failed])).toEqual({
      searches: 2,
      opened: 1,
      pending: 1,
      failedChecks: 1,
    });
  });
});

describe('messageText', () => {
  it('joins the text parts of a user message', () => {
    expect(
      messageText({
        id: 'u',
        role: 'user',
        parts: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }),
    ).toBe('a\nb');
  });
});
