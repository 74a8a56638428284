import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { END, TermList, type TermPart } from '@/lib/retrieval/embedded/maxscore';
import { oneTermSegments, type TermPosting } from '@/test/support/retrieval/one-term-segment';

const segments = oneTermSegments('maxscore-');
afterAll(() => segments.dispose());

type Posting = TermPosting;

/** One segment of `docs` chunks holding the term 'term' with the given postings (docs ascending). */
const segment = (postings: Posting[], docs: number) => segments.write(postings, docs);

/** Postings of one segment: distinct docs below `docs`, ascending, tfs of either field (at least one > 0). */
const segmentPostings = fc.integer({ min: 1, max: 900 }).chain((docs) =>
  fc
    .uniqueArray(
      fc.record({
        doc: fc.integer({ min: 0, max: docs - 1 }),
        body: fc.integer({ min: 0, max: 70_000 }),
        context: fc.integer({ min: 0, max: 3 }),
      }),
      { selector: (p) => p.doc, maxLength: 600 },
    )
    .map((postings) => ({
      docs,
      postings: postings
        .map((p) => ({ ...p, body: Math.min(p.body, 0xffff) || (p.context === 0 ? 1 : 0) }))
        .sort((a, b) => a.doc - b.doc),
    })),
);

describe('TermList', () => {
  it('reads a term across segments as one list in global slot order: bulk reads and seek() agree', () => {
    fc.assert(
      fc.property(
        fc.array(segmentPostings, { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 4_000 }), { maxLength: 30 }),
        (segments, rawTargets) => {
          const parts: TermPart[] = [];
          const expected: Posting[] = [];
          let base = 0;
          for (const { docs, postings } of segments) {
            if (postings.length > 0) {
              const reader = segment(postings, docs);
              parts.push({ reader, base, term: reader.findTerm(Buffer.from('term')) });
            }
            for (const p of postings) expected.push({ ...p, doc: base + p.doc });
            base += docs;
          }
          const norm = () => 1;
          // The bulk loop of the search: decoded arrays read directly, nextBlock() at the end of each block.
          const bulk = new TermList(parts, 1, 1.2, norm, norm);
          const read: Posting[] = [];
          bulk.seek(0);
          while (bulk.doc !== END) {
            for (let p = bulk.position; p < bulk.count; p++)
              read.push({
                doc: bulk.docs[p] as number,
                body: bulk.bodyTfs[p] as number,
                context: bulk.contextTfs[p] as number,
              });
            bulk.nextBlock();
          }
          expect(read).toEqual(expected);
          // seek(target) lands on the first posting at or after target, whatever blocks and segments it skips.
          const seeking = new TermList(parts, 1, 1.2, norm, norm);
          for (const target of [...rawTargets].sort((a, b) => a - b)) {
            seeking.seek(target);
            const want = expected.find((p) => p.doc >= target);
            expect(seeking.doc).toBe(want?.doc ?? END);
            if (want) {
              expect(seeking.bodyTfs[seeking.position]).toBe(want.body);
              expect(seeking.contextTfs[seeking.position]).toBe(want.context);
            }
          }
          // Block bounds are in global slot order and the list's bound is their max.
          expect([...bulk.blockLast]).toEqual([...bulk.blockLast].sort((a, b) => a - b));
          expect(bulk.bound).toBe(Math.max(0, ...bulk.blockBound));
          for (const part of parts) part.reader.close();
        },
      ),
      { numRuns: 60 },
    );
  });
});
