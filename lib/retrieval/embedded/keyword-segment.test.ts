import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { PostingCursor } from '@/lib/retrieval/embedded/keyword-segment';
import { oneTermSegments } from '@/test/support/retrieval/one-term-segment';

const segments = oneTermSegments('keyword-segment-');
afterAll(() => segments.dispose());

/** Writes one segment holding a single term with the given postings and reads it back. */
function roundTrip(postings: { doc: number; body: number; context: number }[], docs: number) {
  const reader = segments.write(postings, docs);
  const term = reader.findTerm(Buffer.from('term'));
  const read: { doc: number; body: number; context: number }[] = [];
  const cursor = new PostingCursor(reader, term);
  if (cursor.start()) {
    while (cursor.doc !== 0x7fffffff) {
      read.push({ doc: cursor.doc, body: cursor.tfBody, context: cursor.tfContext });
      cursor.next();
    }
  }
  // advance(target) lands on the first posting at or after target, whatever blocks it skips.
  const targets = postings.filter((_, i) => i % 37 === 0).flatMap((p) => [p.doc, p.doc + 1]);
  const skipping = new PostingCursor(reader, term);
  skipping.start();
  for (const target of targets) {
    skipping.advance(target);
    const expected = postings.find((p) => p.doc >= target)?.doc ?? 0x7fffffff;
    if (skipping.doc !== expected) throw new Error(`advance(${target}) gave ${skipping.doc}, expected ${expected}`);
  }
  reader.close();
  return read;
}

describe('keyword segment postings', () => {
  it('round-trips any doc gaps and tfs up to 65,535 across block boundaries, and advance() agrees', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 69_999 }), { minLength: 1, maxLength: 400 }),
        fc.array(fc.record({ body: fc.integer({ min: 0, max: 70_000 }), context: fc.integer({ min: 0, max: 300 }) }), {
          minLength: 400,
          maxLength: 400,
        }),
        (docs, tfs) => {
          const postings = [...docs]
            .sort((a, b) => a - b)
            .map((doc, i) => {
              const tf = tfs[i] ?? { body: 1, context: 0 };
              const body = Math.min(tf.body, 0xffff);
              return { doc, body: body === 0 && tf.context === 0 ? 1 : body, context: tf.context };
            });
          expect(roundTrip(postings, 70_000)).toEqual(postings);
        },
      ),
      { numRuns: 12 },
    );
  }, 60_000);

  it('round-trips a long list of many blocks', () => {
    const postings = Array.from({ length: 1_000 }, (_, i) => ({ doc: i * 3, body: 1 + (i % 7), context: i % 2 }));
    expect(roundTrip(postings, 3_000)).toEqual(postings);
  });
});
