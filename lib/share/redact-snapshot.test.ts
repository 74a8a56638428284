import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { citationMarkers, splitSentences } from '@/lib/agent/text';
import { REMOVED_SENTENCE, redactAnswerText, redactSnapshot } from '@/lib/share/redact-snapshot';
import type { ShareSnapshot, SnapshotCitation } from '@/lib/share/snapshot';

function citation(n: number, quote: string): SnapshotCitation {
  return {
    n,
    documentId: `d${n}`,
    filename: `f${n}.md`,
    title: null,
    page: null,
    sheet: null,
    headingPath: null,
    quote,
    text: `chunk text with ${quote}`,
    snippet: `snippet ${quote}`,
    quoteStart: 0,
    quoteEnd: quote.length,
    sha256: 'a'.repeat(64),
    redacted: false,
  };
}

const snapshot: ShareSnapshot = {
  version: 1,
  question: 'How is the reindex run?',
  answer:
    'Run “REINDEX TABLE orders” nightly [1]. Verify counts afterwards [2].\n\n- Keep “secret window 02:00” [1].\n- Both agree [1, 2].',
  citations: [citation(1, 'REINDEX TABLE orders'), citation(2, 'counts')],
  insufficiencies: [],
  confidence: 'high',
  models: { decision: null, synthesis: null, extractive: true },
  answeredAt: '2026-11-20T10:00:00.000Z',
  trace: { searches: [], citationsOpened: 0, validationPassed: true, reprompts: 0 },
};

describe('redactSnapshot', () => {
  it("removes a gone source's quote, text, snippet, hash and the sentences citing only it", () => {
    const out = redactSnapshot(snapshot, (c) => c.documentId === 'd1');
    expect(out.citations[0]).toMatchObject({
      n: 1,
      redacted: true,
      quote: null,
      text: null,
      snippet: null,
      sha256: null,
    });
    expect(out.citations[1]).toEqual(snapshot.citations[1]);
    const json = JSON.stringify(out);
    expect(json).not.toContain('REINDEX TABLE orders');
    expect(json).not.toContain('secret window');
    expect(out.answer).toBe(
      `${REMOVED_SENTENCE} [1] Verify counts afterwards [2].\n\n- ${REMOVED_SENTENCE} [1]\n- Both agree [1, 2].`,
    );
  });

  it('is idempotent and leaves a snapshot without gone sources untouched', () => {
    const once = redactSnapshot(snapshot, (c) => c.n === 1);
    expect(redactSnapshot(once, (c) => c.n === 1)).toEqual(once);
    expect(redactSnapshot(once, () => false)).toEqual(once);
    expect(redactSnapshot(snapshot, () => false)).toBe(snapshot);
  });

  it('never keeps a sentence that cites only gone sources, whatever the text', () => {
    const sentence = fc
      .tuple(
        fc.string({ maxLength: 40 }).map((s) => s.replace(/[[\]]/g, '')),
        fc.array(fc.integer({ min: 1, max: 4 }), { maxLength: 3 }),
      )
      .map(([text, ns]) => `${text.trim()}${ns.length ? ` [${ns.join(', ')}]` : ''}.`);
    fc.assert(
      fc.property(fc.array(sentence, { maxLength: 6 }), fc.subarray([1, 2, 3, 4]), (sentences, goneList) => {
        const answer = sentences.join(' ');
        const gone = new Set(goneList);
        const out = redactAnswerText(answer, gone);
        for (const s of splitSentences(out)) {
          const markers = citationMarkers(s.text);
          if (markers.length > 0 && markers.every((m) => gone.has(m.n))) expect(s.text).toContain(REMOVED_SENTENCE);
        }
        expect(redactAnswerText(out, gone)).toBe(out);
      }),
      { numRuns: 500 },
    );
  });
});
