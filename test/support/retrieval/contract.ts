import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MetaFilter } from '@/lib/domain/typed-meta';
import type { ChunkIndex, IndexedChunk, SearchFilters, SearchMode, SearchRequest } from '@/lib/retrieval/types';

/** Dimension of the small hand-made vectors used by the contract. */
const DIMS = 8;

/** A unit vector pointing mostly along axis `axis`, tilted towards `towards` by `tilt`. */
function axisVector(axis: number, towards = (axis + 1) % DIMS, tilt = 0): number[] {
  const vector = Array.from({ length: DIMS }, () => 0);
  vector[axis] = 1;
  vector[towards] = (vector[towards] ?? 0) + tilt;
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

let sequence = 0;

/** A complete chunk with sensible defaults; every field can be overridden. */
export function makeContractChunk(overrides: Partial<IndexedChunk> & Pick<IndexedChunk, 'ownerId'>): IndexedChunk {
  sequence++;
  return {
    chunkId: randomUUID(),
    documentId: `doc-${sequence}`,
    index: 0,
    text: `filler text number ${sequence}`,
    contextPrefix: '',
    tokenCount: 10,
    vector: null,
    embeddingModel: null,
    page: null,
    sheet: null,
    rowStart: null,
    rowEnd: null,
    headingPath: null,
    charStart: 0,
    charEnd: 20,
    bucketId: null,
    mime: 'text/plain',
    filename: 'file.txt',
    title: null,
    documentDate: null,
    tags: [],
    fields: {},
    ...overrides,
  };
}

function ids(hits: { chunkId: string }[]): string[] {
  return hits.map((hit) => hit.chunkId);
}

function sorted(values: string[]): string[] {
  return [...values].sort();
}

/**
 * The behaviour every ChunkIndex must show, as a vitest suite. Call it from an `*.int.test.ts` file:
 * `describeChunkIndexContract('embedded', async () => ({ index, cleanup }))`. With `semantic: false` the
 * tests that need stored vectors are skipped (keyword-only engines).
 */
export function describeChunkIndexContract(
  name: string,
  makeIndex: () => Promise<{ index: ChunkIndex; cleanup: () => Promise<void> }>,
  options: { semantic?: boolean } = {},
): void {
  const semantic = options.semantic ?? true;
  const itSemantic = semantic ? it : it.skip;

  describe(`ChunkIndex contract: ${name}`, () => {
    let index: ChunkIndex;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      ({ index, cleanup } = await makeIndex());
    });

    afterAll(async () => {
      await cleanup();
    });

    const newOwner = () => `owner-${randomUUID()}`;
    const search = (request: Omit<SearchRequest, 'topK'> & { topK?: number }) => index.search({ topK: 10, ...request });

    describe('writes', () => {
      it('counts chunks per owner and starts at zero', async () => {
        const owner = newOwner();
        const other = newOwner();
        expect(await index.countChunks(owner)).toBe(0);
        await index.upsert([makeContractChunk({ ownerId: owner }), makeContractChunk({ ownerId: owner })]);
        await index.upsert([makeContractChunk({ ownerId: other })]);
        expect(await index.countChunks(owner)).toBe(2);
        expect(await index.countChunks(other)).toBe(1);
      });

      it('upsert is idempotent by chunkId: the same id overwrites', async () => {
        const owner = newOwner();
        const chunk = makeContractChunk({ ownerId: owner, text: 'the original zebra sentence' });
        await index.upsert([chunk]);
        await index.upsert([chunk]);
        expect(await index.countChunks(owner)).toBe(1);
        await index.upsert([{ ...chunk, text: 'a replacement giraffe sentence', filename: 'new.txt' }]);
        expect(await index.countChunks(owner)).toBe(1);
        expect(await search({ ownerId: owner, query: 'zebra', mode: 'keyword' })).toEqual([]);
        const hits = await search({ ownerId: owner, query: 'giraffe', mode: 'keyword' });
        expect(ids(hits)).toEqual([chunk.chunkId]);
        expect(hits[0]?.filename).toBe('new.txt');
        const [stored] = await index.get(owner, [chunk.chunkId]);
        expect(stored?.text).toBe('a replacement giraffe sentence');
      });

      it('a batch repeating a chunkId keeps the last version', async () => {
        const owner = newOwner();
        const chunk = makeContractChunk({ ownerId: owner, text: 'first walrus' });
        await index.upsert([chunk, { ...chunk, text: 'second narwhal' }]);
        expect(await index.countChunks(owner)).toBe(1);
        expect(ids(await search({ ownerId: owner, query: 'narwhal', mode: 'keyword' }))).toEqual([chunk.chunkId]);
        expect(await search({ ownerId: owner, query: 'walrus', mode: 'keyword' })).toEqual([]);
      });

      it('deleteDocument removes every chunk of that document and nothing else', async () => {
        const owner = newOwner();
        const doomed = [0, 1, 2].map((i) =>
          makeContractChunk({
            ownerId: owner,
            documentId: 'doomed',
            index: i,
            text: `pelican report part ${i}`,
            vector: semantic ? axisVector(0, 1, i / 10) : null,
            embeddingModel: semantic ? 'test-model' : null,
          }),
        );
        const kept = makeContractChunk({
          ownerId: owner,
          documentId: 'kept',
          text: 'pelican survey kept',
          vector: semantic ? axisVector(0, 2, 0.5) : null,
          embeddingModel: semantic ? 'test-model' : null,
        });
        await index.upsert([...doomed, kept]);
        await index.deleteDocument(owner, 'doomed');
        expect(await index.countChunks(owner)).toBe(1);
        expect(
          await index.get(
            owner,
            doomed.map((chunk) => chunk.chunkId),
          ),
        ).toEqual([]);
        const modes: SearchMode[] = semantic ? ['keyword', 'semantic', 'hybrid'] : ['keyword'];
        for (const mode of modes) {
          const hits = await search({ ownerId: owner, query: 'pelican report', mode, queryVector: axisVector(0) });
          expect(ids(hits), mode).toEqual([kept.chunkId]);
        }
        await index.deleteDocument(owner, 'never-existed');
        await index.deleteDocument(newOwner(), 'kept');
        expect(await index.countChunks(owner)).toBe(1);
      });

      it('deleteDocument of another owner with the same document id leaves this owner alone', async () => {
        const owner = newOwner();
        const intruder = newOwner();
        const chunk = makeContractChunk({ ownerId: owner, documentId: 'shared-doc-id', text: 'heron notes' });
        await index.upsert([chunk]);
        await index.deleteDocument(intruder, 'shared-doc-id');
        expect(ids(await index.get(owner, [chunk.chunkId]))).toEqual([chunk.chunkId]);
      });
    });

    describe('keyword search', () => {
      const owner = newOwner();
      const best = makeContractChunk({
        ownerId: owner,
        text: 'Vitamin D deficiency raises fracture risk in elderly patients.',
      });
      const partial = makeContractChunk({ ownerId: owner, text: 'Fracture healing in young athletes after surgery.' });
      const unrelated = makeContractChunk({ ownerId: owner, text: 'Quarterly revenue grew in the northern region.' });
      const titled = makeContractChunk({
        ownerId: owner,
        text: 'Measurements were taken every week for a year.',
        contextPrefix: 'Osteoporosis cohort study',
        title: 'Osteoporosis cohort study',
      });

      beforeAll(async () => {
        await index.upsert([best, partial, unrelated, titled]);
      });

      it('ranks the chunk matching more query terms first and omits non-matching chunks', async () => {
        const hits = await search({ ownerId: owner, query: 'vitamin D fracture risk', mode: 'keyword' });
        expect(ids(hits)).toEqual([best.chunkId, partial.chunkId]);
        expect(hits[0]?.score).toBeGreaterThan(hits[1]?.score ?? Number.POSITIVE_INFINITY);
      });

      it('analyses queries like documents (case, plural, accents)', async () => {
        expect(ids(await search({ ownerId: owner, query: 'FRACTURES Véhicles', mode: 'keyword' }))).toEqual(
          expect.arrayContaining([best.chunkId, partial.chunkId]),
        );
      });

      it('searches the context prefix too', async () => {
        expect(ids(await search({ ownerId: owner, query: 'osteoporosis', mode: 'keyword' }))).toEqual([titled.chunkId]);
      });

      it('reports BM25 scores under scores.keyword, ordered descending, equal to score', async () => {
        const hits = await search({ ownerId: owner, query: 'fracture risk elderly', mode: 'keyword' });
        expect(hits.length).toBeGreaterThan(0);
        for (const hit of hits) {
          expect(hit.scores.keyword).toBe(hit.score);
          expect(hit.score).toBeGreaterThan(0);
          expect(hit.scores.semantic).toBeUndefined();
          expect(hit.scores.hybrid).toBeUndefined();
        }
        const scores = hits.map((hit) => hit.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
      });

      it('returns nothing for stop words only, punctuation or unknown terms', async () => {
        expect(await search({ ownerId: owner, query: 'the of and', mode: 'keyword' })).toEqual([]);
        expect(await search({ ownerId: owner, query: '?!', mode: 'keyword' })).toEqual([]);
        expect(await search({ ownerId: owner, query: 'xylophone', mode: 'keyword' })).toEqual([]);
      });

      it('respects topK', async () => {
        expect(await search({ ownerId: owner, query: 'fracture', mode: 'keyword', topK: 1 })).toHaveLength(1);
      });

      it('includes the full text only when asked, and always a snippet with location fields', async () => {
        const [without] = await search({ ownerId: owner, query: 'vitamin', mode: 'keyword' });
        expect(without?.text).toBeUndefined();
        expect(without?.snippet).toContain('Vitamin');
        expect(without).toMatchObject({
          documentId: best.documentId,
          index: 0,
          filename: 'file.txt',
          page: null,
          charStart: 0,
        });
        const [withText] = await search({ ownerId: owner, query: 'vitamin', mode: 'keyword', includeText: true });
        expect(withText?.text).toBe(best.text);
      });

      it('centres the snippet on the matching terms of a long chunk', async () => {
        const localOwner = newOwner();
        const words = Array.from({ length: 400 }, (_, i) => `word${i}`);
        words.splice(300, 0, 'kangaroo');
        const long = makeContractChunk({ ownerId: localOwner, text: words.join(' ') });
        await index.upsert([long]);
        const [hit] = await search({ ownerId: localOwner, query: 'kangaroo', mode: 'keyword' });
        expect(hit?.snippet).toContain('kangaroo');
        expect(hit?.snippet.length).toBeLessThan(400);
      });
    });

    describe('semantic and hybrid search', () => {
      const owner = newOwner();
      const near = makeContractChunk({
        ownerId: owner,
        text: 'Solar panels convert sunlight into electricity.',
        vector: axisVector(1),
        embeddingModel: 'test-model',
      });
      const middle = makeContractChunk({
        ownerId: owner,
        text: 'Wind turbines and solar farms feed the grid.',
        vector: axisVector(1, 2, 1),
        embeddingModel: 'test-model',
      });
      const far = makeContractChunk({
        ownerId: owner,
        text: 'A recipe for lemon cake.',
        vector: axisVector(5),
        embeddingModel: 'test-model',
      });
      const keywordOnly = makeContractChunk({ ownerId: owner, text: 'Solar eclipse timetable for Europe.' });

      beforeAll(async () => {
        await index.upsert([near, middle, far, keywordOnly]);
      });

      itSemantic('orders by cosine similarity and reports it under scores.semantic', async () => {
        const hits = await search({ ownerId: owner, query: 'anything', mode: 'semantic', queryVector: axisVector(1) });
        expect(ids(hits)).toEqual([near.chunkId, middle.chunkId, far.chunkId]);
        expect(hits[0]?.scores.semantic).toBeCloseTo(1, 4);
        expect(hits[1]?.scores.semantic).toBeCloseTo(Math.SQRT1_2, 4);
        expect(hits[2]?.scores.semantic).toBeCloseTo(0, 4);
        for (const hit of hits) expect(hit.score).toBe(hit.scores.semantic);
      });

      itSemantic('never returns chunks without a vector, and nothing without a query vector', async () => {
        const hits = await search({
          ownerId: owner,
          query: 'solar',
          mode: 'semantic',
          queryVector: axisVector(1),
          topK: 50,
        });
        expect(ids(hits)).not.toContain(keywordOnly.chunkId);
        expect(await search({ ownerId: owner, query: 'solar', mode: 'semantic' })).toEqual([]);
        expect(await search({ ownerId: owner, query: 'solar', mode: 'semantic', queryVector: null })).toEqual([]);
      });

      itSemantic('respects topK in semantic mode', async () => {
        expect(
          await search({ ownerId: owner, query: '', mode: 'semantic', queryVector: axisVector(1), topK: 2 }),
        ).toHaveLength(2);
      });

      itSemantic('hybrid fuses both lists by RRF: found by both modes beats found by one', async () => {
        const hits = await search({
          ownerId: owner,
          query: 'solar electricity',
          mode: 'hybrid',
          queryVector: axisVector(1),
        });
        expect(hits[0]?.chunkId).toBe(near.chunkId);
        expect(ids(hits)).toEqual(
          expect.arrayContaining([near.chunkId, middle.chunkId, far.chunkId, keywordOnly.chunkId]),
        );
        const top = hits[0];
        expect(top?.scores.hybrid).toBe(top?.score);
        expect(top?.scores.keyword).toBeGreaterThan(0);
        expect(top?.scores.semantic).toBeCloseTo(1, 4);
        expect(top?.scores.hybrid).toBeCloseTo(2 / 61, 6);
        const keywordOnlyHit = hits.find((hit) => hit.chunkId === keywordOnly.chunkId);
        expect(keywordOnlyHit?.scores.semantic).toBeUndefined();
        expect(keywordOnlyHit?.scores.keyword).toBeGreaterThan(0);
        const farHit = hits.find((hit) => hit.chunkId === far.chunkId);
        expect(farHit?.scores.keyword).toBeUndefined();
        const scores = hits.map((hit) => hit.score);
        expect(scores).toEqual([...scores].sort((a, b) => b - a));
      });

      it('hybrid without a query vector degrades to keyword search', async () => {
        const keyword = await search({ ownerId: owner, query: 'solar', mode: 'keyword' });
        const hybrid = await search({ ownerId: owner, query: 'solar', mode: 'hybrid' });
        expect(ids(hybrid)).toEqual(ids(keyword));
        expect(hybrid.map((hit) => hit.score)).toEqual(keyword.map((hit) => hit.score));
        expect(hybrid[0]?.scores.keyword).toBeGreaterThan(0);
      });

      itSemantic('respects topK in hybrid mode', async () => {
        expect(
          await search({ ownerId: owner, query: 'solar', mode: 'hybrid', queryVector: axisVector(1), topK: 1 }),
        ).toHaveLength(1);
      });

      itSemantic('setVectors back-fills a keyword-only chunk so semantic search finds it', async () => {
        const localOwner = newOwner();
        const chunk = makeContractChunk({ ownerId: localOwner, text: 'Indexed while the embedder was down.' });
        await index.upsert([chunk]);
        expect(await search({ ownerId: localOwner, query: '', mode: 'semantic', queryVector: axisVector(3) })).toEqual(
          [],
        );
        await index.setVectors(localOwner, 'late-model', [{ chunkId: chunk.chunkId, vector: axisVector(3) }]);
        const hits = await search({ ownerId: localOwner, query: '', mode: 'semantic', queryVector: axisVector(3) });
        expect(ids(hits)).toEqual([chunk.chunkId]);
        expect(hits[0]?.scores.semantic).toBeCloseTo(1, 4);
        const [stored] = await index.get(localOwner, [chunk.chunkId]);
        expect(stored?.embeddingModel).toBe('late-model');
        expect(stored?.vector?.length).toBe(DIMS);
        expect(stored?.vector?.[3]).toBeCloseTo(1, 5);
        expect(await index.countChunks(localOwner)).toBe(1);
        expect(ids(await search({ ownerId: localOwner, query: 'embedder', mode: 'keyword' }))).toEqual([chunk.chunkId]);
      });

      itSemantic("setVectors ignores another owner's chunk ids", async () => {
        const victim = newOwner();
        const attacker = newOwner();
        const chunk = makeContractChunk({ ownerId: victim, text: 'victim text' });
        await index.upsert([chunk]);
        await index.setVectors(attacker, 'evil', [{ chunkId: chunk.chunkId, vector: axisVector(4) }]);
        expect(await search({ ownerId: victim, query: '', mode: 'semantic', queryVector: axisVector(4) })).toEqual([]);
        expect(await search({ ownerId: attacker, query: '', mode: 'semantic', queryVector: axisVector(4) })).toEqual(
          [],
        );
        expect(await index.countChunks(attacker)).toBe(0);
        const [stored] = await index.get(victim, [chunk.chunkId]);
        expect(stored?.vector).toBeNull();
      });

      itSemantic('upsert without a vector replaces a stored vector (the chunk leaves semantic results)', async () => {
        const localOwner = newOwner();
        const chunk = makeContractChunk({ ownerId: localOwner, text: 'x', vector: axisVector(6), embeddingModel: 'm' });
        await index.upsert([chunk]);
        expect(
          await search({ ownerId: localOwner, query: '', mode: 'semantic', queryVector: axisVector(6) }),
        ).toHaveLength(1);
        await index.upsert([{ ...chunk, vector: null, embeddingModel: null }]);
        expect(await search({ ownerId: localOwner, query: '', mode: 'semantic', queryVector: axisVector(6) })).toEqual(
          [],
        );
      });
    });

    describe('filters mean the same in every mode', () => {
      const owner = newOwner();
      const base = { ownerId: owner, vector: axisVector(2), embeddingModel: 'test-model' } as const;
      const a = makeContractChunk({
        ...base,
        documentId: 'doc-a',
        text: 'alpha contract one',
        bucketId: 'contracts',
        mime: 'application/pdf',
        documentDate: '2024-01-15',
        tags: ['legal', 'signed'],
        fields: { lang: 'en', client: 'acme' },
      });
      const b = makeContractChunk({
        ...base,
        documentId: 'doc-b',
        text: 'alpha invoice two',
        bucketId: 'invoices',
        mime: 'text/csv',
        documentDate: '2024-03-01',
        tags: ['finance'],
        fields: { lang: 'de' },
      });
      const c = makeContractChunk({
        ...base,
        documentId: 'doc-c',
        text: 'alpha manual three',
        bucketId: null,
        mime: 'text/markdown',
        documentDate: null,
        tags: ['legal'],
        fields: { lang: 'EN' },
      });
      const d = makeContractChunk({
        ...base,
        documentId: 'doc-a',
        index: 1,
        text: 'alpha contract annex',
        bucketId: 'contracts',
        mime: 'application/pdf',
        documentDate: '2024-01-15',
        tags: ['signed', 'legal', 'annex'],
        fields: { lang: 'en', client: 'acme', extra: 'yes' },
      });
      const all = [a, b, c, d];

      beforeAll(async () => {
        await index.upsert(all);
        // Another owner with identical attributes must never leak into the results.
        await index.upsert(all.map((chunk) => ({ ...chunk, chunkId: randomUUID(), ownerId: `${owner}-twin` })));
      });

      const cases: [string, SearchFilters, IndexedChunk[]][] = [
        ['no filter', {}, [a, b, c, d]],
        ['bucketIds', { bucketIds: ['contracts'] }, [a, d]],
        ['bucketIds (several)', { bucketIds: ['contracts', 'invoices'] }, [a, b, d]],
        ['bucketIds (empty list matches nothing)', { bucketIds: [] }, []],
        ['documentIds', { documentIds: ['doc-b', 'doc-c'] }, [b, c]],
        ['documentIds (unknown)', { documentIds: ['doc-zzz'] }, []],
        ['mimeTypes', { mimeTypes: ['text/csv', 'text/markdown'] }, [b, c]],
        ['dateFrom is inclusive', { dateFrom: '2024-03-01' }, [b]],
        ['dateTo is inclusive', { dateTo: '2024-01-15' }, [a, d]],
        ['date range', { dateFrom: '2024-01-16', dateTo: '2024-03-01' }, [b]],
        ['date range excludes undated chunks', { dateFrom: '1900-01-01', dateTo: '2999-12-31' }, [a, b, d]],
        ['tags (all of)', { tags: ['legal', 'signed'] }, [a, d]],
        ['tags (single)', { tags: ['legal'] }, [a, c, d]],
        ['tags (one missing)', { tags: ['legal', 'finance'] }, []],
        ['tags (empty list matches everything)', { tags: [] }, [a, b, c, d]],
        ['fields (equality, case-sensitive)', { fields: { lang: 'en' } }, [a, d]],
        ['fields (all listed keys)', { fields: { lang: 'en', extra: 'yes' } }, [d]],
        ['fields (missing key)', { fields: { nothere: 'x' } }, []],
        ['combined', { bucketIds: ['contracts'], tags: ['annex'], dateFrom: '2024-01-01' }, [d]],
      ];

      const modes: SearchMode[] = semantic ? ['keyword', 'semantic', 'hybrid'] : ['keyword'];
      for (const mode of modes) {
        it.each(cases)(`${mode}: %s`, async (_label, filters, expected) => {
          const hits = await search({
            ownerId: owner,
            query: 'alpha',
            mode,
            queryVector: axisVector(2),
            filters,
            topK: 50,
          });
          expect(sorted(ids(hits))).toEqual(sorted(expected.map((chunk) => chunk.chunkId)));
        });
      }

      it('updateDocumentAttributes changes filter results and stored attributes', async () => {
        await index.updateDocumentAttributes(owner, 'doc-b', {
          bucketId: 'contracts',
          mime: 'application/pdf',
          filename: 'moved.pdf',
          title: 'Moved',
          documentDate: '2025-05-05',
          tags: ['moved'],
          fields: { lang: 'fr' },
        });
        for (const mode of modes) {
          const inContracts = await search({
            ownerId: owner,
            query: 'alpha',
            mode,
            queryVector: axisVector(2),
            filters: { bucketIds: ['contracts'] },
            topK: 50,
          });
          expect(sorted(ids(inContracts)), mode).toEqual(sorted([a.chunkId, b.chunkId, d.chunkId]));
          const inInvoices = await search({
            ownerId: owner,
            query: 'alpha',
            mode,
            queryVector: axisVector(2),
            filters: { bucketIds: ['invoices'] },
          });
          expect(inInvoices, mode).toEqual([]);
          const byTag = await search({
            ownerId: owner,
            query: 'alpha',
            mode,
            queryVector: axisVector(2),
            filters: { tags: ['moved'], fields: { lang: 'fr' } },
          });
          expect(ids(byTag), mode).toEqual([b.chunkId]);
          expect(byTag[0]?.filename).toBe('moved.pdf');
        }
        const [stored] = await index.get(owner, [b.chunkId]);
        expect(stored).toMatchObject({
          bucketId: 'contracts',
          filename: 'moved.pdf',
          title: 'Moved',
          documentDate: '2025-05-05',
          tags: ['moved'],
          fields: { lang: 'fr' },
        });
        expect(stored?.text).toBe(b.text);
        if (semantic) expect(stored?.vector?.length).toBe(DIMS);
        expect(await index.countChunks(owner)).toBe(4);
      });

      it('updateDocumentAttributes by another owner changes nothing', async () => {
        await index.updateDocumentAttributes(`${owner}-intruder`, 'doc-a', {
          bucketId: 'stolen',
          mime: 'x/y',
          filename: 'stolen',
          title: null,
          documentDate: null,
          tags: [],
          fields: {},
        });
        const [stored] = await index.get(owner, [a.chunkId]);
        expect(stored?.bucketId).toBe('contracts');
      });
    });

    describe('typed filters run inside the engine (pushed down)', () => {
      const owner = newOwner();
      const base = {
        ownerId: owner,
        vector: axisVector(3),
        embeddingModel: 'test-model',
        bucketId: 'invoices',
      } as const;
      const over1000in2023: MetaFilter[] = [
        { field: 'total_amount', type: 'number', op: '>', values: [1000] },
        { field: 'issued', type: 'date', op: 'between', values: ['2023-01-01', '2023-12-31'] },
      ];
      const bigMeta = { total_amount: 1500, issued: '2023-03-02', status: 'paid', paid: true };
      const big = [0, 1].map((i) =>
        makeContractChunk({
          ...base,
          documentId: 'inv-big',
          index: i,
          text: `invoice widgets part ${i}`,
          meta: bigMeta,
        }),
      );
      const small = makeContractChunk({
        ...base,
        documentId: 'inv-small',
        text: 'invoice widgets small',
        meta: { total_amount: 800, issued: '2023-05-10', status: 'draft', paid: false },
      });
      const old = makeContractChunk({
        ...base,
        documentId: 'inv-old',
        text: 'invoice widgets old',
        meta: { total_amount: 2400, issued: '2022-11-20', status: "O'Reilly" },
      });
      const bare = makeContractChunk({ ...base, documentId: 'inv-bare', text: 'invoice widgets bare' });
      const all = [...big, small, old, bare];
      const modes: SearchMode[] = semantic ? ['keyword', 'semantic', 'hybrid'] : ['keyword'];
      const run = (mode: SearchMode, meta: MetaFilter[], ownerId = owner) =>
        search({ ownerId, query: 'invoice widgets', mode, queryVector: axisVector(3), filters: { meta }, topK: 50 });

      beforeAll(async () => {
        await index.upsert(all);
        // Another owner holding the same values never leaks into the results.
        await index.upsert(all.map((chunk) => ({ ...chunk, chunkId: randomUUID(), ownerId: `${owner}-twin` })));
      });

      const cases: [string, MetaFilter[], IndexedChunk[]][] = [
        ['number > and date between', over1000in2023, big],
        ['number =', [{ field: 'total_amount', type: 'number', op: '=', values: [800] }], [small]],
        ['number in', [{ field: 'total_amount', type: 'number', op: 'in', values: [800, 2400] }], [small, old]],
        [
          'number <= (no value never passes)',
          [{ field: 'total_amount', type: 'number', op: '<=', values: [1500] }],
          [...big, small],
        ],
        ['date <', [{ field: 'issued', type: 'date', op: '<', values: ['2023-03-02'] }], [old]],
        ['date =', [{ field: 'issued', type: 'date', op: '=', values: ['2023-03-02'] }], big],
        [
          'enum != (missing value fails)',
          [{ field: 'status', type: 'enum', op: '!=', values: ['paid'] }],
          [small, old],
        ],
        ['string = with a quote', [{ field: 'status', type: 'string', op: '=', values: ["O'Reilly"] }], [old]],
        ['string in', [{ field: 'status', type: 'string', op: 'in', values: ['paid', 'draft'] }], [...big, small]],
        ['boolean =', [{ field: 'paid', type: 'boolean', op: '=', values: [false] }], [small]],
        ['boolean !=', [{ field: 'paid', type: 'boolean', op: '!=', values: [false] }], big],
        ['a date filter on a text value', [{ field: 'status', type: 'date', op: '>', values: ['2000-01-01'] }], []],
        ['a field no document has', [{ field: 'never_set', type: 'number', op: '!=', values: [1] }], []],
      ];

      for (const mode of modes) {
        it.each(cases)(`${mode}: %s`, async (_label, meta, expected) => {
          expect(sorted(ids(await run(mode, meta)))).toEqual(sorted(expected.map((chunk) => chunk.chunkId)));
        });
      }

      it('keeps the values with the chunks (get) and follows updateDocumentAttributes', async () => {
        const [stored] = await index.get(owner, [small.chunkId]);
        expect(stored?.meta).toEqual(small.meta);
        const attributes = {
          bucketId: 'invoices',
          mime: small.mime,
          filename: small.filename,
          title: null,
          documentDate: null,
          tags: [],
          fields: {},
        };
        // A hand edit: the small invoice becomes big; the big one loses its values (e.g. moved out of the bucket).
        await index.updateDocumentAttributes(owner, 'inv-small', {
          ...attributes,
          meta: { total_amount: 5000, issued: '2023-05-10' },
        });
        await index.updateDocumentAttributes(owner, 'inv-big', { ...attributes, bucketId: null, meta: {} });
        for (const mode of modes) {
          expect(sorted(ids(await run(mode, over1000in2023))), mode).toEqual([small.chunkId]);
          expect(await run(mode, [{ field: 'paid', type: 'boolean', op: '=', values: [true] }]), mode).toEqual([]);
          // The twin owner's copies kept their values.
          expect(sorted(ids(await run(mode, over1000in2023, `${owner}-twin`))).length, mode).toBe(2);
        }
        const [edited] = await index.get(owner, [small.chunkId]);
        expect(edited?.meta).toEqual({ total_amount: 5000, issued: '2023-05-10' });
      });
    });

    describe('get', () => {
      it("returns this owner's chunks in the order asked and treats other owners' ids like missing ids", async () => {
        const owner = newOwner();
        const other = newOwner();
        const mine = [0, 1, 2].map((i) =>
          makeContractChunk({
            ownerId: owner,
            index: i,
            text: `mine ${i}`,
            page: i + 1,
            headingPath: 'A > B',
            tags: ['t'],
            fields: { k: 'v' },
            vector: semantic ? axisVector(i) : null,
            embeddingModel: semantic ? 'test-model' : null,
          }),
        );
        const theirs = makeContractChunk({ ownerId: other, text: 'theirs' });
        await index.upsert([...mine, theirs]);
        const [m0, m1, m2] = mine.map((chunk) => chunk.chunkId);
        const asked = [m2, theirs.chunkId, m0, 'missing-id', m1].filter((id): id is string => id !== undefined);
        const got = await index.get(owner, asked);
        expect(got.map((chunk) => chunk.chunkId)).toEqual([m2, m0, m1]);
        expect(got[0]).toMatchObject({ ...mine[2], vector: semantic ? expect.anything() : null });
        if (semantic) expect(got[0]?.vector?.[2]).toBeCloseTo(1, 5);
        const withForeign = await index.get(owner, [theirs.chunkId]);
        const withMissing = await index.get(owner, ['missing-id']);
        expect(withForeign).toEqual(withMissing);
        expect(withForeign).toEqual([]);
        expect(await index.get(other, [m0 ?? ''])).toEqual([]);
        expect(await index.get(owner, [])).toEqual([]);
      });
    });

    describe('owner isolation', () => {
      it('never returns or counts another owner’s chunks, in any mode', async () => {
        const owner = newOwner();
        const other = newOwner();
        await index.upsert([
          makeContractChunk({
            ownerId: other,
            text: 'secret merger plan',
            vector: semantic ? axisVector(7) : null,
            embeddingModel: semantic ? 'm' : null,
          }),
        ]);
        const modes: SearchMode[] = semantic ? ['keyword', 'semantic', 'hybrid'] : ['keyword'];
        for (const mode of modes) {
          expect(
            await search({ ownerId: owner, query: 'secret merger plan', mode, queryVector: axisVector(7) }),
            mode,
          ).toEqual([]);
        }
        expect(await index.countChunks(owner)).toBe(0);
      });

      it('rejects a search without an owner', async () => {
        await expect(index.search({ ownerId: '', query: 'x', mode: 'keyword', topK: 5 })).rejects.toThrow();
      });
    });

    it('reports health', async () => {
      const health = await index.health();
      expect(health.ok).toBe(true);
      expect(health.engine).toBe(index.engine);
    });
  });
}
