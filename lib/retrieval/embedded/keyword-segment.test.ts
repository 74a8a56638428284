import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { compareBytes, PostingCursor, SegmentReader, transcodeSegment } from '@/lib/retrieval/embedded/keyword-segment';
import { oneTermSegments } from '@/test/support/retrieval/one-term-segment';

const segments = oneTermSegments('keyword-segment-');
afterAll(() => segments.dispose());

type Posting = { doc: number; body: number; context: number };

/** Every posting of the segment's term 'term', read with a PostingCursor. */
function readAll(reader: SegmentReader): Posting[] {
  const term = reader.findTerm(Buffer.from('term'));
  const read: Posting[] = [];
  const cursor = new PostingCursor(reader, term);
  if (cursor.start()) {
    while (cursor.doc !== 0x7fffffff) {
      read.push({ doc: cursor.doc, body: cursor.tfBody, context: cursor.tfContext });
      cursor.next();
    }
  }
  return read;
}

/** Writes one segment (postings layout `version`) holding a single term with the given postings and reads it back. */
function roundTrip(postings: Posting[], docs: number, version: 2 | 3 = 3) {
  const reader = segments.write(postings, docs, version);
  expect(reader.version).toBe(version);
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
        fc.constantFrom<2 | 3>(2, 3),
        (docs, tfs, version) => {
          const postings = [...docs]
            .sort((a, b) => a - b)
            .map((doc, i) => {
              const tf = tfs[i] ?? { body: 1, context: 0 };
              const body = Math.min(tf.body, 0xffff);
              return { doc, body: body === 0 && tf.context === 0 ? 1 : body, context: tf.context };
            });
          expect(roundTrip(postings, 70_000, version)).toEqual(postings);
        },
      ),
      { numRuns: 12 },
    );
  }, 60_000);

  it('round-trips a long list of many blocks', () => {
    const postings = Array.from({ length: 1_000 }, (_, i) => ({ doc: i * 3, body: 1 + (i % 7), context: i % 2 }));
    expect(roundTrip(postings, 3_000, 2)).toEqual(postings);
    expect(roundTrip(postings, 3_000, 3)).toEqual(postings);
  });

  it('fits each block of the fixed-width layout to its postings: 1-, 2- and 4-byte doc offsets, 1- and 2-byte tfs', () => {
    // Dense (span < 256), sparse (span < 65,536) and very sparse blocks, small and large tfs, with and without
    // context tfs: the file is no larger than the widths need, and every posting reads back.
    const dense = Array.from({ length: 256 }, (_, i) => ({ doc: i, body: 1 + (i % 3), context: 0 }));
    const sparse = Array.from({ length: 256 }, (_, i) => ({
      doc: 1_000 + i * 300,
      body: 300 + i,
      context: i % 50 === 0 ? 2 : 0,
    }));
    const spread = Array.from({ length: 3 }, (_, i) => ({
      doc: 100_000 + i * 70_000,
      body: 1,
      context: i === 1 ? 999 : 0,
    }));
    const all = [...dense, ...sparse, ...spread];
    expect(roundTrip(all, 100_000 + 3 * 70_000)).toEqual(all);
    const small = segments.write(dense, 256, 3);
    // Two blocks: 128 one-byte offsets and 128 one-byte tfs each, no context part.
    expect(small.postings.length).toBe(2 * (128 + 128));
    small.close();
  });

  it('transcodes a segment between layouts without changing a posting', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 0, max: 199_999 }), { minLength: 1, maxLength: 700 }),
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.constantFrom<2 | 3>(2, 3),
        async (docs, seed, from) => {
          let state = seed;
          const next = () => {
            state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
            return state;
          };
          const postings = [...docs]
            .sort((a, b) => a - b)
            .map((doc) => {
              const context = next() % 10 === 0 ? 1 + (next() % 1_000) : 0;
              const body = next() % 20 === 0 ? next() % 0x10000 : 1 + (next() % 3);
              return { doc, body: body === 0 && context === 0 ? 1 : body, context };
            });
          const source = segments.write(postings, 200_000, from);
          const to = from === 2 ? 3 : 2;
          const transcoded = SegmentReader.shared('t', await transcodeSegment(source.bytes, to, () => undefined));
          expect(transcoded.version).toBe(to);
          expect(readAll(transcoded)).toEqual(postings);
          // The columns and dictionary are the same bytes.
          for (const section of ['bodyLength', 'chunkIds', 'attributeSets', 'recordOffsets'])
            expect(transcoded.section(section).equals(source.section(section))).toBe(true);
          expect([...transcoded.blockLastDoc]).toEqual([...source.blockLastDoc]);
          expect([...transcoded.blockMaxTfBody]).toEqual([...source.blockMaxTfBody]);
          source.close();
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe('compareBytes (the term dictionary order of findTerm)', () => {
  it('orders a term against a slice of the blob as Buffer.compare does (unsigned bytes, a prefix first)', () => {
    // Small alphabets (with bytes above 0x7f) make equal bytes, common prefixes and proper prefixes frequent.
    const bytes = fc
      .uint8Array({ maxLength: 8 })
      .map((array) => array.map((b) => [0, 1, 0x61, 0x7f, 0x80, 0xff][b % 6] as number));
    fc.assert(
      fc.property(bytes, bytes, bytes, bytes, (term, before, slice, after) => {
        const blob = Buffer.concat([before, slice, after]);
        const got = compareBytes(term, blob, before.length, before.length + slice.length);
        const want = Buffer.from(term).compare(blob, before.length, before.length + slice.length);
        expect(Math.sign(got)).toBe(want);
      }),
      { numRuns: 2000 },
    );
  });

  it('returns 0 only for the same bytes, and ranks a proper prefix first', () => {
    const blob = Buffer.from('termsterm');
    expect(compareBytes(Buffer.from('term'), blob, 0, 4)).toBe(0);
    expect(compareBytes(Buffer.from('term'), blob, 0, 5)).toBeLessThan(0);
    expect(compareBytes(Buffer.from('terms'), blob, 0, 4)).toBeGreaterThan(0);
    expect(compareBytes(Buffer.from(''), blob, 0, 0)).toBe(0);
    expect(compareBytes(Buffer.from([0xc3, 0xa9]), Buffer.from([0x7a]), 0, 1)).toBeGreaterThan(0);
  });
});

describe('findTerm', () => {
  it("finds the segment's term and no other", () => {
    const reader = segments.write([{ doc: 0, body: 1, context: 0 }], 1);
    expect(reader.findTerm(Buffer.from('term'))).toBe(0);
    for (const other of ['', 'ter', 'terms', 'tern', 'Term', 'térm', 'a', 'zz']) {
      expect(reader.findTerm(Buffer.from(other))).toBe(-1);
    }
  });
});
