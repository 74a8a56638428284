import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, describe, expect, it } from 'vitest';
import { type ParseAndChunkFileResult, parseAndChunkFile, shutdownParseWorkers } from './sandbox';

/**
 * Every file of the shared documents corpus (real files from three parser projects' fixtures, some hostile on
 * purpose) goes through the sandbox: each must yield chunks with text or fail with a specific reason, in bounded
 * time, while the main thread's event loop stays responsive.
 */

const ROOT = '/work/shared/data/documents';
const CONCURRENCY = 2;
const PER_FILE_TIMEOUT_MS = 60_000;

/** Known hostile files and the exact reason they must fail with (data/README.md). */
const EXPECTED_FAILURES: Record<string, string> = {
  'pdfplumber/password-example.pdf': 'password-protected',
  'unstructured/pdf/password.pdf': 'password-protected',
  'pypdf_sample_files/005-libreoffice-writer-password/libreoffice-writer-password.pdf': 'password-protected',
  'unstructured/password_protected.xlsx': 'password-protected',
  'pdfplumber/empty.pdf': 'empty file',
  'unstructured/pdf/loremipsum-flat.pdf': 'no extractable text (scanned?)',
};

/** Formats the product does not read: they must fail as unsupported, never crash or index garbage. */
const UNSUPPORTED = /\.(docx?|xls|pptx|odt|epub|rtf|msg|eml|jpg|png|zip)$/i;

interface ManifestRow {
  pages: number | null;
  textChars: number | null;
}

function readManifest(): Map<string, ManifestRow> {
  const rows = new Map<string, ManifestRow>();
  const lines = readFileSync(path.join(ROOT, 'MANIFEST.tsv'), 'utf8').trim().split('\n').slice(1);
  for (const line of lines) {
    const [file, , , pages, , , , textChars] = line.split('\t');
    if (!file) continue;
    rows.set(file, {
      pages: pages ? Number(pages) : null,
      textChars: textChars ? Number(textChars) : null,
    });
  }
  return rows;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? listFiles(full) : [full];
    })
    .sort();
}

interface Outcome {
  file: string;
  ms: number;
  result: ParseAndChunkFileResult;
}

const outcomes: Outcome[] = [];
const histogram = monitorEventLoopDelay({ resolution: 10 });

afterAll(async () => {
  await shutdownParseWorkers();
});

describe('the documents corpus through the sandbox', () => {
  const files = listFiles(ROOT);
  const manifest = readManifest();

  it('lists the whole corpus', () => {
    expect(files.length).toBeGreaterThanOrEqual(170);
  });

  it('processes every file within bounded time while the event loop stays responsive', async () => {
    histogram.enable();
    const queue = [...files];
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let file = queue.shift(); file; file = queue.shift()) {
          const t0 = performance.now();
          const result = await parseAndChunkFile({
            path: file,
            filename: path.basename(file),
            limits: { timeoutMs: PER_FILE_TIMEOUT_MS, maxMemoryMb: 1024 },
          });
          outcomes.push({ file: path.relative(ROOT, file), ms: performance.now() - t0, result });
        }
      }),
    );
    histogram.disable();
    const totalMs = performance.now() - started;
    const ok = outcomes.filter((o) => o.result.ok).length;
    const slowest = [...outcomes].sort((a, b) => b.ms - a.ms).slice(0, 3);
    console.info(
      `[corpus] ${outcomes.length} files in ${(totalMs / 1000).toFixed(1)} s: ${ok} indexed, ${outcomes.length - ok} refused; ` +
        `event-loop delay p99 ${(histogram.percentile(99) / 1e6).toFixed(1)} ms, max ${(histogram.max / 1e6).toFixed(1)} ms; ` +
        `slowest ${slowest.map((o) => `${o.file} ${(o.ms / 1000).toFixed(1)} s`).join(', ')}`,
    );
    expect(outcomes).toHaveLength(files.length);
    expect(totalMs).toBeLessThan(240_000);
    for (const outcome of outcomes) expect(outcome.ms, outcome.file).toBeLessThan(PER_FILE_TIMEOUT_MS + 5_000);
    // The parsing happens in workers: the main thread only moves messages.
    expect(histogram.percentile(99) / 1e6).toBeLessThan(100);
    expect(histogram.max / 1e6).toBeLessThan(500);
  }, 300_000);

  it('gives every file either chunks with text or a specific reason', () => {
    for (const { file, result } of outcomes) {
      if (result.ok) {
        expect(result.chunks.length, file).toBeGreaterThan(0);
        for (const chunk of result.chunks) {
          expect(chunk.text.trim().length, file).toBeGreaterThan(0);
          const unit = result.parsed.units[chunk.unitOrdinal];
          expect(unit, file).toBeDefined();
          if (!unit) continue;
          const body = unit.text.slice(chunk.charStart, chunk.charEnd);
          expect(chunk.text, file).toBe(chunk.repeatedHeader ? `${chunk.repeatedHeader}\n${body}` : body);
          expect(chunk.tokenCount, file).toBeLessThanOrEqual(500);
        }
      } else {
        expect(result.code, `${file}: ${result.reason}`).not.toBe('internal');
        expect(result.code, `${file}: ${result.reason}`).not.toBe('timeout');
        expect(result.reason.length, file).toBeGreaterThan(8);
      }
    }
  });

  it('fails the known hostile files with their exact reasons', () => {
    for (const [file, reason] of Object.entries(EXPECTED_FAILURES)) {
      const outcome = outcomes.find((o) => o.file === file);
      expect(outcome?.result, file).toEqual(expect.objectContaining({ ok: false, reason }));
    }
  });

  it('refuses formats it does not read as unsupported, and never indexes them', () => {
    const refused = outcomes.filter((o) => UNSUPPORTED.test(o.file) && !/\.docx$/i.test(o.file));
    expect(refused.length).toBeGreaterThan(15);
    for (const { file, result } of refused) {
      expect(result.ok, file).toBe(false);
      if (!result.ok && !(file in EXPECTED_FAILURES))
        expect(result.code, `${file}: ${result.reason}`).toMatch(/unsupported|malformed/);
    }
  });

  it('indexes every PDF with extractable text per the manifest, page numbers within the page count', () => {
    for (const { file, result } of outcomes) {
      const row = manifest.get(file);
      if (!file.endsWith('.pdf') || !row || row.textChars === null) continue;
      if (row.textChars >= 200) {
        expect(result.ok, `${file}: ${result.ok ? '' : result.reason}`).toBe(true);
      }
      if (result.ok) {
        expect(result.parsed.pageCount, file).toBe(row.pages);
        for (const chunk of result.chunks) {
          expect(chunk.page, file).toBeGreaterThanOrEqual(1);
          expect(chunk.page ?? 0, file).toBeLessThanOrEqual(row.pages ?? 0);
        }
      }
      if (row.textChars === 0 && !result.ok) {
        expect(result.reason, file).toMatch(/no extractable text \(scanned\?\)|malformed PDF/);
      }
    }
  });

  it('indexes the office, web and text files it supports', () => {
    const supported = outcomes.filter(
      (o) => /\.(docx|xlsx|csv|tsv|html|md)$/i.test(o.file) && !(o.file in EXPECTED_FAILURES),
    );
    expect(supported.length).toBeGreaterThan(20);
    for (const { file, result } of supported)
      expect(result.ok, `${file}: ${result.ok ? '' : result.reason}`).toBe(true);
    const byFile = new Map(outcomes.map((o) => [o.file, o.result]));
    const cups = byFile.get('unstructured/stanley-cups-utf-16.csv');
    expect(cups?.ok && cups.chunks[0]?.text).toContain('Maple Leafs | TOR | 13');
    const umlauts = byFile.get('unstructured/umlauts-non-utf8.md');
    expect(umlauts?.ok && umlauts.chunks[0]?.text).toContain('können');
    const scripts = byFile.get('unstructured/example-with-scripts.html');
    expect(scripts?.ok && scripts.chunks.map((c) => c.text).join(' ')).not.toMatch(/function\s*\(|<script/);
    expect(statSync(path.join(ROOT, 'unstructured/stanley-cups-utf-16.csv')).size).toBeGreaterThan(0);
  });
});
