/**
 * What pushing typed filters down into the chunk index costs, against the approach it replaced (typed filters
 * resolved to a document-id list first, then `documentId IN (...)` in the engine). Embedded index (LanceDB + BM25),
 * 10,000 generated invoices of 2 chunks each with 16-dimension vectors (ANN index built, as for any owner above
 * 10,000 vectors), typed values total_amount (number) and issued (date); the filter of "invoices over 1000 issued
 * in 2023". Median latency per search mode, and of a value edit (the chunks' typed values rewritten).
 * The id-list figure counts only matching values already in memory (no database read), so it favours the old way.
 * Run: npm run bench:typed-pushdown
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { type MetaFilter, type MetaValue, matchesMetaFilters } from '@/lib/domain/typed-meta';
import { createEmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import type { IndexedChunk, SearchFilters, SearchMode } from '@/lib/retrieval/types';
import { makeContractChunk } from '@/test/support/retrieval/contract';
import { recordFigures } from './figures';

const DOCUMENTS = Number(process.env.BENCH_DOCUMENTS ?? 10_000);
const CHUNKS_PER_DOC = 2;
const DIMS = 16;
const QUERIES = 25;
const OWNER = 'bench-owner';

let seed = 7;
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const WORDS = 'invoice total amount widgets services consulting supplies shipping tax paid open acme north south'.split(
  ' ',
);
const text = () => Array.from({ length: 60 }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
const vector = () => Array.from({ length: DIMS }, () => random() - 0.5);

const filters: MetaFilter[] = [
  { field: 'total_amount', type: 'number', op: '>', values: [1000] },
  { field: 'issued', type: 'date', op: 'between', values: ['2023-01-01', '2023-12-31'] },
];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'docuchat-bench-pushdown-'));
  const index = await createEmbeddedChunkIndex({ dir });
  try {
    const values = new Map<string, Record<string, MetaValue>>();
    const chunks: IndexedChunk[] = [];
    for (let d = 0; d < DOCUMENTS; d++) {
      const documentId = `doc-${d}`;
      const month = String(1 + Math.floor(random() * 12)).padStart(2, '0');
      const meta = {
        total_amount: Number((random() * 5000).toFixed(2)),
        issued: `${2020 + Math.floor(random() * 5)}-${month}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`,
      };
      values.set(documentId, meta);
      for (let c = 0; c < CHUNKS_PER_DOC; c++) {
        const body = text();
        chunks.push(
          makeContractChunk({
            chunkId: `${documentId}-${c}`,
            documentId,
            ownerId: OWNER,
            index: c,
            text: body,
            tokenCount: 60,
            vector: vector(),
            embeddingModel: 'bench',
            charEnd: body.length,
            bucketId: 'invoices',
            filename: `${documentId}.txt`,
            meta,
            language: 'en',
          }),
        );
      }
    }
    const loadStart = performance.now();
    for (let i = 0; i < chunks.length; i += 5_000) await index.upsert(chunks.slice(i, i + 5_000));
    await index.optimize();
    console.log(
      `indexed ${chunks.length} chunks of ${DOCUMENTS} documents in ${((performance.now() - loadStart) / 1000).toFixed(1)} s`,
    );

    const idList = (): SearchFilters => ({
      documentIds: [...values].filter(([, meta]) => matchesMetaFilters(meta, filters)).map(([id]) => id),
    });
    const matching = idList().documentIds?.length ?? 0;
    console.log(
      `${matching} of ${DOCUMENTS} documents pass ${JSON.stringify(filters.map((f) => `${f.field} ${f.op} ${f.values.join('..')}`))}`,
    );

    const results: Record<string, { pushdown: number; idList: number }> = {};
    for (const mode of ['keyword', 'semantic', 'hybrid'] as SearchMode[]) {
      const pushdown: number[] = [];
      const ids: number[] = [];
      let agree = true;
      for (let q = 0; q < QUERIES; q++) {
        const request = {
          ownerId: OWNER,
          query: `${WORDS[q % WORDS.length]} ${WORDS[(q * 7) % WORDS.length]}`,
          mode,
          topK: 10,
          queryVector: vector(),
        };
        let t = performance.now();
        const a = await index.search({ ...request, filters: { meta: filters } });
        pushdown.push(performance.now() - t);
        t = performance.now();
        const b = await index.search({ ...request, filters: idList() });
        ids.push(performance.now() - t);
        if (a.length !== b.length || !a.every((hit) => matchesMetaFilters(values.get(hit.documentId) ?? {}, filters)))
          agree = false;
      }
      results[mode] = { pushdown: median(pushdown), idList: median(ids) };
      console.log(
        `${mode}: pushdown ${median(pushdown).toFixed(1)} ms, id list ${median(ids).toFixed(1)} ms (median of ${QUERIES})${agree ? '' : ' — RESULTS DIFFER'}`,
      );
    }

    const edits: number[] = [];
    for (let e = 0; e < 20; e++) {
      const documentId = `doc-${Math.floor(random() * DOCUMENTS)}`;
      const t = performance.now();
      await index.updateDocumentAttributes(OWNER, documentId, {
        bucketId: 'invoices',
        mime: 'text/plain',
        filename: `${documentId}.txt`,
        title: null,
        documentDate: null,
        tags: [],
        fields: {},
        meta: { total_amount: 1234.5, issued: '2023-06-30' },
      });
      edits.push(performance.now() - t);
    }
    console.log(
      `value edit (typed values rewritten on a document's chunks): ${median(edits).toFixed(1)} ms (median of 20)`,
    );

    if (DOCUMENTS === 10_000) {
      const command = 'npm run bench:typed-pushdown';
      const ms = (value: number) => ({ value: Number(value.toFixed(1)), unit: 'ms', command });
      recordFigures({
        'typed_pushdown.keyword_ms': ms(results.keyword?.pushdown ?? 0),
        'typed_pushdown.keyword_idlist_ms': ms(results.keyword?.idList ?? 0),
        'typed_pushdown.semantic_ms': ms(results.semantic?.pushdown ?? 0),
        'typed_pushdown.semantic_idlist_ms': ms(results.semantic?.idList ?? 0),
        'typed_pushdown.hybrid_ms': ms(results.hybrid?.pushdown ?? 0),
        'typed_pushdown.hybrid_idlist_ms': ms(results.hybrid?.idList ?? 0),
        'typed_pushdown.value_edit_ms': ms(median(edits)),
      });
    }
  } finally {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
