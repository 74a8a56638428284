import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { END, maxScoreSearch, TermList, type TermPart, WINDOW } from '@/lib/retrieval/embedded/maxscore';
import type { ScoredSlot } from '@/lib/retrieval/embedded/top-k';
import { oneTermSegments, type TermPosting } from '@/test/support/retrieval/one-term-segment';

const segments = oneTermSegments('maxscore-');
afterAll(() => segments.dispose());

type Posting = TermPosting;

/**
 * One segment of `docs` chunks holding the term 'term' with the given postings (docs ascending), in the current
 * postings layout (3), the previous one (2, still read), or either at random (`mixed`: a list over segments of
 * both, as an index being upgraded has).
 */
type Layout = 2 | 3 | 'mixed';
const layouts = fc.constantFrom<Layout>(2, 3, 'mixed');
let flips = 0;
const segment = (postings: Posting[], docs: number, layout: Layout = 3) =>
  segments.write(postings, docs, layout === 'mixed' ? (flips++ % 2 === 0 ? 2 : 3) : layout);
/** Window sizes: many small windows (the real one holds whole test corpora), and the real one. */
const windows = fc.constantFrom(32, 256, 1_024, WINDOW);

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
  it('reads a term across segments as one list in global slot order: next() and seek() agree', () => {
    fc.assert(
      fc.property(
        fc.array(segmentPostings, { minLength: 1, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 4_000 }), { maxLength: 30 }),
        layouts,
        (segments, rawTargets, layout) => {
          const parts: TermPart[] = [];
          const expected: Posting[] = [];
          let base = 0;
          for (const { docs, postings } of segments) {
            if (postings.length > 0) {
              const reader = segment(postings, docs, layout);
              parts.push({ reader, base, term: reader.findTerm(Buffer.from('term')) });
            }
            for (const p of postings) expected.push({ ...p, doc: base + p.doc });
            base += docs;
          }
          const norm = () => 1;
          // Read posting by posting as the search's loops do: next() within and across blocks until END.
          const bulk = new TermList(parts, 1, 1.2, norm, norm);
          const read: Posting[] = [];
          bulk.seek(0);
          while (bulk.doc !== END) {
            read.push({ doc: bulk.doc, body: bulk.bodyTf, context: bulk.contextTf });
            bulk.next();
          }
          expect(read).toEqual(expected);
          // seek(target) lands on the first posting at or after target, whatever blocks and segments it skips.
          const seeking = new TermList(parts, 1, 1.2, norm, norm);
          for (const target of [...rawTargets].sort((a, b) => a - b)) {
            seeking.seek(target);
            const want = expected.find((p) => p.doc >= target);
            expect(seeking.doc).toBe(want?.doc ?? END);
            if (want) {
              expect(seeking.bodyTf).toBe(want.body);
              expect(seeking.contextTf).toBe(want.context);
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

/** Deterministic pseudo-random numbers in [0, 1) from a seed (corpora too large to draw posting by posting). */
function prng(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    return state / 4_294_967_296;
  };
}

/** Best (score desc, slot asc) `limit` of all scored slots. */
function exhaustiveTop(scores: Map<number, number>, limit: number): ScoredSlot[] {
  return [...scores]
    .map(([slot, score]) => ({ slot, score }))
    .sort((a, b) => b.score - a.score || a.slot - b.slot)
    .slice(0, limit);
}

/**
 * Same scores rank by rank, and the same slots except where scores tie within float error (the search adds a
 * chunk's term scores in another order than the reference, so exact ties may differ in the last bit).
 */
function expectSameTop(got: ScoredSlot[], want: ScoredSlot[]): void {
  expect(got.map((hit) => hit.score)).toEqual(want.map((hit) => expect.closeTo(hit.score, 9)));
  const close = (a: number, b: number) => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));
  const last = want[want.length - 1]?.score ?? 0;
  const wanted = new Set(want.map((hit) => hit.slot));
  for (const hit of got) {
    const tied = close(hit.score, last) || want.filter((other) => close(other.score, hit.score)).length > 1;
    if (!tied) expect(wanted.has(hit.slot)).toBe(true);
  }
}

describe('maxScoreSearch', () => {
  it('returns the exhaustive top k: random corpora over windows and segments, dense and sparse terms, deletes, filters', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1, max: 4_500 }),
        fc.array(fc.double({ min: 0.0005, max: 0.8, noNaN: true }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 4_499 }), { maxLength: 2 }),
        fc.constantFrom(1, 3, 10, 50),
        fc.boolean(),
        layouts,
        windows,
        (seed, slots, densities, cuts, limit, filtered, layout, window) => {
          const random = prng(seed);
          const k1 = 1.2;
          // Per-slot norms below the maxima the bounds are computed from (1.5 body, 3 context).
          const bodyInverse = Float32Array.from({ length: slots }, () => 0.3 + random() * 1.2);
          const contextFactor = Float32Array.from({ length: slots }, () => random() * 3);
          const alive = Uint8Array.from({ length: slots }, () => (random() < 0.05 ? 0 : 1));
          const bounds = [0, ...new Set(cuts.filter((cut) => cut < slots)), slots].sort((a, b) => a - b);
          const accept = filtered ? (slot: number) => slot % 3 === 1 : undefined;
          const exact = new Map<number, number>();
          const lists: TermList[] = [];
          const readers = [];
          for (const density of densities) {
            const weight = 0.2 + random() * 5;
            const parts: TermPart[] = [];
            for (let s = 0; s + 1 < bounds.length; s++) {
              const base = bounds[s] as number;
              const docs = (bounds[s + 1] as number) - base;
              const postings: Posting[] = [];
              for (let doc = 0; doc < docs; doc++) {
                if (random() >= density) continue;
                const context = random() < 0.1 ? 1 + Math.floor(random() * 2) : 0;
                const body = random() < 0.85 ? 1 + Math.floor(random() * random() * 4) : context > 0 ? 0 : 1;
                postings.push({ doc, body, context });
                const slot = base + doc;
                const tf = body * (bodyInverse[slot] as number) + context * (contextFactor[slot] as number);
                if (alive[slot] === 1 && (!accept || accept(slot)))
                  exact.set(slot, (exact.get(slot) ?? 0) + (weight * tf) / (tf + k1));
              }
              if (postings.length === 0) continue;
              const reader = segment(postings, docs, layout);
              readers.push(reader);
              parts.push({ reader, base, term: reader.findTerm(Buffer.from('term')) });
            }
            if (parts.length > 0)
              lists.push(
                new TermList(
                  parts,
                  weight,
                  k1,
                  () => 1.5,
                  () => 3,
                ),
              );
          }
          const got = maxScoreSearch(lists, limit, { k1, bodyInverse, contextFactor, alive }, accept, window);
          expectSameTop(got, exhaustiveTop(exact, limit));
          for (const reader of readers) reader.close();
        },
      ),
      { numRuns: 80 },
    );
  });

  it('scores postings read in place from the segment bytes: multi-byte slot gaps, large tfs, context tfs', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            docs: fc.integer({ min: 1, max: 80_000 }),
            postings: fc.uniqueArray(
              fc.record({
                at: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
                body: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 60, max: 0xffff })),
                context: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 400 })),
              }),
              { selector: (p) => p.at, maxLength: 300 },
            ),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        fc.integer({ min: 1, max: 3 }),
        fc.constantFrom(1, 5, 1_000),
        layouts,
        windows,
        (drawn, terms, limit, layout, window) => {
          const slots = drawn.reduce((sum, part) => sum + part.docs, 0);
          const k1 = 1.2;
          const bodyInverse = Float32Array.from({ length: slots }, (_, i) => 0.3 + ((i * 7) % 13) / 10);
          const contextFactor = Float32Array.from({ length: slots }, (_, i) => ((i * 5) % 11) / 4);
          const alive = new Uint8Array(slots).fill(1);
          const exact = new Map<number, number>();
          const lists: TermList[] = [];
          const readers = [];
          for (let t = 0; t < terms; t++) {
            const weight = 1 + t;
            const parts: TermPart[] = [];
            let base = 0;
            for (const { docs, postings: raw } of drawn) {
              // Docs spread over the segment (gaps of one to three varint bytes), distinct, ascending; the terms
              // share some docs (shifted by t) so that scores add up across lists.
              const postings = [...new Map(raw.map((p) => [(Math.floor(p.at * docs) + t * 3) % docs, p])).entries()]
                .map(([doc, p]) => ({ doc, body: p.body || (p.context === 0 ? 1 : 0), context: p.context }))
                .sort((a, b) => a.doc - b.doc);
              for (const p of postings) {
                const slot = base + p.doc;
                const tf = p.body * (bodyInverse[slot] as number) + p.context * (contextFactor[slot] as number);
                exact.set(slot, (exact.get(slot) ?? 0) + (weight * tf) / (tf + k1));
              }
              if (postings.length > 0) {
                const reader = segment(postings, docs, layout);
                readers.push(reader);
                parts.push({ reader, base, term: reader.findTerm(Buffer.from('term')) });
              }
              base += docs;
            }
            // Bounds from the largest tf and norm: 0xffff x 1.5 (body) and 400 x 2.5 (context).
            if (parts.length > 0)
              lists.push(
                new TermList(
                  parts,
                  weight,
                  k1,
                  () => 1.5,
                  () => 2.5,
                ),
              );
          }
          const got = maxScoreSearch(lists, limit, { k1, bodyInverse, contextFactor, alive }, undefined, window);
          expectSameTop(got, exhaustiveTop(exact, limit));
          for (const reader of readers) reader.close();
        },
      ),
      { numRuns: 60 },
    );
  });
});
