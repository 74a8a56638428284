import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type * as EmbeddedIndexModule from '@/lib/retrieval/embedded-chunk-index';
import type { EmbeddedChunkIndexOptions } from '@/lib/retrieval/embedded-chunk-index';
import type { IndexedChunk, SearchRequest } from '@/lib/retrieval/types';
import * as v3 from '@/test/support/retrieval/analyzer-v3';
import { makeContractChunk } from '@/test/support/retrieval/contract';

/**
 * A keyword index written by analyser version 3 is rebuilt in the background by the current analyser: the old
 * index answers meanwhile (exactly, for text without the scripts version 4 changed), writes made during the rebuild
 * reach the new generation, a rebuild cut short between batches resumes on the next open, and the swap is seen by
 * later queries.
 */

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-rebuild-'));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
afterEach(() => {
  vi.doUnmock('@/lib/retrieval/analyzer');
  vi.resetModules();
});

const EN = 'owner-en';
const ZH = 'owner-zh';
const REPORT = '一、主要会计数据和财务指标 营业收入（元） 4,755,785.11 公司负责人刘道骐、主管会计工作负责人';
const WORDS = ['pump', 'valve', 'filter', 'invoice', 'revenue', 'frost', 'casing', 'priming', 'warranty', 'bolt'];

/** 48 English chunks over 12 documents with varied term frequencies and lengths. */
function englishChunks(): IndexedChunk[] {
  return Array.from({ length: 48 }, (_, i) =>
    makeContractChunk({
      ownerId: EN,
      documentId: `en-doc-${i % 12}`,
      chunkId: `en-${i}`,
      index: i,
      text: Array.from(
        { length: 6 + (i % 7) },
        (_, j) => `${WORDS[(i * 3 + j * 7) % WORDS.length]} ${j % 3 === 0 ? 'maintenance' : 'check'}`,
      ).join(' '),
      contextPrefix: i % 5 === 0 ? 'Pump manual' : '',
      tags: i % 2 === 0 ? ['even'] : [],
    }),
  );
}

function chineseChunks(): IndexedChunk[] {
  return [
    makeContractChunk({ ownerId: ZH, documentId: 'report', chunkId: 'report-1', text: REPORT, language: 'und' }),
    ...Array.from({ length: 29 }, (_, i) =>
      makeContractChunk({
        ownerId: ZH,
        documentId: `zh-other-${i % 5}`,
        chunkId: `zh-other-${i}`,
        text: `Quarterly revenue of 2018, note ${i} ${WORDS[i % WORDS.length]}`,
      }),
    ),
  ];
}

async function loadIndexModule(): Promise<typeof EmbeddedIndexModule> {
  vi.resetModules();
  return import('@/lib/retrieval/embedded-chunk-index');
}

/** Writes `chunks` into a new index folder with the frozen version-3 analyser in place of the current one. */
async function writeVersion3Index(dir: string, chunks: IndexedChunk[]): Promise<void> {
  vi.doMock('@/lib/retrieval/analyzer', async (importOriginal) => ({
    ...(await importOriginal<typeof import('@/lib/retrieval/analyzer')>()),
    ANALYZER_VERSION: 3,
    analyze: v3.analyze,
    analyzeForIndex: v3.analyzeForIndex,
    analyzeQueryTerms: v3.analyzeQueryTerms,
  }));
  const old = await (await loadIndexModule()).createEmbeddedChunkIndex({ dir });
  await old.upsert(chunks);
  await old.close();
  vi.doUnmock('@/lib/retrieval/analyzer');
}

/** Opens with the current analyser; the rebuild writes batches of 8 chunks and waits on `gate` after each. */
async function openCurrent(dir: string, gate: Gate, extra: Partial<EmbeddedChunkIndexOptions> = {}) {
  return (await loadIndexModule()).createEmbeddedChunkIndex({
    dir,
    rebuild: { batchChunks: 8, cpuShare: 1, afterBatch: (done) => gate.pass(done) },
    ...extra,
  });
}

/** Holds the rebuild after a batch until released; records the progress reported after each batch. */
class Gate {
  readonly seen: number[] = [];
  private release: (() => void) | null = null;
  private held: Promise<void> | null = null;
  private reached: (() => void) | null = null;
  readonly arrived: Promise<void>;
  constructor(private readonly holdAfter: number) {
    this.arrived = new Promise((resolve) => {
      this.reached = resolve;
    });
  }
  async pass(done: number): Promise<void> {
    this.seen.push(done);
    if (this.seen.length !== this.holdAfter) return;
    this.held = new Promise((resolve) => {
      this.release = resolve;
    });
    this.reached?.();
    await this.held;
  }
  open(): void {
    this.release?.();
  }
}

function manifestVersion(dir: string): number {
  const kw = fs.readdirSync(dir).find((name) => name.endsWith('.kw') && name.includes('owner_'));
  if (!kw) throw new Error('no keyword folder');
  return JSON.parse(fs.readFileSync(path.join(dir, kw, 'MANIFEST'), 'utf8')).analyzer;
}

function nextFolders(dir: string): string[] {
  return fs.readdirSync(dir).filter((name) => name.endsWith('.kw-next'));
}

type Index = EmbeddedIndexModule.EmbeddedChunkIndex;
const request = (ownerId: string, query: string, extra: Partial<SearchRequest> = {}): SearchRequest => ({
  ownerId,
  query,
  mode: 'keyword',
  topK: 10,
  ...extra,
});
const ranked = async (index: Index, ownerId: string, query: string, extra: Partial<SearchRequest> = {}) =>
  (await index.search(request(ownerId, query, extra))).map((hit) => [hit.chunkId, hit.score] as const);
const ids = async (index: Index, ownerId: string, query: string) =>
  (await index.search(request(ownerId, query))).map((hit) => hit.chunkId);

async function rebuilt(index: Index, ownerId: string): Promise<void> {
  await vi.waitFor(async () => expect((await index.keywordIndexState?.(ownerId))?.rebuilding).toBe(false), {
    timeout: 60_000,
    interval: 20,
  });
}

const QUERIES = ['pump maintenance', 'valve', 'invoice revenue check', 'frost casing', 'warranty bolt priming'];

describe('a keyword index of analyser version 3 rebuilt in the background', () => {
  it('answers during the rebuild, exactly for text without the changed scripts, and swaps the new one in', async () => {
    const dir = path.join(root, 'answers');
    await writeVersion3Index(dir, englishChunks());
    const gate = new Gate(2);
    const index = await openCurrent(dir, gate);
    // The first query does not wait for the rebuild: it starts, and the owner's query is answered.
    const started = performance.now();
    const during = await Promise.all(QUERIES.map((query) => ranked(index, EN, query, { filters: { tags: ['even'] } })));
    expect(performance.now() - started).toBeLessThan(5_000);
    await gate.arrived;
    expect(await index.keywordIndexState?.(EN)).toEqual({ rebuilding: true, done: 16 });
    const held = await Promise.all(QUERIES.map((query) => ranked(index, EN, query, { filters: { tags: ['even'] } })));
    expect(held).toEqual(during);
    expect(manifestVersion(dir)).toBe(3);
    gate.open();
    await rebuilt(index, EN);
    expect(manifestVersion(dir)).toBe(4);
    expect(nextFolders(dir)).toEqual([]);
    // Exact: the same hits and scores from the new generation as from the old one.
    const after = await Promise.all(QUERIES.map((query) => ranked(index, EN, query, { filters: { tags: ['even'] } })));
    expect(after).toEqual(during);
    expect(during.flat().length).toBeGreaterThan(10);
    await index.close();
    // And it persists: the next open serves the new generation, nothing left to rebuild.
    const reopened = await openCurrent(dir, new Gate(0));
    expect(await reopened.keywordIndexState?.(EN)).toEqual({ rebuilding: false });
    expect(await ranked(reopened, EN, 'valve', { filters: { tags: ['even'] } })).toEqual(during[1]);
    await reopened.close();
  });

  it('keeps every write made during the rebuild: upserts, deletes and attribute changes reach the new generation', async () => {
    const dir = path.join(root, 'writes');
    await writeVersion3Index(dir, chineseChunks());
    const gate = new Gate(1);
    const index = await openCurrent(dir, gate);
    await index.countChunks(ZH); // opens the owner: the rebuild starts
    await gate.arrived;
    const added = [
      makeContractChunk({ ownerId: ZH, documentId: 'late', chunkId: 'late-en', text: 'Late ingest about turbines' }),
      makeContractChunk({
        ownerId: ZH,
        documentId: 'late',
        chunkId: 'late-zh',
        text: '董事会决议公告 第三季度报告',
        language: 'und',
      }),
    ];
    await index.upsert(added);
    await index.deleteDocument(ZH, 'zh-other-1');
    await index.updateDocumentAttributes(ZH, 'zh-other-2', {
      bucketId: 'moved',
      mime: 'text/plain',
      filename: 'moved.txt',
      title: null,
      documentDate: null,
      tags: ['moved'],
      fields: {},
    });
    // Visible at once, from the old index; a Chinese query meanwhile may be incomplete (the old index holds the
    // report's Han run as one term), and the state says so.
    expect(await ids(index, ZH, 'turbines')).toEqual(['late-en']);
    expect(await ids(index, ZH, '营业收入是多少?')).not.toContain('report-1');
    const deletedIds = chineseChunks()
      .filter((chunk) => chunk.documentId === 'zh-other-1')
      .map((chunk) => chunk.chunkId);
    expect((await ids(index, ZH, 'Quarterly revenue')).some((id) => deletedIds.includes(id))).toBe(false);
    expect((await index.keywordIndexState?.(ZH))?.rebuilding).toBe(true);
    gate.open();
    await rebuilt(index, ZH);
    // After the swap: nothing lost, nothing resurrected.
    expect(await ids(index, ZH, 'turbines')).toEqual(['late-en']);
    expect(await ids(index, ZH, '董事会决议')).toEqual(['late-zh']);
    // The swap is visible to later queries: the old chunks' Chinese text is found by its words.
    expect(await ids(index, ZH, '营业收入是多少?')).toContain('report-1');
    expect((await ids(index, ZH, '公司负责人是谁?'))[0]).toBe('report-1');
    expect(manifestVersion(dir)).toBe(4);
    expect(await index.countChunks(ZH)).toBe(30 + 2 - deletedIds.length);
    expect(await index.get(ZH, deletedIds)).toEqual([]);
    const moved = await index.search(request(ZH, 'Quarterly revenue', { topK: 50, filters: { tags: ['moved'] } }));
    expect(new Set(moved.map((hit) => hit.documentId))).toEqual(new Set(['zh-other-2']));
    expect(moved.length).toBe(6);
    await index.close();
  });

  it('resumes a rebuild cut short between batches, with writes made while no rebuild ran', async () => {
    const dir = path.join(root, 'resume');
    await writeVersion3Index(dir, [...chineseChunks(), ...englishChunks().map((chunk) => ({ ...chunk, ownerId: ZH }))]);
    // The rebuild dies after its third batch, as a crash between batches would (the committed batches stay).
    let batches = 0;
    const cut = await (await loadIndexModule()).createEmbeddedChunkIndex({
      dir,
      rebuild: {
        batchChunks: 8,
        cpuShare: 1,
        afterBatch: () => {
          if (++batches === 3) throw new Error('simulated crash between batches');
        },
      },
    });
    await cut.countChunks(ZH);
    await vi.waitFor(() => expect(batches).toBe(3));
    await cut.close();
    expect(manifestVersion(dir)).toBe(3);
    expect(nextFolders(dir)).toHaveLength(1);
    const [next] = nextFolders(dir);
    const partial = JSON.parse(fs.readFileSync(path.join(dir, next as string, 'store', 'MANIFEST'), 'utf8'));
    expect(partial.segments.length).toBeGreaterThan(0);

    // A process that does not rebuild (another builder holds the claim) writes meanwhile: journaled.
    const builder = path.join(dir, next as string, 'BUILDER');
    fs.writeFileSync(builder, String(process.pid));
    const writer = await openCurrent(dir, new Gate(0));
    await writer.upsert([
      makeContractChunk({ ownerId: ZH, documentId: 'between', chunkId: 'between-1', text: '年度股东大会 turbines' }),
    ]);
    // Some of this document's chunks are in the batches already committed to the new generation.
    await writer.deleteDocument(ZH, 'zh-other-2');
    expect((await writer.keywordIndexState?.(ZH))?.rebuilding).toBe(true);
    await writer.close();
    fs.rmSync(builder);

    const second = new Gate(0);
    const resumed = await openCurrent(dir, second);
    await resumed.countChunks(ZH);
    await rebuilt(resumed, ZH);
    // Resumed, not restarted: the first batch reported already holds the chunks committed before the cut.
    expect(second.seen[0]).toBeGreaterThan(3 * 8);
    expect(manifestVersion(dir)).toBe(4);
    expect(nextFolders(dir)).toEqual([]);
    expect(await ids(resumed, ZH, '股东大会')).toEqual(['between-1']);
    expect((await ids(resumed, ZH, '营业收入是多少?'))[0]).toBe('report-1');
    const gone = chineseChunks()
      .filter((chunk) => chunk.documentId === 'zh-other-2')
      .map((chunk) => chunk.chunkId);
    expect(gone).toHaveLength(6);
    expect(await resumed.countChunks(ZH)).toBe(30 + 48 + 1 - 6);
    expect(await resumed.get(ZH, gone)).toEqual([]);
    await resumed.close();
  });
});
