import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { assembleSegment, checksum, PostingsEncoder, SegmentReader } from '@/lib/retrieval/embedded/keyword-segment';
import { END, TermList, type TermPart } from '@/lib/retrieval/embedded/maxscore';

const dir = mkdtempSync(path.join(tmpdir(), 'maxscore-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;

interface Posting {
  doc: number;
  body: number;
  context: number;
}

/** One segment of `docs` chunks holding the term 'term' with the given postings (docs ascending). */
function segment(postings: Posting[], docs: number): SegmentReader {
  const lengths = new Uint32Array(docs).fill(5);
  const encoder = new PostingsEncoder(lengths, lengths);
  encoder.addTerm(
    Buffer.from('term'),
    postings.map((p) => p.doc),
    postings.map((p) => (p.body | (p.context << 16)) >>> 0),
    postings.length,
  );
  const columns = {
    chunkIds: Array.from({ length: docs }, (_, i) => `c${i}`),
    bodyLength: lengths,
    contextLength: lengths,
    attributeRef: new Uint32Array(docs),
    hasVector: new Uint8Array(docs),
    attributeSets: [],
    totalBody: docs * 5,
    totalContext: docs * 5,
  };
  const { idx } = assembleSegment(columns, new Float64Array(docs + 1), [], encoder);
  const name = `seg-${files++}`;
  writeFileSync(path.join(dir, `${name}.idx`), idx);
  writeFileSync(path.join(dir, `${name}.docs`), Buffer.alloc(0));
  return SegmentReader.open(name, path.join(dir, `${name}.idx`), path.join(dir, `${name}.docs`), checksum(idx));
}

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
