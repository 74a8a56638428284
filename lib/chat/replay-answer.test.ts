import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '@/lib/agent/events';
import { replayAnswer, sentencePieces } from './replay-answer';

describe('sentencePieces', () => {
  it('cuts after each sentence and keeps markup and whitespace', () => {
    const answer = 'The window is 30 days [1]. Refunds take 5 days [1].\n\n- Express costs 12 euros [2].';
    const pieces = sentencePieces(answer);
    expect(pieces.length).toBeGreaterThanOrEqual(3);
    expect(pieces.join('')).toBe(answer);
    expect(pieces[0]).toBe('The window is 30 days [1].');
  });

  it('rejoins to exactly the answer, whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), (text) => {
        expect(sentencePieces(text).join('')).toBe(text);
      }),
    );
  });

  it('gives nothing for an empty answer', () => {
    expect(sentencePieces('')).toEqual([]);
  });
});

describe('replayAnswer', () => {
  it('emits one token per sentence, in order, that add up to the answer', async () => {
    const events: AgentEvent[] = [];
    const answer = 'One sentence here [1]. Another one there [2]. A third.';
    await replayAnswer(answer, (e) => events.push(e), { pauseMs: 1 });
    expect(events.every((e) => e.type === 'token' && e.attempt === 1)).toBe(true);
    expect(events.length).toBe(3);
    expect(events.map((e) => (e.type === 'token' ? e.text : '')).join('')).toBe(answer);
  });

  it('stops pausing once aborted but still delivers the whole answer', async () => {
    const events: AgentEvent[] = [];
    const controller = new AbortController();
    controller.abort();
    const started = Date.now();
    await replayAnswer('First one. Second one. Third one. Fourth one.', (e) => events.push(e), {
      pauseMs: 1000,
      signal: controller.signal,
    });
    expect(Date.now() - started).toBeLessThan(500);
    expect(events.length).toBe(4);
  });
});
