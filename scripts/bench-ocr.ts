/**
 * OCR throughput, measured the way the app runs it: files through `parseAndChunkFile` (the sandboxed parse
 * worker, which renders scanned PDF pages and runs tesseract.js with the installed language data).
 *
 * 1. generated pages: full letter-size pages of printed prose (200 dpi PNG, ~45 lines each), drawn with
 *    @napi-rs/canvas into a temp dir; the OCR text is checked against the drawn words (word recall);
 * 2. the corpus's scanned files: the image-only PDFs and the images of ../shared/data/documents.
 *
 *   npm run bench:ocr                        # defaults: --pages 12 --concurrency 2
 *   npm run bench:ocr -- --pages 4 --concurrency 1 --no-record
 *
 * Records ocr.pages_per_s (generated pages, wall clock), ocr.cpu_s_per_page (process CPU, all threads) and
 * ocr.word_recall in docs/figures.json.
 */

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createCanvas } from '@napi-rs/canvas';
import { parseAndChunkFile, shutdownParseWorkers } from '@/lib/ingest/sandbox';
import { recordFigures } from './figures';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '12' },
    concurrency: { type: 'string', default: '2' },
    corpus: { type: 'string', default: '/work/shared/data/documents' },
    'no-record': { type: 'boolean', default: false },
  },
});
const pages = Math.max(1, Number(values.pages));
const concurrency = Math.max(1, Number(values.concurrency));

const WORDS =
  'report council budget river station harvest quarterly revenue the of and to in museum winter garden policy contract delivery north market engine library summer invoice travel number public meeting notice record'.split(
    ' ',
  );

function prose(seed: number, lines: number): string[] {
  let x = seed * 7919 + 1;
  const next = () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x;
  };
  return Array.from({ length: lines }, () => {
    const words: string[] = [];
    while (words.join(' ').length < 70) words.push(WORDS[next() % WORDS.length] ?? 'the');
    return words.join(' ');
  });
}

async function writePage(dir: string, index: number): Promise<{ file: string; words: string[] }> {
  const canvas = createCanvas(1700, 2200);
  const context = canvas.getContext('2d');
  context.fillStyle = 'white';
  context.fillRect(0, 0, 1700, 2200);
  context.fillStyle = 'black';
  context.font = '30px serif';
  const lines = prose(index + 1, 45);
  lines.forEach((line, i) => {
    context.fillText(line, 150, 200 + i * 42);
  });
  const file = path.join(dir, `page-${index + 1}.png`);
  writeFileSync(file, await canvas.encode('png'));
  return { file, words: lines.join(' ').split(' ') };
}

async function runAll<T>(items: T[], work: (item: T) => Promise<void>): Promise<number> {
  const queue = [...items];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item);
    }),
  );
  return (performance.now() - started) / 1000;
}

function recall(expected: string[], text: string): number {
  const found = new Map<string, number>();
  for (const word of text.toLowerCase().split(/[^a-z]+/)) found.set(word, (found.get(word) ?? 0) + 1);
  let hit = 0;
  for (const word of expected) {
    const n = found.get(word) ?? 0;
    if (n > 0) {
      hit++;
      found.set(word, n - 1);
    }
  }
  return hit / expected.length;
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-ocr-'));
// Warm one worker per lane (tsx, parsers and the Tesseract model load once per worker).
const warm = await writePage(dir, 999);
await Promise.all(
  Array.from({ length: concurrency }, () => parseAndChunkFile({ path: warm.file, filename: 'warm.png' })),
);

const generated = await Promise.all(Array.from({ length: pages }, (_, i) => writePage(dir, i)));
let recalled = 0;
let failed = 0;
const cpu0 = process.cpuUsage();
const wall = await runAll(generated, async (page) => {
  const result = await parseAndChunkFile({
    path: page.file,
    filename: path.basename(page.file),
    limits: { timeoutMs: 300_000 },
  });
  if (!result.ok) {
    failed++;
    console.warn(`${page.file}: ${result.reason}`);
    return;
  }
  recalled += recall(page.words, result.parsed.units.map((u) => u.text).join('\n'));
});
const cpu = process.cpuUsage(cpu0);
const pagesPerSecond = pages / wall;
const wordRecall = recalled / Math.max(1, pages - failed);
console.log(
  `generated pages: ${pages} pages (letter, 200 dpi, ~45 lines) in ${wall.toFixed(1)} s wall = ${pagesPerSecond.toFixed(3)} pages/s ` +
    `(${(wall / pages).toFixed(1)} s/page over ${concurrency} lanes); process CPU (all threads) ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s = ${((cpu.user + cpu.system) / 1e6 / pages).toFixed(2)} CPU s/page; ` +
    `word recall ${(wordRecall * 100).toFixed(1)}%; failed ${failed}`,
);

const scanned = [
  'unstructured/pdf/loremipsum-flat.pdf',
  'unstructured/pdf/table-multi-row-column-cells.pdf',
  'pdfplumber/issue-203-decimalize.pdf',
  'unstructured/img/DA-1p.jpg',
  'unstructured/img/double-column-A.jpg',
  'unstructured/img/embedded-images-tables.jpg',
  'unstructured/img/english-and-korean.png',
  'unstructured/img/table-multi-row-column-cells.png',
].map((f) => path.join(values.corpus, f));
if (scanned.every((f) => existsSync(f))) {
  let ocrPages = 0;
  const lines: string[] = [];
  const corpusWall = await runAll(scanned, async (file) => {
    const t0 = performance.now();
    const result = await parseAndChunkFile({
      path: file,
      filename: path.basename(file),
      limits: { timeoutMs: 300_000 },
    });
    const ms = performance.now() - t0;
    const ocrUnits = result.ok ? result.parsed.units.filter((u) => typeof u.ocrConfidence === 'number') : [];
    ocrPages += ocrUnits.length;
    lines.push(
      `  ${path.relative(values.corpus, file)}: ${result.ok ? `${ocrUnits.length} OCR page(s), confidence ${ocrUnits.map((u) => u.ocrConfidence).join('/')}` : result.reason} in ${(ms / 1000).toFixed(1)} s`,
    );
  });
  console.log(
    `corpus scans: ${ocrPages} OCR pages in ${corpusWall.toFixed(1)} s wall = ${(ocrPages / corpusWall).toFixed(3)} pages/s`,
  );
  for (const line of lines.sort()) console.log(line);
}
await shutdownParseWorkers();
rmSync(dir, { recursive: true, force: true });
if (!values['no-record']) {
  recordFigures({
    'ocr.pages_per_s': { value: Number(pagesPerSecond.toFixed(3)), unit: 'pages/s', command: 'npm run bench:ocr' },
    'ocr.word_recall': { value: Number(wordRecall.toFixed(3)), unit: 'fraction', command: 'npm run bench:ocr' },
    'ocr.cpu_s_per_page': {
      value: Number(((cpu.user + cpu.system) / 1e6 / pages).toFixed(2)),
      unit: 's',
      command: 'npm run bench:ocr',
    },
  });
}
process.exit(0);
