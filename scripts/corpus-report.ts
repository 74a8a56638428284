/**
 * Runs every file of the shared documents corpus through the sandboxed parse + chunk step, as the app does, and
 * prints one line per file (indexed with its chunk count and OCR'd units, or the reason it was refused), then the
 * totals; child files (e-mail attachments, archive members) are parsed too and reported under their parent.
 * Records ingest.corpus_files_indexed and ingest.corpus_files_total in docs/figures.json.
 *
 *   npm run corpus:report                      # all files, 2 lanes
 *   npm run corpus:report -- --concurrency 1 --json /tmp/corpus.json
 */

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getConfig } from '@/lib/config';
import { type ParseAndChunkFileResult, parseAndChunkFile, shutdownParseWorkers } from '@/lib/ingest/sandbox';
import { recordFigures } from './figures';

const ROOT = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data', 'documents');
const { values } = parseArgs({
  options: {
    root: {
      type: 'string',
      default: process.env.CORPUS_ROOT ?? (ROOT.includes('/wt/') ? '/work/shared/data/documents' : ROOT),
    },
    concurrency: { type: 'string', default: '2' },
    json: { type: 'string' },
    'no-record': { type: 'boolean', default: false },
  },
});
const root = values.root;

function listFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? listFiles(full) : [full];
    })
    .sort();
}

interface Row {
  file: string;
  ms: number;
  ok: boolean;
  code?: string;
  reason?: string;
  kind?: string;
  chunks?: number;
  ocrUnits?: number;
  warnings?: string[];
  children?: Row[];
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'corpus-children-'));

async function run(file: string, filename: string): Promise<Row> {
  const t0 = performance.now();
  const result: ParseAndChunkFileResult = await parseAndChunkFile({
    path: file,
    filename,
    limits: { timeoutMs: 120_000, maxMemoryMb: 1024 },
    // OCR as the app runs it (languages, fallback languages, page cap from the environment)
    ocr: getConfig().ingest.ocr,
  });
  const ms = Math.round(performance.now() - t0);
  if (!result.ok) return { file: filename, ms, ok: false, code: result.code, reason: result.reason };
  const children: Row[] = [];
  for (const [i, child] of (result.parsed.children ?? []).entries()) {
    const childPath = path.join(scratch, `${i}-${path.basename(child.filename)}`);
    writeFileSync(childPath, child.bytes);
    children.push(await run(childPath, child.filename));
  }
  return {
    file: filename,
    ms,
    ok: true,
    kind: result.parsed.kind,
    chunks: result.chunks.length,
    ocrUnits: result.parsed.units.filter((u) => typeof u.ocrConfidence === 'number').length,
    warnings: result.parsed.warnings,
    children,
  };
}

const files = listFiles(root);
const queue = [...files];
const rows: Row[] = [];
const started = performance.now();
await Promise.all(
  Array.from({ length: Math.max(1, Number(values.concurrency)) }, async () => {
    for (let file = queue.shift(); file; file = queue.shift()) {
      const row = await run(file, path.basename(file));
      row.file = path.relative(root, file);
      rows.push(row);
    }
  }),
);
await shutdownParseWorkers();
rmSync(scratch, { recursive: true, force: true });
rows.sort((a, b) => a.file.localeCompare(b.file));

const line = (row: Row, indent = '') =>
  row.ok
    ? `${indent}ok   ${row.file}  ${row.kind}, ${row.chunks} chunks${row.ocrUnits ? `, ${row.ocrUnits} OCR units` : ''}, ${row.ms} ms${row.warnings?.length ? `  [${row.warnings.join('; ').slice(0, 160)}]` : ''}`
    : `${indent}FAIL ${row.file}  ${row.code}: ${row.reason}, ${row.ms} ms`;
for (const row of rows) {
  console.log(line(row));
  for (const child of row.children ?? []) console.log(line(child, '       └ '));
}
const indexed = rows.filter((r) => r.ok).length;
const byCode = new Map<string, number>();
for (const row of rows) if (!row.ok) byCode.set(row.code ?? '?', (byCode.get(row.code ?? '?') ?? 0) + 1);
/** The files the issue counts as able to index: every file but the password-protected, empty and malformed ones. */
const indexable = rows.filter(
  (r) => r.ok || !['password-protected', 'empty', 'malformed'].includes(r.code ?? ''),
).length;
console.log(
  `\n${indexed} of ${rows.length} files indexed (${indexed} of the ${indexable} that are not password-protected, empty or malformed) in ${((performance.now() - started) / 1000).toFixed(1)} s; refused: ${[...byCode].map(([c, n]) => `${c} ${n}`).join(', ')}`,
);
if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 2));
if (!values['no-record']) {
  recordFigures({
    'ingest.corpus_files_indexed': { value: indexed, unit: 'files', command: 'npm run corpus:report' },
    'ingest.corpus_files_total': { value: rows.length, unit: 'files', command: 'npm run corpus:report' },
    'ingest.corpus_files_indexable': {
      value: indexable,
      unit: 'files (all but the password-protected, empty and malformed ones)',
      command: 'npm run corpus:report',
    },
    'ingest.corpus_files_no_text': {
      value: byCode.get('no-text') ?? 0,
      unit: 'files (image-only pages in which OCR found no words above its confidence threshold)',
      command: 'npm run corpus:report',
    },
  });
}
process.exit(0);
