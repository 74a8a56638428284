import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { Bm25Index, DEFAULT_BM25_PARAMS } from '@/lib/retrieval/embedded/bm25-index';
import { KeywordStore, StaleIndexError, segmentDoc } from '@/lib/retrieval/embedded/keyword-store';
import type { StoredChunk } from '@/lib/retrieval/embedded/lance-rows';

const root = mkdtempSync(path.join(tmpdir(), 'keyword-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const freshDir = () => path.join(root, `store-${folders++}`);

function record(chunkId: string, text: string, contextPrefix = '', bucketId: string | null = null): StoredChunk {
  return {
    chunkId,
    documentId: `doc-${chunkId.split('-')[0]}`,
    ownerId: 'owner',
    index: 0,
    text,
    contextPrefix,
    tokenCount: 1,
    page: null,
    sheet: null,
    rowStart: null,
    rowEnd: null,
    headingPath: null,
    charStart: 0,
    charEnd: text.length,
    bucketId,
    mime: 'text/plain',
    filename: 'f.txt',
    title: null,
    documentDate: null,
    tags: [],
    fields: {},
    embeddingModel: null,
  };
}

/** Words that the analyser keeps verbatim (they contain a digit), so texts are their own terms. */
const word = fc.integer({ min: 0, max: 30 }).map((n) => `w${n}`);
const text = fc.array(word, { minLength: 1, maxLength: 12 }).map((words) => words.join(' '));

type Op = { kind: 'add'; docs: { id: number; text: string; context: string }[] } | { kind: 'remove'; ids: number[] };
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .array(fc.record({ id: fc.integer({ min: 0, max: 40 }), text, context: fc.oneof(fc.constant(''), text) }), {
        minLength: 1,
        maxLength: 8,
      })
      .map((docs) => ({ kind: 'add' as const, docs })),
  },
  {
    weight: 1,
    arbitrary: fc
      .array(fc.integer({ min: 0, max: 40 }), { minLength: 1, maxLength: 5 })
      .map((ids) => ({ kind: 'remove' as const, ids })),
  },
);

const words = (value: string) => value.split(' ').filter(Boolean);

describe('KeywordStore', () => {
  it('scores exactly like the in-memory BM25F reference through adds, overwrites, deletes, merges and reopen', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 14 }),
        fc.array(text, { minLength: 1, maxLength: 4 }),
        async (ops, queries) => {
          const dir = freshDir();
          let store = await KeywordStore.create(dir);
          const reference = new Bm25Index(DEFAULT_BM25_PARAMS);
          const referenceSlot = new Map<string, number>();
          const referenceTerms = new Map<number, { id: string; body: string[]; context: string[] }>();
          const removeReference = (id: string) => {
            const slot = referenceSlot.get(id);
            if (slot === undefined) return;
            const entry = referenceTerms.get(slot);
            if (entry) reference.remove(slot, entry.body, entry.context);
            referenceSlot.delete(id);
          };
          for (const step of ops) {
            if (step.kind === 'add') {
              const latest = new Map(step.docs.map((doc) => [`${doc.id}-c`, doc]));
              await store.apply(
                [...latest].map(([id, doc]) => segmentDoc(record(id, doc.text, doc.context))),
                [],
              );
              for (const id of latest.keys()) removeReference(id);
              for (const [id, doc] of latest) {
                const body = words(doc.text);
                const context = words(doc.context);
                const slot = reference.add(body, context);
                referenceSlot.set(id, slot);
                referenceTerms.set(slot, { id, body, context });
              }
            } else {
              const ids = step.ids.map((id) => `${id}-c`);
              await store.apply([], ids);
              for (const id of ids) removeReference(id);
            }
            while (await store.maybeMerge()) {
              // merge until stable
            }
          }
          store.close();
          store = await KeywordStore.open(dir);
          expect(store.size).toBe(referenceSlot.size);
          for (const query of queries) {
            const terms = new Map<string, number>();
            for (const term of words(query)) terms.set(term, (terms.get(term) ?? 0) + 1);
            for (const limit of [1, 3, 50]) {
              const got = store.search(terms, limit, DEFAULT_BM25_PARAMS);
              const want = reference.searchWeighted(terms, limit);
              expect(got.map((hit) => hit.score)).toEqual(want.map((hit) => expect.closeTo(hit.score, 4)));
              // Same chunks, except where scores tie within float error (order among equals may differ).
              const wantScore = new Map(want.map((hit) => [referenceTerms.get(hit.slot)?.id, hit.score]));
              for (const hit of got) {
                const id = store.chunkIdOf(hit.slot);
                const expected = wantScore.get(id);
                if (expected !== undefined) expect(hit.score).toBeCloseTo(expected, 4);
              }
            }
          }
          store.close();
        },
      ),
      { numRuns: 40 },
    );
  }, 90_000);

  it('reads records from disk and applies the accept filter', async () => {
    const store = await KeywordStore.create(freshDir());
    await store.apply(
      [segmentDoc(record('1-a', 'alpha beta', 'title', 'b1')), segmentDoc(record('2-a', 'alpha alpha', '', 'b2'))],
      [],
    );
    const all = store.search(new Map([['alpha', 1]]), 10, DEFAULT_BM25_PARAMS);
    expect(all.map((hit) => store.chunkIdOf(hit.slot))).toEqual(['2-a', '1-a']);
    const filtered = store.search(
      new Map([['alpha', 1]]),
      10,
      DEFAULT_BM25_PARAMS,
      (slot) => store.attributes(slot).bucketId === 'b1',
    );
    expect(filtered.map((hit) => store.record(hit.slot).text)).toEqual(['alpha beta']);
    store.close();
  });

  it('refuses a segment whose bytes changed (checksum) and a missing manifest', async () => {
    const dir = freshDir();
    const store = await KeywordStore.create(dir);
    await store.apply([segmentDoc(record('1-a', 'alpha'))], []);
    store.close();
    const idx = readdirSync(dir).find((name) => name.endsWith('.idx')) as string;
    writeFileSync(path.join(dir, idx), 'garbage');
    await expect(KeywordStore.open(dir)).rejects.toThrow(/magic|checksum/);
    await expect(KeywordStore.open(freshDir())).rejects.toBeInstanceOf(StaleIndexError);
  });
});
