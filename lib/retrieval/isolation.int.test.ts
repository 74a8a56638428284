import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import type { ChunkIndex, IndexedChunk, SearchFilters, SearchMode } from '@/lib/retrieval/types';
import { makeContractChunk } from '@/test/support/retrieval/contract';

// Small vocabularies so that owners collide on everything they can: words, document ids, buckets, tags, fields.
const WORDS = ['invoice', 'contract', 'secret', 'salary', 'merger', 'report', 'alpha', 'beta'];
const DOCS = ['doc-1', 'doc-2', 'doc-3'];
const BUCKETS = ['b1', 'b2'];
const TAGS = ['red', 'blue', 'green'];
const DATES = ['2023-01-01', '2024-06-15', '2025-12-31'];
const OWNER_COUNT = 3;
const DIMS = 4;

const vectorArb = fc
  .array(fc.integer({ min: -3, max: 3 }), { minLength: DIMS, maxLength: DIMS })
  .map((values) => (values.some((value) => value !== 0) ? values : [1, 0, 0, 0]));

const chunkSpecArb = fc.record({
  owner: fc.nat({ max: OWNER_COUNT - 1 }),
  doc: fc.constantFrom(...DOCS),
  words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 6 }),
  bucket: fc.option(fc.constantFrom(...BUCKETS), { nil: null }),
  tags: fc.subarray(TAGS),
  date: fc.option(fc.constantFrom(...DATES), { nil: null }),
  lang: fc.option(fc.constantFrom('en', 'de'), { nil: undefined }),
  vector: fc.option(vectorArb, { nil: null }),
});

const filtersArb: fc.Arbitrary<SearchFilters> = fc.record(
  {
    bucketIds: fc.subarray(BUCKETS),
    documentIds: fc.subarray(DOCS),
    mimeTypes: fc.subarray(['text/plain', 'application/pdf']),
    dateFrom: fc.constantFrom(...DATES),
    dateTo: fc.constantFrom(...DATES),
    tags: fc.subarray(TAGS, { maxLength: 2 }),
    fields: fc.constantFrom<Record<string, string>>({ lang: 'en' }, { lang: 'de' }, {}),
  },
  { requiredKeys: [] },
);

const queryArb = fc.record({
  owner: fc.nat({ max: OWNER_COUNT - 1 }),
  words: fc.array(fc.constantFrom(...WORDS, 'unknownword'), { minLength: 0, maxLength: 4 }),
  mode: fc.constantFrom<SearchMode>('keyword', 'semantic', 'hybrid'),
  vector: fc.option(vectorArb, { nil: null }),
  filters: fc.option(filtersArb, { nil: undefined }),
  topK: fc.integer({ min: 1, max: 40 }),
  candidates: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
});

const operationArb = fc.oneof(
  fc.record({
    kind: fc.constant('delete' as const),
    owner: fc.nat({ max: OWNER_COUNT - 1 }),
    doc: fc.constantFrom(...DOCS),
  }),
  fc.record({
    kind: fc.constant('retag' as const),
    owner: fc.nat({ max: OWNER_COUNT - 1 }),
    doc: fc.constantFrom(...DOCS),
    bucket: fc.option(fc.constantFrom(...BUCKETS), { nil: null }),
    tags: fc.subarray(TAGS),
  }),
  fc.record({
    kind: fc.constant('vectors' as const),
    owner: fc.nat({ max: OWNER_COUNT - 1 }),
    picks: fc.array(fc.nat(), { maxLength: 5 }),
    vector: vectorArb,
  }),
);

const scenarioArb = fc.record({
  chunks: fc.array(chunkSpecArb, { minLength: 1, maxLength: 30 }),
  operations: fc.array(operationArb, { maxLength: 6 }),
  queries: fc.array(queryArb, { minLength: 1, maxLength: 12 }),
  gets: fc.array(fc.record({ owner: fc.nat({ max: OWNER_COUNT - 1 }), picks: fc.array(fc.nat(), { maxLength: 10 }) }), {
    maxLength: 5,
  }),
});

describe('owner isolation (property-based, embedded index)', () => {
  let dir: string;
  let index: ChunkIndex;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'docuchat-isolation-'));
    index = await createEmbeddedChunkIndex({ dir });
  });

  afterAll(async () => {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('never returns, fetches, counts or modifies another owner’s chunks', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        // Fresh owners per run; the index is shared, so earlier runs' owners are extra neighbours.
        const owners = Array.from({ length: OWNER_COUNT }, () => `owner-${randomUUID()}`);
        const ownerOf = (n: number) => owners[n] ?? '';
        const live = new Map<string, IndexedChunk>();
        const chunks = scenario.chunks.map((spec) =>
          makeContractChunk({
            ownerId: ownerOf(spec.owner),
            documentId: spec.doc,
            text: spec.words.join(' '),
            bucketId: spec.bucket,
            tags: spec.tags,
            documentDate: spec.date,
            fields: spec.lang ? { lang: spec.lang } : {},
            vector: spec.vector,
            embeddingModel: spec.vector ? 'm' : null,
          }),
        );
        await index.upsert(chunks);
        for (const chunk of chunks) live.set(chunk.chunkId, chunk);
        const allIds = chunks.map((chunk) => chunk.chunkId);
        const pick = (n: number) => allIds[n % allIds.length] ?? 'none';

        for (const operation of scenario.operations) {
          const owner = ownerOf(operation.owner);
          if (operation.kind === 'delete') {
            await index.deleteDocument(owner, operation.doc);
            for (const [id, chunk] of live)
              if (chunk.ownerId === owner && chunk.documentId === operation.doc) live.delete(id);
          } else if (operation.kind === 'retag') {
            await index.updateDocumentAttributes(owner, operation.doc, {
              bucketId: operation.bucket,
              mime: 'text/plain',
              filename: 'f',
              title: null,
              documentDate: null,
              tags: operation.tags,
              fields: {},
            });
            for (const [id, chunk] of live) {
              if (chunk.ownerId === owner && chunk.documentId === operation.doc) {
                live.set(id, {
                  ...chunk,
                  bucketId: operation.bucket,
                  tags: operation.tags,
                  documentDate: null,
                  fields: {},
                  filename: 'f',
                });
              }
            }
          } else {
            // Ids may be another owner's: those must be ignored.
            const ids = operation.picks.map(pick);
            await index.setVectors(
              owner,
              'm2',
              ids.map((chunkId) => ({ chunkId, vector: operation.vector })),
            );
            for (const id of ids) {
              const chunk = live.get(id);
              if (chunk && chunk.ownerId === owner)
                live.set(id, { ...chunk, vector: operation.vector, embeddingModel: 'm2' });
            }
          }
        }

        for (const [n, owner] of owners.entries()) {
          const expected = [...live.values()].filter((chunk) => chunk.ownerId === owner).length;
          expect(await index.countChunks(owner), `count of owner ${n}`).toBe(expected);
        }

        for (const query of scenario.queries) {
          const owner = ownerOf(query.owner);
          const hits = await index.search({
            ownerId: owner,
            query: query.words.join(' '),
            mode: query.mode,
            queryVector: query.vector,
            filters: query.filters,
            topK: query.topK,
            candidates: query.candidates,
          });
          expect(hits.length).toBeLessThanOrEqual(query.topK);
          for (const hit of hits) {
            const chunk = live.get(hit.chunkId);
            expect(chunk, `hit ${hit.chunkId} is not a live chunk`).toBeDefined();
            expect(chunk?.ownerId, 'hit belongs to another owner').toBe(owner);
            expect(hit.documentId).toBe(chunk?.documentId);
            if (query.mode === 'semantic') expect(chunk?.vector).not.toBeNull();
          }
        }

        for (const get of scenario.gets) {
          const owner = ownerOf(get.owner);
          const asked = [...get.picks.map(pick), 'not-a-chunk'];
          const got = await index.get(owner, asked);
          const expected = [...new Set(asked)].filter((id) => live.get(id)?.ownerId === owner);
          expect(got.map((chunk) => chunk.chunkId)).toEqual(expected);
          for (const chunk of got) expect(chunk.ownerId).toBe(owner);
        }
      }),
      { numRuns: 40 },
    );
  });
});
