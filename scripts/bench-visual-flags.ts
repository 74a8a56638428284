/**
 * What flagging visual pages costs at ingest, and what it flags: one operator-list pass per page over every PDF
 * of ../shared/data/documents that pdf.js opens (lib/visual/flag-pages.ts). Prints per-file counts and writes
 * the per-page cost and the flagged share to docs/figures.json.
 * Usage: npm run bench:visual-flags
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { getDocumentProxy } from 'unpdf';
import { PDFJS_OPTIONS } from '@/lib/ingest/parsers/pdfjs-options';
import { flagVisualPages } from '@/lib/visual/flag-pages';
import { recordFigures } from './figures';

const DATA = path.resolve(import.meta.dirname, '../../shared/data/documents');

function pdfs(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return pdfs(full);
    return name.toLowerCase().endsWith('.pdf') && statSync(full).size > 0 ? [full] : [];
  });
}

async function main() {
  let pages = 0;
  let flagged = 0;
  let ms = 0;
  const reasons = new Map<string, number>();
  for (const file of pdfs(DATA).sort()) {
    let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
    try {
      doc = await getDocumentProxy(new Uint8Array(readFileSync(file)), PDFJS_OPTIONS);
    } catch {
      continue; // encrypted or broken: ingest refuses these before flagging
    }
    try {
      const chars: number[] = [];
      for (let n = 1; n <= doc.numPages; n++) {
        const page = await doc.getPage(n);
        const content = await page.getTextContent();
        chars.push(content.items.reduce((sum, item) => sum + ('str' in item ? item.str.trim().length : 0), 0));
        page.cleanup();
      }
      const started = performance.now();
      const flags = await flagVisualPages(doc, (n) => chars[n - 1] ?? 0);
      ms += performance.now() - started;
      pages += doc.numPages;
      flagged += flags.length;
      for (const f of flags) reasons.set(f.reason, (reasons.get(f.reason) ?? 0) + 1);
      console.log(`${path.relative(DATA, file)}: ${doc.numPages} pages, ${flags.length} flagged`);
    } finally {
      await doc.destroy().catch(() => undefined);
    }
  }
  const result = {
    pages,
    flagged,
    flaggedPct: Math.round((1000 * flagged) / Math.max(1, pages)) / 10,
    msPerPage: Math.round((100 * ms) / Math.max(1, pages)) / 100,
    reasons: Object.fromEntries(reasons),
  };
  console.log(JSON.stringify(result, null, 2));
  const command = 'npm run bench:visual-flags';
  recordFigures({
    'visual.flag_ms_per_page': { value: result.msPerPage, unit: 'ms', command },
    'visual.flagged_pages_pct': { value: result.flaggedPct, unit: '%', command },
  });
}

await main();
