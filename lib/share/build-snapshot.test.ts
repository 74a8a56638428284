import { describe, expect, it } from 'vitest';
import { buildShareSnapshot } from '@/lib/share/build-snapshot';
import { shareSnapshotSchema } from '@/lib/share/snapshot';

const answer = {
  question: 'How do I reindex?',
  text: 'Run `REINDEX TABLE orders;` [1]. Deletes are verified by count [2].',
  citations: [
    {
      n: 1,
      documentId: 'd1',
      chunkId: 'c1',
      filename: 'ops.md',
      title: 'Ops',
      page: null,
      sheet: null,
      headingPath: 'Reindex',
      snippet: 'REINDEX…',
      quote: 'REINDEX TABLE orders;',
      quoteStart: 4,
      quoteEnd: 25,
    },
    {
      n: 2,
      documentId: 'd2',
      chunkId: 'c2',
      filename: 'gone.pdf',
      title: null,
      page: 3,
      sheet: null,
      headingPath: null,
      snippet: 'x',
      quote: 'count',
      quoteStart: 0,
      quoteEnd: 5,
    },
  ],
  insufficiencies: [{ section: 'Rate limits', missing: 'retry policy', queriesTried: ['retry policy'] }],
  confidence: 'medium',
  models: { decision: 'qwen3:8b', synthesis: 'qwen3:8b', embedding: null, extractive: false },
  trace: [
    { type: 'tool_call', id: 's1', tool: 'search_docs', iteration: 1, input: { query: 'reindex' } },
    { type: 'tool_result', id: 's1', tool: 'search_docs', ok: true, hits: 4, summary: '4 hits', ms: 3 },
    { type: 'tool_call', id: 'o1', tool: 'open_citation', iteration: 2, input: { handle: 'r1' } },
    { type: 'tool_result', id: 'o1', tool: 'open_citation', ok: true, hits: 1, summary: 'opened', ms: 1 },
    { type: 'reprompt', id: 'r1', attempt: 1, codes: ['X'], remainingToolCalls: 3, message: 'm' },
    { type: 'validation', id: 'v1', attempt: 2, stage: 'draft', passed: true, errors: [] },
    { type: 'bogus', id: 'z' },
  ],
  createdAt: new Date('2026-11-20T10:00:00Z'),
};

describe('buildShareSnapshot', () => {
  it('freezes only what was cited, with hashes and a compact trace', () => {
    const cited = new Map([['c1', { text: 'Use REINDEX TABLE orders; nightly.', sha256: 'a'.repeat(64) }]]);
    const snapshot = buildShareSnapshot(answer, cited);
    expect(shareSnapshotSchema.parse(snapshot)).toEqual(snapshot);
    expect(snapshot.question).toBe(answer.question);
    expect(snapshot.citations[0]).toMatchObject({
      n: 1,
      text: 'Use REINDEX TABLE orders; nightly.',
      sha256: 'a'.repeat(64),
      redacted: false,
    });
    // a cited chunk that no longer exists is frozen as redacted, never looked up elsewhere: none of its text
    // (quote, snippet) survives, nor the answer's sentence that cites only it
    expect(snapshot.citations[1]).toMatchObject({
      n: 2,
      text: null,
      quote: null,
      snippet: null,
      sha256: null,
      redacted: true,
    });
    expect(snapshot.answer).toBe(
      'Run `REINDEX TABLE orders;` [1]. *(Removed: its source was deleted by its owner.)* [2]',
    );
    expect(snapshot.trace).toEqual({
      searches: [{ tool: 'search_docs', query: 'reindex', hits: 4 }],
      citationsOpened: 1,
      validationPassed: true,
      reprompts: 1,
    });
    expect(snapshot.models).toEqual({ decision: 'qwen3:8b', synthesis: 'qwen3:8b', extractive: false });
    expect(snapshot.answeredAt).toBe('2026-11-20T10:00:00.000Z');
    expect(JSON.stringify(snapshot)).not.toContain('chunkId');
  });

  it('tolerates malformed stored JSON without inventing data', () => {
    const snapshot = buildShareSnapshot(
      { ...answer, citations: 'nope', insufficiencies: null, trace: 5, confidence: 'sure', models: [] },
      new Map(),
    );
    expect(snapshot.citations).toEqual([]);
    expect(snapshot.insufficiencies).toEqual([]);
    expect(snapshot.confidence).toBe('low');
    expect(snapshot.trace.searches).toEqual([]);
  });
});
