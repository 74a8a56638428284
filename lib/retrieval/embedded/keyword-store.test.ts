import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { Bm25Index, DEFAULT_BM25_PARAMS } from '@/lib/retrieval/embedded/bm25-index';
import { type SegmentDoc, SegmentReader } from '@/lib/retrieval/embedded/keyword-segment';
import { KeywordStore, StaleIndexError, segmentDoc, type TermLookup } from '@/lib/retrieval/embedded/keyword-store';
import type { StoredChunk } from '@/lib/retrieval/embedded/lance-rows';
import type { ScoredSlot } from '@/lib/retrieval/embedded/top-k';
import { rewriteSegmentsAs, segmentFileVersion } from '@/test/support/retrieval/segment-versions';
import { storedChunk } from '@/test/support/retrieval/stored-chunk';

const root = mkdtempSync(path.join(tmpdir(), 'keyword-store-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const freshDir = () => path.join(root, `store-${folders++}`);

function record(chunkId: string, text: string, contextPrefix = '', bucketId: string | null = null): StoredChunk {
  return storedChunk({ chunkId, documentId: `doc-${chunkId.split('-')[0]}`, text, contextPrefix, bucketId });
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

describe('KeywordStore.languages', () => {
  const inLanguage = (chunkId: string, language: string, text: string) =>
    segmentDoc({ ...record(chunkId, text), language });

  it('names the languages of the live chunks of the current state, after every add and delete', async () => {
    const store = await KeywordStore.create(freshDir());
    expect(store.languages()).toEqual([]);
    await store.apply([inLanguage('1-a', 'en', 'the cat sat on the mat')], []);
    expect(store.languages()).toEqual(['en']);
    // Asked twice on one state: the same answer (memoised per committed state).
    expect(store.languages()).toEqual(['en']);
    await store.apply([inLanguage('2-a', 'fr', 'le chat est sur le tapis')], []);
    expect(store.languages()).toEqual(['en', 'fr']);
    await store.apply([], ['1-a']);
    expect(store.languages()).toEqual(['fr']);
    // An overwrite that changes a chunk's language.
    await store.apply([inLanguage('2-a', 'de', 'die Katze sitzt auf der Matte')], []);
    expect(store.languages()).toEqual(['de']);
    while (await store.maybeMerge()) {
      // merge down
    }
    expect(store.languages()).toEqual(['de']);
    store.close();
  });
});

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

  it('prunes without changing the top k: MaxScore with per-window block bounds equals exhaustive scoring', async () => {
    // Corpora large enough for many 128-posting blocks and many MaxScore windows, several segments and deletes,
    // Zipf-distributed words (a few very common terms, a long tail) and queries of 1-12 terms.
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 2 ** 31 - 1 }),
        fc.integer({ min: 1_200, max: 3_500 }),
        fc.array(fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 12 }), {
          minLength: 1,
          maxLength: 4,
        }),
        async (seed, size, queryRanks) => {
          let state = seed;
          const random = () => {
            state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
            return state / 2_147_483_648;
          };
          const zipfWord = () => `w${Math.floor(400 ** random()) - 1}`;
          const sentence = (n: number) => Array.from({ length: n }, zipfWord).join(' ');
          const dir = freshDir();
          const store = await KeywordStore.create(dir);
          const reference = new Bm25Index(DEFAULT_BM25_PARAMS);
          const slotOfReference = new Map<number, string>();
          const live = new Map<string, { slot: number; body: string[]; context: string[] }>();
          for (let from = 0; from < size; from += 1_500) {
            const docs: SegmentDoc[] = [];
            for (let i = from; i < Math.min(size, from + 1_500); i++) {
              const id = `${i}-c`;
              const text = sentence(3 + Math.floor(random() * 40));
              const context = random() < 0.3 ? sentence(1 + Math.floor(random() * 5)) : '';
              docs.push(segmentDoc(record(id, text, context, `b${i % 3}`)));
              const body = words(text);
              const ctx = words(context);
              const slot = reference.add(body, ctx);
              slotOfReference.set(slot, id);
              live.set(id, { slot, body, context: ctx });
            }
            await store.apply(docs, []);
          }
          const removed = Array.from({ length: 40 }, () => `${Math.floor(random() * size)}-c`);
          await store.apply([], removed);
          for (const id of removed) {
            const entry = live.get(id);
            if (entry) reference.remove(entry.slot, entry.body, entry.context);
            live.delete(id);
          }
          for (const ranks of queryRanks) {
            const terms = new Map<string, number>();
            for (const rank of ranks) terms.set(`w${rank}`, (terms.get(`w${rank}`) ?? 0) + 1);
            for (const limit of [1, 10, 100]) {
              for (const bucket of [null, 'b1']) {
                const accept =
                  bucket === null ? undefined : (slot: number) => store.attributes(slot).bucketId === bucket;
                const got = store.search(terms, limit, DEFAULT_BM25_PARAMS, accept);
                const want = reference
                  .searchWeighted(terms, 1_000_000)
                  .filter(
                    (hit) => bucket === null || Number((slotOfReference.get(hit.slot) ?? '').split('-')[0]) % 3 === 1,
                  )
                  .slice(0, limit);
                expect(got.map((hit) => hit.score)).toEqual(want.map((hit) => expect.closeTo(hit.score, 4)));
                const wantScore = new Map(want.map((hit) => [slotOfReference.get(hit.slot), hit.score]));
                for (const hit of got) {
                  const expected = wantScore.get(store.chunkIdOf(hit.slot));
                  if (expected !== undefined) expect(hit.score).toBeCloseTo(expected, 4);
                }
              }
            }
          }
          store.close();
        },
      ),
      { numRuns: 8 },
    );
  }, 180_000);

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

describe('KeywordStore.termLookup (each term looked up once per search)', () => {
  const hitsOf = (store: KeywordStore, query: Map<string, number>, limit: number, lookup?: TermLookup) =>
    store.searchWith(query, limit, DEFAULT_BM25_PARAMS, undefined, (hits) => hits, lookup);

  it('answers exactly as a search without it, whatever the lookup was asked before, through writes and merges', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 10 }),
        fc.array(fc.tuple(text, fc.array(word, { maxLength: 6 })), { minLength: 1, maxLength: 4 }),
        async (ops, queries) => {
          const store = await KeywordStore.create(freshDir());
          for (const step of ops) {
            if (step.kind === 'add') {
              const latest = new Map(step.docs.map((doc) => [`${doc.id}-c`, doc]));
              await store.apply(
                [...latest].map(([id, doc]) => segmentDoc(record(id, doc.text, doc.context))),
                [],
              );
            } else
              await store.apply(
                [],
                step.ids.map((id) => `${id}-c`),
              );
            while (await store.maybeMerge()) {
              // merge until stable
            }
            for (const [query, askedFirst] of queries) {
              const terms = new Map<string, number>();
              for (const term of words(query)) terms.set(term, (terms.get(term) ?? 0) + 1);
              const lookup = store.termLookup();
              // The lookup answers document frequencies as the store does (terms of the query and others).
              for (const term of [...askedFirst, ...terms.keys()])
                expect(lookup.documentFrequency(term)).toBe(store.documentFrequency(term));
              for (const limit of [1, 10])
                expect(await hitsOf(store, terms, limit, lookup)).toEqual(await hitsOf(store, terms, limit));
            }
          }
          store.close();
        },
      ),
      { numRuns: 30 },
    );
  }, 90_000);

  it('looks each term up once in every segment per search (asked which occur, then scored)', async () => {
    const store = await KeywordStore.create(freshDir());
    for (const batch of [0, 1, 2]) {
      await store.apply(
        [0, 1, 2].map((i) => segmentDoc(record(`${batch * 3 + i}-a`, `alpha w${batch} w${i} beta${batch}`))),
        [],
      );
    }
    const findTerm = vi.spyOn(SegmentReader.prototype, 'findTerm');
    try {
      store.termLookup().documentFrequency('alpha');
      const segments = findTerm.mock.calls.length;
      expect(segments).toBeGreaterThanOrEqual(2);
      findTerm.mockClear();
      const query = new Map([
        ['alpha', 1],
        ['w1', 2],
        ['beta2', 1],
        ['missing', 1],
      ]);
      const lookup = store.termLookup();
      expect([...query.keys()].some((term) => lookup.documentFrequency(term) > 0)).toBe(true);
      const hits = await hitsOf(store, query, 10, lookup);
      expect(findTerm.mock.calls.length).toBe(query.size * segments);
      expect(hits).toEqual(await hitsOf(store, query, 10));
    } finally {
      findTerm.mockRestore();
    }
    store.close();
  });

  it('is not used by a search on a state committed after it was taken: the terms are looked up again', async () => {
    const store = await KeywordStore.create(freshDir());
    await store.apply([segmentDoc(record('1-a', 'alpha beta')), segmentDoc(record('2-a', 'beta gamma'))], []);
    const lookup = store.termLookup();
    expect(lookup.documentFrequency('alpha')).toBe(1);
    // A new segment with the term: a stale lookup would miss its postings and keep the old document frequency.
    await store.apply([segmentDoc(record('3-a', 'alpha alpha alpha'))], []);
    const query = new Map([['alpha', 1]]);
    const ids = (hits: ScoredSlot[]) => hits.map((hit) => store.chunkIdOf(hit.slot));
    const hits = await hitsOf(store, query, 10, lookup);
    expect(ids(hits)).toEqual(['3-a', '1-a']);
    expect(hits).toEqual(await hitsOf(store, query, 10));
    // The same after the chunk's segment is merged away and the first chunk deleted.
    const before = store.termLookup();
    expect(before.documentFrequency('alpha')).toBe(2);
    await store.apply([], ['1-a']);
    while (await store.maybeMerge()) {
      // merge until stable
    }
    expect(ids(await hitsOf(store, query, 10, before))).toEqual(['3-a']);
    store.close();
  });
});

describe('generations (analyser upgrade)', () => {
  const docs = (from: number, count: number) =>
    Array.from({ length: count }, (_, i) => segmentDoc(record(`${from + i}-c`, `w${(from + i) % 7} w${i % 3} shared`)));
  const query = new Map([
    ['w1', 1],
    ['shared', 1],
  ]);

  it('appendSegment ranks exactly as apply, without building the id maps', async () => {
    const appended = await KeywordStore.create(freshDir());
    const applied = await KeywordStore.create(freshDir());
    for (const from of [0, 20, 40]) {
      await appended.appendSegment(docs(from, 20));
      await applied.apply(docs(from, 20), []);
    }
    expect(appended.memoryBytes).toBeLessThan(applied.memoryBytes);
    expect(appended.search(query, 10, DEFAULT_BM25_PARAMS)).toEqual(applied.search(query, 10, DEFAULT_BM25_PARAMS));
    appended.close();
    applied.close();
  });

  it('adopts a generation built in another folder in one commit, keeping the old one until then', async () => {
    const liveDir = freshDir();
    const old = await KeywordStore.create(liveDir);
    await old.apply(docs(0, 10), []);
    const next = await KeywordStore.create(freshDir());
    await next.appendSegment(docs(0, 10));
    await next.apply([], ['3-c']);
    await next.appendSegment(docs(100, 5));
    const expected = next.search(query, 20, DEFAULT_BM25_PARAMS).map((hit) => next.chunkIdOf(hit.slot));
    await old.adoptGeneration(next);
    expect(old.size).toBe(14);
    expect(old.search(query, 20, DEFAULT_BM25_PARAMS).map((hit) => old.chunkIdOf(hit.slot))).toEqual(expected);
    expect(old.has('3-c')).toBe(false);
    // Committed: a fresh open reads the adopted generation (tombstones included).
    const reopened = await KeywordStore.open(liveDir);
    expect(reopened.size).toBe(14);
    expect(reopened.has('104-c')).toBe(true);
    reopened.close();
    old.close();
  });

  it('serves an index of another analyser version only when asked to, and keeps its version on writes', async () => {
    const dir = freshDir();
    const store = await KeywordStore.create(dir);
    await store.apply(docs(0, 3), []);
    store.close();
    const manifest = path.join(dir, 'MANIFEST');
    const raw = JSON.parse(readFileSync(manifest, 'utf8'));
    writeFileSync(manifest, JSON.stringify({ ...raw, analyzer: raw.analyzer - 1 }));
    await expect(KeywordStore.open(dir)).rejects.toBeInstanceOf(StaleIndexError);
    const stale = await KeywordStore.openAnyAnalyzer(dir);
    expect(stale.analyzerVersion).toBe(raw.analyzer - 1);
    await stale.apply(docs(10, 2), []);
    expect(JSON.parse(readFileSync(manifest, 'utf8')).analyzer).toBe(raw.analyzer - 1);
    expect(stale.size).toBe(5);
    stale.close();
  });
});

describe('segments of the previous postings layout (version 2)', () => {
  /** Every query's top 50 (slots and scores) on a store. */
  const answers = (store: KeywordStore, queries: string[]) =>
    queries.map((query) => {
      const terms = new Map<string, number>();
      for (const term of words(query)) terms.set(term, (terms.get(term) ?? 0) + 1);
      return store.search(terms, 50, DEFAULT_BM25_PARAMS);
    });
  const versions = (dir: string) =>
    readdirSync(dir)
      .filter((name) => name.endsWith('.idx'))
      .map((name) => segmentFileVersion(path.join(dir, name)));

  it('serves an old index exactly, upgrades it segment by segment (crash before a commit loses nothing), then merges', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 10 }),
        fc.array(text, { minLength: 1, maxLength: 4 }),
        async (ops, queries) => {
          const dir = freshDir();
          const control = await KeywordStore.create(freshDir());
          const store = await KeywordStore.create(dir);
          for (const step of ops) {
            for (const target of [store, control]) {
              if (step.kind === 'add') {
                const latest = new Map(step.docs.map((doc) => [`${doc.id}-c`, doc]));
                await target.apply(
                  [...latest].map(([id, doc]) => segmentDoc(record(id, doc.text, doc.context))),
                  [],
                );
              } else {
                await target.apply(
                  [],
                  step.ids.map((id) => `${id}-c`),
                );
              }
            }
          }
          const want = answers(control, queries);
          store.close();
          await rewriteSegmentsAs(dir, 2);
          let old = await KeywordStore.open(dir);
          // Read as it is: the same slots and bit-identical scores as the current layout.
          expect(answers(old, queries)).toEqual(want);
          expect(old.hasOldSegments).toBe(versions(dir).length > 0);
          // A crash after writing an upgraded segment's files but before the manifest names them: the committed
          // old segments serve, and the leftovers are removed by the next commit.
          const crashed = freshDir();
          cpSync(dir, crashed, { recursive: true });
          if (await old.upgradeSegment()) {
            const before = new Set(readdirSync(crashed));
            for (const name of readdirSync(dir))
              if (!before.has(name) && name !== 'MANIFEST') cpSync(path.join(dir, name), path.join(crashed, name));
            const reopened = await KeywordStore.open(crashed);
            expect(answers(reopened, queries)).toEqual(want);
            while (await reopened.upgradeSegment()) {
              // one segment per call
            }
            expect(answers(reopened, queries)).toEqual(want);
            expect(versions(crashed).every((version) => version === 3)).toBe(true);
            reopened.close();
          }
          while (await old.upgradeSegment()) {
            // one segment per call
          }
          expect(old.hasOldSegments).toBe(false);
          expect(answers(old, queries)).toEqual(want);
          old.close();
          old = await KeywordStore.open(dir);
          expect(versions(dir).every((version) => version === 3)).toBe(true);
          expect(answers(old, queries)).toEqual(want);
          // Writes and merges go on as on an index that was never old.
          for (const target of [old, control]) {
            await target.apply([segmentDoc(record('99-c', queries[0] ?? 'w1'))], ['1-c', '2-c']);
            while (await target.maybeMerge()) {
              // merge until stable
            }
          }
          expect(answers(old, queries)).toEqual(answers(control, queries));
          old.close();
          control.close();
        },
      ),
      { numRuns: 25 },
    );
  }, 90_000);
});

describe('upgradeSegment on a store closed meanwhile', () => {
  it('commits nothing: the old segments stay the committed index', async () => {
    const dir = freshDir();
    const store = await KeywordStore.create(dir);
    await store.apply([segmentDoc(record('1-c', 'w1 w2')), segmentDoc(record('2-c', 'w2 w3'))], []);
    await store.apply([segmentDoc(record('3-c', 'w1 w3'))], []);
    store.close();
    await rewriteSegmentsAs(dir, 2);
    const manifest = readFileSync(path.join(dir, 'MANIFEST'), 'utf8');
    const old = await KeywordStore.open(dir);
    const upgrading = old.upgradeSegment();
    old.close();
    expect(await upgrading).toBe(false);
    expect(readFileSync(path.join(dir, 'MANIFEST'), 'utf8')).toBe(manifest);
    const reopened = await KeywordStore.open(dir);
    expect(reopened.size).toBe(3);
    expect(reopened.hasOldSegments).toBe(true);
    reopened.close();
  });
});
