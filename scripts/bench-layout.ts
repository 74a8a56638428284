/**
 * What the PDF layout pass (lib/ingest/parsers/pdf-layout.ts) finds in the shared corpus and what it costs: every
 * PDF is opened with pdf.js (OCR never runs here), each page's text items are read, then laid out. Times are paired
 * in one process (same load), so the overhead share does not depend on how busy the machine is.
 *
 *   npm run bench:layout                 # prints per-file counts and the totals, records the figures
 *   npm run bench:layout -- --list       # also prints every table's first rows (to check them by eye)
 *
 * Records ingest.pdf_layout_overhead_pct (layout time / text extraction time), ingest.pdf_pages_restructured,
 * ingest.pdf_pages_with_tables, ingest.pdf_tables_found and ingest.pdf_pages_total in docs/figures.json.
 */

import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getDocumentProxy } from 'unpdf';
import { layoutPage } from '@/lib/ingest/parsers/pdf-layout';
import { PDFJS_OPTIONS } from '@/lib/ingest/parsers/pdfjs-options';
import { recordFigures } from './figures';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: process.env.CORPUS_ROOT ?? '/work/shared/data/documents' },
    list: { type: 'boolean', default: false },
    'no-record': { type: 'boolean', default: false },
  },
});

function listPdfs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? listPdfs(full) : entry.name.toLowerCase().endsWith('.pdf') ? [full] : [];
    })
    .sort();
}

let pages = 0;
let restructured = 0;
let tablePages = 0;
let tables = 0;
let extractMs = 0;
let layoutMs = 0;
for (const file of listPdfs(values.root)) {
  const name = path.relative(values.root, file);
  let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
  const t0 = performance.now();
  try {
    doc = await getDocumentProxy(new Uint8Array(readFileSync(file)), PDFJS_OPTIONS);
  } catch {
    continue; // encrypted, empty or broken: the corpus report covers these
  }
  extractMs += performance.now() - t0;
  let fileTables = 0;
  let fileRestructured = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    const t1 = performance.now();
    let items: readonly unknown[];
    try {
      const page = await doc.getPage(n);
      items = (await page.getTextContent()).items;
      page.cleanup();
    } catch {
      continue;
    }
    const t2 = performance.now();
    const layout = layoutPage(items);
    const t3 = performance.now();
    extractMs += t2 - t1;
    layoutMs += t3 - t2;
    pages++;
    const found = layout.blocks.filter((b) => b.kind === 'table');
    if (layout.restructured) fileRestructured++;
    if (found.length > 0) tablePages++;
    fileTables += found.length;
    if (values.list) {
      for (const t of found) {
        if (t.kind !== 'table') continue;
        console.log(`  ${name} p${n}: ${t.rows.length}x${t.rows[0]?.length ?? 0}`);
        for (const row of t.rows.slice(0, 3)) console.log(`    ${row.join(' | ').slice(0, 140)}`);
      }
    }
  }
  restructured += fileRestructured;
  tables += fileTables;
  if (fileRestructured > 0) {
    console.log(`${name}: ${fileRestructured} of ${doc.numPages} pages laid out anew, ${fileTables} tables`);
  }
  await doc.destroy();
}

const overhead = extractMs > 0 ? (100 * layoutMs) / extractMs : 0;
console.log(
  `\n${pages} pages: ${restructured} laid out anew (columns, turned text or tables), ${tablePages} with tables, ${tables} tables; layout ${Math.round(layoutMs)} ms = ${overhead.toFixed(1)} % of text extraction (${Math.round(extractMs)} ms)`,
);
if (!values['no-record']) {
  const command = 'npm run bench:layout';
  recordFigures({
    'ingest.pdf_layout_overhead_pct': { value: Number(overhead.toFixed(1)), unit: '%', command },
    'ingest.pdf_pages_total': { value: pages, unit: 'pages', command },
    'ingest.pdf_pages_restructured': { value: restructured, unit: 'pages', command },
    'ingest.pdf_pages_with_tables': { value: tablePages, unit: 'pages', command },
    'ingest.pdf_tables_found': { value: tables, unit: 'tables', command },
  });
}
