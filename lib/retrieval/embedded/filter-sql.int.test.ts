import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect } from '@lancedb/lancedb';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MetaValue, matchesMetaFilters } from '@/lib/domain/typed-meta';
import { ChunkTable } from '@/lib/retrieval/embedded/chunk-table';
import { compileFilters } from '@/lib/retrieval/embedded/filter-predicate';
import { filtersToSql } from '@/lib/retrieval/embedded/filter-sql';
import { chunkToRow } from '@/lib/retrieval/embedded/lance-rows';
import { metaCells } from '@/lib/retrieval/embedded/meta-columns';
import { makeContractChunk } from '@/test/support/retrieval/contract';
import { metaFiltersArb, metaValuesArb } from '@/test/support/retrieval/typed-meta-arbitraries';

/**
 * The typed filter pushed down to LanceDB (filtersToSql over the typed columns, meta-columns.ts) selects exactly
 * the rows the reference matcher (matchesMetaFilters) and the in-memory keyword predicate (compileFilters) accept:
 * every operator on every type, missing values, `!=`, a column that no row ever filled, values of another type
 * under the same field name. One table of generated documents, many generated filters.
 */

const DOCS = 160;
let dir: string;
let table: ChunkTable;
let docs: { id: string; meta: Record<string, MetaValue> }[];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'docuchat-filter-sql-'));
  const db = await connect(dir);
  table = await ChunkTable.open(db, 'owner_props');
  docs = fc.sample(metaValuesArb, { numRuns: DOCS, seed: 18 }).map((meta, i) => ({ id: `doc-${i}`, meta }));
  docs.push({ id: 'doc-empty', meta: {} });
  await table.ensureMetaColumns(docs.flatMap((d) => [...metaCells(d.meta).keys()]));
  await table.add(
    docs.map((d, i) =>
      chunkToRow(
        { ...makeContractChunk({ ownerId: 'props', documentId: d.id, index: i, text: 'x' }), meta: d.meta },
        null,
        false,
        table.metaColumns,
      ),
    ),
  );
});

afterAll(async () => {
  table.close();
  await rm(dir, { recursive: true, force: true });
});

describe('typed filters as LanceDB SQL', () => {
  it('agree with matchesMetaFilters and the keyword predicate on every generated filter', async () => {
    await fc.assert(
      fc.asyncProperty(metaFiltersArb, async (meta) => {
        const sql = filtersToSql({ meta }, table.metaColumns);
        expect(sql).not.toBeNull();
        const rows = await table.rowsWhere(sql ?? 'TRUE');
        const got = rows.map((row) => String(row.documentId)).sort();
        const expected = docs
          .filter((d) => matchesMetaFilters(d.meta, meta))
          .map((d) => d.id)
          .sort();
        expect(got).toEqual(expected);
        const predicate = compileFilters({ meta });
        const inMemory = docs
          .filter((d) => predicate?.({ ...makeContractChunk({ ownerId: 'props', documentId: d.id }), meta: d.meta }))
          .map((d) => d.id)
          .sort();
        expect(inMemory).toEqual(expected);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 300), seed: 2026 },
    );
  });

  it('reads a field no row has a column for as no value (FALSE), never as a SQL error', async () => {
    const sql = filtersToSql(
      { meta: [{ field: 'never_written', type: 'number', op: '!=', values: [1] }] },
      table.metaColumns,
    );
    expect(sql).toBe('(FALSE)');
    expect(await table.rowsWhere(sql ?? '')).toEqual([]);
  });
});
