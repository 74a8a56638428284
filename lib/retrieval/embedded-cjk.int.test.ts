import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type * as EmbeddedIndexModule from '@/lib/retrieval/embedded-chunk-index';
import * as v3 from '@/test/support/retrieval/analyzer-v3';
import { makeContractChunk } from '@/test/support/retrieval/contract';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-cjk-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
afterEach(() => {
  vi.doUnmock('@/lib/retrieval/analyzer');
  vi.resetModules();
});

// A real passage of the Chinese quarterly report in shared/data (pdfplumber/issue-67-example.pdf) and its question.
const REPORT = '一、主要会计数据和财务指标 营业收入（元） 4,755,785.11 公司负责人刘道骐、主管会计工作负责人';
const OWNER = 'owner-cjk';

/** The embedded index module, loaded fresh (with whatever analyser module is mocked at the time). */
async function loadIndexModule(): Promise<typeof EmbeddedIndexModule> {
  vi.resetModules();
  return import('@/lib/retrieval/embedded-chunk-index');
}

function manifestAnalyzerVersions(root: string): number[] {
  const versions: number[] = [];
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name === 'MANIFEST') {
      const manifest = JSON.parse(fs.readFileSync(path.join(entry.parentPath, entry.name), 'utf8'));
      versions.push(manifest.analyzer);
    }
  }
  return versions;
}

describe('a keyword index written by analyser version 3 (before Chinese was split into words)', () => {
  it('is detected on open, rebuilt from the table in the background, and then finds the Chinese text', async () => {
    // Write the index as version 3 did: the analyser module replaced by the frozen copy of version 3.
    vi.doMock('@/lib/retrieval/analyzer', async (importOriginal) => ({
      ...(await importOriginal<typeof import('@/lib/retrieval/analyzer')>()),
      ANALYZER_VERSION: 3,
      analyze: v3.analyze,
      analyzeForIndex: v3.analyzeForIndex,
      analyzeQueryTerms: v3.analyzeQueryTerms,
    }));
    const old = await (await loadIndexModule()).createEmbeddedChunkIndex({ dir });
    await old.upsert([
      makeContractChunk({ ownerId: OWNER, documentId: 'report', chunkId: 'report-1', text: REPORT, language: 'und' }),
      makeContractChunk({ ownerId: OWNER, documentId: 'other', chunkId: 'other-1', text: 'Quarterly revenue of 2018' }),
    ]);
    const before = await old.search({ ownerId: OWNER, query: '营业收入是多少?', mode: 'keyword', topK: 3 });
    expect(before).toEqual([]); // version 3 indexed the whole run of Han characters as one term
    await old.close();
    expect(manifestAnalyzerVersions(dir)).toEqual([3]);

    // The current analyser opens the same folder and rebuilds the index in the background
    // (embedded-rebuild.int.test.ts tests the queries answered meanwhile).
    vi.doUnmock('@/lib/retrieval/analyzer');
    const current = await (await loadIndexModule()).createEmbeddedChunkIndex({ dir });
    await current.countChunks(OWNER);
    // The default 1 s was too short on a loaded machine (the rebuild took ~10 s at load 15).
    await vi.waitFor(async () => expect((await current.keywordIndexState?.(OWNER))?.rebuilding).toBe(false), {
      timeout: 30_000,
      interval: 20,
    });
    const top = async (query: string) =>
      (await current.search({ ownerId: OWNER, query, mode: 'keyword', topK: 3 })).map((hit) => hit.chunkId);
    expect(await top('东北电气发展股份有限公司2018年第一季度营业收入是多少?')).toContain('report-1');
    expect((await top('公司负责人是谁?'))[0]).toBe('report-1');
    expect((await top('Quarterly revenue'))[0]).toBe('other-1');
    await current.close();
    expect(manifestAnalyzerVersions(dir)).toEqual([4]);
  });
});
