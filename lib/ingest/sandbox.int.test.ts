import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTextPdf } from '@/test/support/ingest/minimal-pdf';
import { parseAndChunkFile, shutdownParseWorkers } from './sandbox';
import type { IngestProgress } from './types';

const dir = mkdtempSync(path.join(os.tmpdir(), 'docuchat-sandbox-'));
afterAll(async () => {
  await shutdownParseWorkers();
  rmSync(dir, { recursive: true, force: true });
});

function write(name: string, data: string | Uint8Array): string {
  const file = path.join(dir, name);
  writeFileSync(file, data);
  return file;
}

/** A PDF of `pages` pages of ~45 lines each. */
function bigPdf(pages: number): Uint8Array {
  return buildTextPdf(
    Array.from({ length: pages }, (_, p) =>
      Array.from(
        { length: 45 },
        (_, l) => `Page ${p + 1} line ${l + 1}: the quick brown fox jumps over the lazy dog again.`,
      ),
    ),
  );
}

describe('parseAndChunkFile', () => {
  it('parses and chunks in a worker, reporting progress for both stages', async () => {
    const file = write('small.pdf', bigPdf(5));
    const progress: IngestProgress[] = [];
    const result = await parseAndChunkFile({ path: file, filename: 'small.pdf', onProgress: (p) => progress.push(p) });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.parsed.pageCount).toBe(5);
    expect(result.document).toBe(result.parsed);
    expect(result.chunks.length).toBeGreaterThan(4);
    expect(new Set(result.chunks.map((c) => c.page))).toEqual(new Set([1, 2, 3, 4, 5]));
    expect(progress.some((p) => p.stage === 'parsing')).toBe(true);
    expect(progress.at(-1)).toEqual({ stage: 'chunking', fraction: 1 });
  });

  it('answers with the parser reason for a hostile file', async () => {
    const exe = new Uint8Array(512);
    exe.set([0x4d, 0x5a]);
    const result = await parseAndChunkFile({ path: write('invoice.pdf', exe), filename: 'invoice.pdf' });
    expect(result).toEqual({ ok: false, code: 'unsupported', reason: expect.stringMatching(/executable/) });
    const text = await parseAndChunkFile({ path: write('fake.pdf', 'plain words'), filename: 'fake.pdf' });
    expect(text).toEqual({ ok: false, code: 'malformed', reason: expect.stringMatching(/not a valid \.pdf/) });
  });

  it('bounds OCR by the same time limit, then reads scans with a fresh worker', async () => {
    const scan = '/work/shared/data/documents/unstructured/img/table-multi-row-column-cells.png';
    // Warm a worker so the limit falls inside recognition, not inside the worker's start.
    expect((await parseAndChunkFile({ path: write('warm.md', '# warm'), filename: 'warm.md' })).ok).toBe(true);
    const slow = await parseAndChunkFile({ path: scan, filename: 'scan.png', limits: { timeoutMs: 400 } });
    expect(slow).toEqual({ ok: false, code: 'timeout', reason: 'parsing timed out after 0.4s' });
    const read = await parseAndChunkFile({ path: scan, filename: 'scan.png', limits: { timeoutMs: 120_000 } });
    expect(read.ok && read.chunks.map((c) => c.text).join(' ')).toContain('Low Vision');
    expect(read.ok && read.chunks.every((c) => (c.ocrConfidence ?? 0) > 45)).toBe(true);
  }, 150_000);

  it('terminates the worker when the time limit passes', async () => {
    const file = write('slow.pdf', bigPdf(400));
    const started = performance.now();
    const result = await parseAndChunkFile({ path: file, filename: 'slow.pdf', limits: { timeoutMs: 300 } });
    expect(result).toEqual({ ok: false, code: 'timeout', reason: 'parsing timed out after 0.3s' });
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('reports running out of the worker heap as a size problem', async () => {
    // ~40 MB of CSV text: the decoded string, rows and chunks cannot fit in a 16 MB heap.
    const row = 'alpha,beta,gamma,delta,epsilon,zeta,eta,theta,iota,kappa\n';
    const file = write('huge.csv', row.repeat(700_000));
    const result = await parseAndChunkFile({
      path: file,
      filename: 'huge.csv',
      limits: { maxMemoryMb: 16, maxYoungGenerationSizeMb: 4, timeoutMs: 60_000 },
    });
    expect(result).toEqual({
      ok: false,
      code: 'out-of-memory',
      reason: 'file too large to parse within the memory limit',
    });
  });

  it('refuses a file over the size limit before reading it', async () => {
    const file = write('big.txt', 'x'.repeat(10_000));
    const result = await parseAndChunkFile({ path: file, filename: 'big.txt', limits: { maxFileBytes: 1000 } });
    expect(result).toMatchObject({ ok: false, code: 'too-large' });
  });

  it('cancels through an AbortSignal', async () => {
    const file = write('cancel.pdf', bigPdf(400));
    const controller = new AbortController();
    const pending = parseAndChunkFile({ path: file, filename: 'cancel.pdf', signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toEqual({ ok: false, code: 'aborted', reason: 'cancelled' });
    const already = new AbortController();
    already.abort();
    expect(await parseAndChunkFile({ path: file, filename: 'cancel.pdf', signal: already.signal })).toMatchObject({
      code: 'aborted',
    });
  });

  it('keeps working after failures (fresh workers replace terminated ones) and runs files in parallel', async () => {
    const files = Array.from({ length: 4 }, (_, i) => write(`p${i}.md`, `# Doc ${i}\n\nBody of document ${i}.`));
    const results = await Promise.all(files.map((file, i) => parseAndChunkFile({ path: file, filename: `p${i}.md` })));
    results.forEach((result, i) => {
      expect(result.ok).toBe(true);
      if (result.ok)
        expect(result.chunks[0]).toMatchObject({
          headingPath: `Doc ${i}`,
          text: `# Doc ${i}\n\nBody of document ${i}.`,
        });
    });
  });
});
