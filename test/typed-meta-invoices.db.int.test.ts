import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeConstraints } from '@/lib/agent/constraints';
import type { AgentEvent } from '@/lib/agent/events';
import { resolveLimits } from '@/lib/agent/limits';
import { defaultPlan } from '@/lib/agent/plan';
import { runAgent } from '@/lib/agent/run-agent';
import { createAgentState } from '@/lib/agent/state';
import { createTools } from '@/lib/agent/tools/registry';
import { createPrismaCatalog } from '@/lib/db/catalog';
import { getDb } from '@/lib/db/client';
import { getDocumentTypedMeta, setBucketMetaSchema, setDocumentTypedValues } from '@/lib/db/typed-meta';
import { backfillTypedIndexOnce } from '@/lib/documents/backfill-typed-index';
import { extractBucketTypedValues } from '@/lib/documents/extract-typed-values';
import { syncIndexedTypedValues, updateDocument } from '@/lib/documents/manage';
import type { MetaFilter } from '@/lib/domain/typed-meta';
import { AppError } from '@/lib/errors';
import { createTestUser } from '@/test/factories';
import { createHarness, type Harness, intake, processOne } from '@/test/reliability/ingest-harness';

/**
 * Issue 18, typed metadata end to end: a bucket "invoices" declares total_amount (number) and issued (date);
 * generated invoices are ingested into it (values extracted deterministically at ingest, with evidence), and the
 * agent in extractive mode answers "invoices over 1000 issued in 2023" citing only the invoices that match.
 * Real pipeline, real database, embedded index.
 */

let h: Harness;
let owner: { id: string };
let other: { id: string };
let bucketId = '';
const ids: Record<string, string> = {};

const invoices: Record<string, string> = {
  // matches: 1500 in 2023
  'inv-a.md':
    '# Invoice INV-1001\n\nACME Supplies\n\nIssued: March 2, 2023\n\nWidgets x 10: $120.00\n\nTotal amount: $1,500.00\n',
  // too small
  'inv-b.md': '# Invoice INV-1002\n\nACME Supplies\n\nIssued 2023-05-10\n\nTotal amount: $800.00\n',
  // wrong year
  'inv-c.md': '# Invoice INV-1003\n\nACME Supplies\n\nDate issued: 20 November 2022\n\nTotal amount: $2,400.00\n',
  // matches: 1200.50 on the last day of 2023
  'inv-d.md': '# Invoice INV-1004\n\nACME Supplies\n\nIssued: 2023-12-31\n\nTotal amount: 1200.50 EUR\n',
  // next year
  'inv-e.md': '# Invoice INV-1005\n\nACME Supplies\n\nIssued: January 1, 2024\n\nTotal amount: $3,000.00\n',
};

async function ingestInto(ownerId: string, bucket: string | null, filename: string, text: string): Promise<string> {
  const taken = await intake(ownerId, filename, Buffer.from(text), 'text/markdown');
  if ('stage' in taken) throw new Error(`intake failed: ${taken.reason}`);
  await getDb().document.update({ where: { id: taken.documentId }, data: { bucketId: bucket } });
  const out = await processOne(h, taken.documentId);
  expect(out).toMatchObject({ status: 'INDEXED' });
  return taken.documentId;
}

beforeAll(async () => {
  h = await createHarness();
  owner = await createTestUser('typed-meta');
  other = await createTestUser('typed-meta-other');
  bucketId = (await getDb().bucket.create({ data: { ownerId: owner.id, name: 'invoices' } })).id;
  await setBucketMetaSchema({
    ownerId: owner.id,
    bucketId,
    schema: {
      fields: [
        { name: 'total_amount', type: 'number', required: true },
        { name: 'issued', type: 'date', required: true },
      ],
    },
  });
  for (const [name, text] of Object.entries(invoices)) ids[name] = await ingestInto(owner.id, bucketId, name, text);
  // Outside the bucket: mentions invoices over 1000 in 2023 but has no typed values.
  ids.loose = await ingestInto(
    owner.id,
    null,
    'notes.md',
    '# Notes on invoices\n\nInvoices over 1000 issued in 2023 need a second approval.\n',
  );
}, 120_000);

afterAll(async () => {
  await h.close();
});

describe('typed metadata per bucket', () => {
  it('extracts typed values at ingest with their evidence', async () => {
    const a = await getDocumentTypedMeta({ ownerId: owner.id, documentId: ids['inv-a.md'] ?? '' });
    expect(a.meta.values).toEqual({ total_amount: 1500, issued: '2023-03-02' });
    expect(a.meta.evidence.total_amount).toMatchObject({ source: 'pattern', quote: 'Total amount: $1,500.00' });
    const c = await getDocumentTypedMeta({ ownerId: owner.id, documentId: ids['inv-c.md'] ?? '' });
    expect(c.meta.values).toEqual({ total_amount: 2400, issued: '2022-11-20' });
    const d = await getDocumentTypedMeta({ ownerId: owner.id, documentId: ids['inv-d.md'] ?? '' });
    expect(d.meta.values).toEqual({ total_amount: 1200.5, issued: '2023-12-31' });
  });

  it('validates hand edits against the schema, keeps them over re-extraction, and hides them from other owners', async () => {
    const id = ids['inv-b.md'] ?? '';
    await expect(
      setDocumentTypedValues({ ownerId: owner.id, documentId: id, values: { total: 5 }, evidence: {}, replace: true }),
    ).rejects.toThrow(/Unknown field "total"/);
    await expect(
      setDocumentTypedValues({
        ownerId: owner.id,
        documentId: id,
        values: { total_amount: 'lots', issued: '2023-05-10' },
        evidence: {},
        replace: true,
      }),
    ).rejects.toThrow(/total_amount must be a number/);
    await expect(
      setDocumentTypedValues({
        ownerId: owner.id,
        documentId: id,
        values: { issued: '2023-05-10' },
        evidence: {},
        replace: true,
      }),
    ).rejects.toThrow(/total_amount is required/);
    const other404 = await getDocumentTypedMeta({ ownerId: other.id, documentId: id }).catch((e: unknown) => e);
    expect(other404).toBeInstanceOf(AppError);
    expect((other404 as AppError).code).toBe('not_found:document');
  });

  it('answers "invoices over 1000 issued in 2023" citing only the matching invoices (extractive mode)', async () => {
    const events: AgentEvent[] = [];
    const result = await runAgent(
      { question: 'invoices over 1000 issued in 2023', ownerId: owner.id, mode: 'agent', style: 'concise' },
      {
        index: h.index,
        catalog: createPrismaCatalog(getDb()),
        embedder: null,
        models: { decision: null, synthesis: null, names: { decision: null, synthesis: null, embedding: null } },
      },
      (e) => events.push(e),
    );
    const plan = events.find((e) => e.type === 'plan');
    expect(plan?.type === 'plan' ? plan.filters.meta : undefined).toEqual([
      { field: 'total_amount', type: 'number', op: '>', values: [1000] },
      { field: 'issued', type: 'date', op: 'between', values: ['2023-01-01', '2023-12-31'] },
    ]);
    const cited = new Set(result.citations.map((c) => c.documentId));
    expect(cited.size).toBeGreaterThan(0);
    const allowed = new Set([ids['inv-a.md'], ids['inv-d.md']]);
    expect([...cited].every((id) => allowed.has(id))).toBe(true);
  });

  it('refuses a typed filter on an unknown field or of the wrong type with the valid fields named', async () => {
    const question = 'invoices';
    const constraints = analyzeConstraints(question);
    const catalog = createPrismaCatalog(getDb());
    const buckets = await catalog.listBuckets(owner.id);
    const state = createAgentState({
      ownerId: owner.id,
      question,
      constraints,
      plan: defaultPlan(question, constraints, buckets, 'concise'),
      limits: resolveLimits(),
    });
    const tools = createTools({
      ownerId: owner.id,
      index: h.index,
      catalog,
      embedder: null,
      state,
      buckets,
      baseFilters: {},
      now: () => performance.now(),
      embedTimeoutMs: 1000,
    });
    const search = tools.get('search_text');
    const unknown = await search?.run(
      { tool: 'search_text', query: 'invoice', filters: { meta: [{ field: 'amount', op: '>', value: 1 }] } },
      'c1',
    );
    expect(unknown).toMatchObject({ ok: false, error: { code: 'BAD_FILTER' } });
    expect(unknown?.forModel).toContain('total_amount (number), issued (date)');
    const wrongType = await search?.run(
      { tool: 'search_text', query: 'invoice', filters: { meta: [{ field: 'issued', op: '>', value: 'soon' }] } },
      'c2',
    );
    expect(wrongType).toMatchObject({ ok: false, error: { code: 'BAD_FILTER' } });
    const good = await search?.run(
      {
        tool: 'search_text',
        query: 'invoice total',
        filters: { meta: [{ field: 'total_amount', op: 'between', value: [2000, 2500] }] },
      },
      'c3',
    );
    expect(good).toMatchObject({ ok: true });
    expect(good?.forModel).toContain('inv-c.md');
    expect(good?.forModel).not.toMatch(/inv-[abde]\.md/);
  });

  it('reads values from documents ingested before their bucket declared the schema', async () => {
    const later = (await getDb().bucket.create({ data: { ownerId: owner.id, name: 'receipts' } })).id;
    const id = await ingestInto(
      owner.id,
      later,
      'r1.md',
      '# Receipt R-77\n\nPaid on 14 July 2021.\n\nAmount due: EUR 42.10\n',
    );
    expect((await getDocumentTypedMeta({ ownerId: owner.id, documentId: id })).meta.values).toEqual({});
    await setBucketMetaSchema({
      ownerId: owner.id,
      bucketId: later,
      schema: {
        fields: [
          { name: 'paid_on', type: 'date', required: false },
          { name: 'amount', type: 'number', required: false },
          { name: 'receipt_no', type: 'string', required: false, pattern: 'R-\\d+' },
        ],
      },
    });
    expect(await extractBucketTypedValues({ ownerId: other.id, bucketId: later }, { index: h.index })).toBe(0);
    expect(await extractBucketTypedValues({ ownerId: owner.id, bucketId: later }, { index: h.index })).toBe(1);
    expect((await getDocumentTypedMeta({ ownerId: owner.id, documentId: id })).meta.values).toEqual({
      paid_on: '2021-07-14',
      amount: 42.1,
      receipt_no: 'R-77',
    });
    // The re-extracted values reached the index: a pushed-down filter finds the receipt.
    const found = await documentsMatching(owner.id, [{ field: 'amount', type: 'number', op: '=', values: [42.1] }]);
    expect(found).toEqual(new Set([id]));
  });

  it('runs typed filters inside the chunk index, owner-scoped, following hand edits and bucket moves', async () => {
    const over1000in2023: MetaFilter[] = [
      { field: 'total_amount', type: 'number', op: '>', values: [1000] },
      { field: 'issued', type: 'date', op: 'between', values: ['2023-01-01', '2023-12-31'] },
    ];
    const a = ids['inv-a.md'] ?? '';
    const b = ids['inv-b.md'] ?? '';
    const d = ids['inv-d.md'] ?? '';
    expect(await documentsMatching(owner.id, over1000in2023)).toEqual(new Set([a, d]));
    // Every chunk of a matching document, and none of the others.
    const hits = await h.index.search({
      ownerId: owner.id,
      query: 'invoice acme supplies total amount',
      mode: 'keyword',
      topK: 100,
      filters: { meta: over1000in2023 },
    });
    const chunkCount = async (documentId: string) =>
      await getDb().chunk.count({ where: { ownerId: owner.id, documentId } });
    expect(hits.length).toBe((await chunkCount(a)) + (await chunkCount(d)));
    // Another owner's search with the same filter sees nothing of this owner.
    expect(await documentsMatching(other.id, over1000in2023)).toEqual(new Set());

    // A hand edit: inv-b (800) becomes 5000, and matches at once.
    await setDocumentTypedValues({
      ownerId: owner.id,
      documentId: b,
      values: { total_amount: 5000, issued: '2023-05-10' },
      evidence: {},
      replace: true,
    });
    await syncIndexedTypedValues({ ownerId: owner.id, documentId: b }, { index: h.index });
    expect(await documentsMatching(owner.id, over1000in2023)).toEqual(new Set([a, b, d]));

    // A bucket move: inv-a leaves the bucket, so its typed values no longer count (as in the catalog).
    await updateDocument({ ownerId: owner.id, id: a, bucketId: null }, { index: h.index });
    expect(await documentsMatching(owner.id, over1000in2023)).toEqual(new Set([b, d]));
    const catalog = createPrismaCatalog(getDb());
    expect(new Set(await catalog.findDocumentIdsByMeta(owner.id, undefined, over1000in2023))).toEqual(new Set([b, d]));
    // ...and moved back, they count again.
    await updateDocument({ ownerId: owner.id, id: a, bucketId }, { index: h.index });
    expect(await documentsMatching(owner.id, over1000in2023)).toEqual(new Set([a, b, d]));
  });
});

describe('chunks indexed before typed values were stored in the index', () => {
  it('get their values copied in once per data folder, after which pushed-down filters find them', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'typed-backfill-'));
    // A document whose values reached the database but not its chunks, as an index written before 2026-11-24 has.
    const old = await ingestInto(owner.id, bucketId, 'inv-old.md', '# Invoice INV-0999\n\nACME Supplies\n');
    await setDocumentTypedValues({
      ownerId: owner.id,
      documentId: old,
      values: { total_amount: 4321, issued: '2023-07-07' },
      evidence: {},
      replace: true,
    });
    const july2023: MetaFilter[] = [{ field: 'issued', type: 'date', op: '=', values: ['2023-07-07'] }];
    expect(await documentsMatching(owner.id, july2023)).toEqual(new Set());

    const lines: string[] = [];
    const first = await backfillTypedIndexOnce({ dataDir, deps: { index: h.index }, log: (l) => lines.push(l) });
    expect(first.ran).toBe(true);
    expect(first.failed).toBe(0);
    expect(first.documents).toBeGreaterThanOrEqual(1);
    expect(await documentsMatching(owner.id, july2023)).toEqual(new Set([old]));
    // Another owner's filter still sees none of it.
    expect(await documentsMatching(other.id, july2023)).toEqual(new Set());
    // Once per data folder: the marker makes the next start skip it.
    expect(await backfillTypedIndexOnce({ dataDir, deps: { index: h.index } })).toEqual({
      ran: false,
      documents: 0,
      failed: 0,
    });
    rmSync(dataDir, { recursive: true, force: true });
  });
});

/** Documents with a chunk passing the typed filters, by a pushed-down search in every mode the index runs here. */
async function documentsMatching(ownerId: string, meta: MetaFilter[]): Promise<Set<string>> {
  const hits = await h.index.search({
    ownerId,
    query: 'invoice receipt acme supplies total amount paid',
    mode: 'keyword',
    topK: 200,
    filters: { meta },
  });
  return new Set(hits.map((hit) => hit.documentId));
}
