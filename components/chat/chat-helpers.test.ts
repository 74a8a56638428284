import { describe, expect, it } from 'vitest';
import { chatErrorText } from './chat-error';
import { groupConversations } from './conversation-groups';
import { pullCommands } from './health';
import { keyed } from './keyed';
import { asChatResult, asSession, asTraceEvent } from './message-view';
import { suggestionsFor } from './suggestions';
import { viewerHref } from './viewer-href';

describe('keyed', () => {
  it('gives duplicates distinct keys that do not depend on position', () => {
    expect(keyed(['a', 'b', 'a', 'a'], (x) => x).map((k) => k.key)).toEqual(['a', 'b', 'a#2', 'a#3']);
  });
});

describe('suggestionsFor', () => {
  it('builds starters from the newest documents and caps them', () => {
    const s = suggestionsFor([{ filename: 'a.pdf' }, { filename: 'b.md' }, { filename: 'c.txt' }]);
    expect(s).toHaveLength(4);
    expect(s[0]).toBe('Summarize the main points of a.pdf');
    expect(s).toContain('Compare a.pdf and b.md');
  });
  it('still suggests general questions for one document', () => {
    expect(suggestionsFor([{ filename: 'only.md' }])).toHaveLength(3);
  });
  it('skips absurdly long names', () => {
    expect(suggestionsFor([{ filename: 'x'.repeat(200) }]).join(' ')).not.toContain('xxxx');
  });
});

describe('data part readers', () => {
  it('accepts a valid trace event and caches by identity', () => {
    const data = { type: 'limit', id: 'limit-1', limit: 'tool_calls', value: 8, detail: 'budget used' };
    const first = asTraceEvent(data);
    expect(first?.type).toBe('limit');
    expect(asTraceEvent(data)).toBe(first);
  });
  it('rejects junk and unknown event types', () => {
    expect(asTraceEvent(null)).toBeNull();
    expect(asTraceEvent({ type: 'exploit', id: 'x' })).toBeNull();
    expect(asTraceEvent({ type: 'plan', id: 'p' })).toBeNull();
  });
  it('checks the result and session shapes', () => {
    expect(asChatResult({ answerId: 'a', answer: 'x' })).toBeNull();
    const ok = {
      answerId: 'a',
      answer: 'x',
      citations: [],
      insufficiencies: [],
      safetyFlags: [],
      validated: true,
      confidence: 'high',
      status: 'complete',
      models: {},
      timings: {},
    };
    expect(asChatResult(ok)?.answerId).toBe('a');
    expect(asChatResult({ ...ok, confidence: 'certain' })).toBeNull();
    expect(asSession({ conversationId: 'c', answerId: 'a', title: 't' })).toEqual({
      conversationId: 'c',
      answerId: 'a',
      title: 't',
    });
    expect(asSession({ conversationId: 1 })).toBeNull();
  });
});

describe('chatErrorText', () => {
  it('reads the route error body, falls back to the text, and is null without an error', () => {
    expect(
      chatErrorText(
        new Error(JSON.stringify({ error: { code: 'rate_limited:agent', message: 'Too many questions.' } })),
      ),
    ).toBe('Too many questions.');
    expect(chatErrorText(new Error('The answer could not be completed.'))).toBe('The answer could not be completed.');
    expect(chatErrorText(new Error(''))).toMatch(/could not be completed/);
    expect(chatErrorText(undefined)).toBeNull();
  });
});

describe('viewerHref', () => {
  it('links to the page, the chunk and the quote offsets', () => {
    expect(viewerHref({ documentId: 'd1', chunkId: 'c1', page: 3, quoteStart: 5, quoteEnd: 9 })).toBe(
      '/documents/d1/view?page=3&chunk=c1&qs=5&qe=9',
    );
  });
  it('omits the page and an empty quote, and escapes ids', () => {
    expect(viewerHref({ documentId: 'a/b', chunkId: 'c&1', page: null, quoteStart: 0, quoteEnd: 0 })).toBe(
      '/documents/a%2Fb/view?chunk=c%261',
    );
  });
});

describe('groupConversations', () => {
  it('groups by day of last activity, newest first', () => {
    const now = new Date(2026, 10, 22, 12, 0, 0);
    const at = (daysAgo: number, hour = 10) => new Date(2026, 10, 22 - daysAgo, hour).toISOString();
    const groups = groupConversations(
      [
        { id: 'old', title: 'old', createdAt: at(30), updatedAt: at(30) },
        { id: 't1', title: 't1', createdAt: at(0, 8), updatedAt: at(0, 8) },
        { id: 't2', title: 't2', createdAt: at(0, 11), updatedAt: at(0, 11) },
        { id: 'y', title: 'y', createdAt: at(1), updatedAt: at(1) },
        { id: 'w', title: 'w', createdAt: at(4), updatedAt: at(4) },
      ],
      now,
    );
    expect(groups.map((g) => [g.label, g.items.map((i) => i.id)])).toEqual([
      ['Today', ['t2', 't1']],
      ['Yesterday', ['y']],
      ['Previous 7 days', ['w']],
      ['Older', ['old']],
    ]);
  });
});

describe('pullCommands', () => {
  it('lists each configured model once', () => {
    const cmds = pullCommands({
      llm: { status: 'unreachable', decisionModel: 'qwen3:8b', synthesisModel: 'qwen3:8b' },
      embedder: { status: 'unreachable', model: 'nomic-embed-text' },
      mode: { answers: 'extractive', semanticSearch: false },
    });
    expect(cmds).toEqual(['ollama pull qwen3:8b', 'ollama pull nomic-embed-text']);
  });
});
