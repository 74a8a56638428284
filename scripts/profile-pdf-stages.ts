/**
 * Where parsing a folder of PDFs spends its CPU, stage by stage, in this one thread (no sandbox, no database):
 * opening the document (pdf.js set-up, metadata), `getTextContent` per page, the same pages' text runs read by PDFium
 * (pdfium-text.ts: opening the file, then the runs; pages it leaves to pdf.js counted), the layout analysis (pdf-layout.ts),
 * the scan detection that OCR would run (an operator list for each page without a usable text layer), then the
 * product's whole `parsePdf` and the chunker on its output. With `--dump <file>` it also writes every file's
 * parsed units and chunk texts as JSON, so two versions of the parser can be compared file by file
 * (`--diff <a.json> <b.json>` prints what differs).
 *
 *   npx tsx scripts/profile-pdf-stages.ts [--folder ../shared/data/documents] [--dump out.json] [--repeat 1]
 *   npx tsx scripts/profile-pdf-stages.ts --diff before.json after.json
 */

import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { getDocumentProxy, getResolvedPDFJS } from 'unpdf';
import { chunkDocument } from '@/lib/ingest/chunker';
import { parsePdf, textLayerUsable } from '@/lib/ingest/parsers/pdf';
import { layoutPage } from '@/lib/ingest/parsers/pdf-layout';
import { PdfiumTextLayer } from '@/lib/ingest/parsers/pdfium-text';
import { PDFJS_OPTIONS } from '@/lib/ingest/parsers/pdfjs-options';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

interface Dumped {
  file: string;
  error?: string;
  units?: { page: number | null; sheet: string | null; text: string }[];
  chunks?: { page: number | null; text: string; contextPrefix: string | null }[];
}

function diff(a: string, b: string): void {
  const before = new Map((JSON.parse(readFileSync(a, 'utf8')) as Dumped[]).map((d) => [d.file, d]));
  const after = new Map((JSON.parse(readFileSync(b, 'utf8')) as Dumped[]).map((d) => [d.file, d]));
  let same = 0;
  for (const [file, x] of before) {
    const y = after.get(file);
    if (!y) {
      console.log(`${file}: missing after`);
      continue;
    }
    if (JSON.stringify(x) === JSON.stringify(y)) {
      same++;
      continue;
    }
    const units = JSON.stringify(x.units) === JSON.stringify(y.units) ? 'units same' : 'units differ';
    const xc = x.chunks ?? [];
    const yc = y.chunks ?? [];
    const changed = xc.filter((c, i) => JSON.stringify(c) !== JSON.stringify(yc[i])).length;
    console.log(
      `${file}: ${units}; chunks ${xc.length} → ${yc.length}, ${changed} differ${x.error !== y.error ? `; error ${x.error} → ${y.error}` : ''}`,
    );
  }
  console.log(`${same} of ${before.size} files identical (units and chunk texts)`);
}

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

async function main(): Promise<void> {
  if (process.argv.includes('--diff')) {
    const at = process.argv.indexOf('--diff');
    diff(process.argv[at + 1] ?? '', process.argv[at + 2] ?? '');
    return;
  }
  const folder = path.resolve(arg('folder', path.join('..', 'shared', 'data', 'documents')));
  const dumpTo = arg('dump', '');
  const repeat = Number(arg('repeat', '1'));
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.toLowerCase().endsWith('.pdf')) files.push(full);
    }
  };
  walk(folder);
  const stages = {
    open: 0,
    textContent: 0,
    pdfiumOpen: 0,
    pdfiumText: 0,
    layout: 0,
    scanDetect: 0,
    parsePdf: 0,
    chunk: 0,
  };
  const { normalizeUnicode } = await getResolvedPDFJS();
  let pages = 0;
  let leftToPdfjs = 0;
  const dumped: Dumped[] = [];
  for (let round = 0; round < repeat; round++) {
    for (const file of files) {
      const bytes = readFileSync(file);
      const name = path.relative(folder, file);
      // the stages one by one, as parsePdf runs them (OCR's operator lists only for pages without usable text)
      try {
        let t = process.cpuUsage();
        const layer = await PdfiumTextLayer.open(new Uint8Array(bytes), normalizeUnicode);
        stages.pdfiumOpen += cpuMs(t);
        for (let n = 1; layer && n <= layer.pageCount; n++) {
          t = process.cpuUsage();
          const runs = (() => {
            try {
              return layer.pageRuns(n);
            } catch {
              return null;
            }
          })();
          stages.pdfiumText += cpuMs(t);
          if (!runs && round === 0) leftToPdfjs++;
        }
        layer?.close();
        t = process.cpuUsage();
        const doc = await getDocumentProxy(new Uint8Array(bytes), PDFJS_OPTIONS);
        await doc.getMetadata().catch(() => null);
        stages.open += cpuMs(t);
        for (let n = 1; n <= doc.numPages; n++) {
          try {
            t = process.cpuUsage();
            const page = await doc.getPage(n);
            const content = await page.getTextContent();
            stages.textContent += cpuMs(t);
            t = process.cpuUsage();
            layoutPage(content.items);
            stages.layout += cpuMs(t);
            const text = content.items.map((i) => ('str' in i ? i.str : '')).join('');
            if (!textLayerUsable(text)) {
              t = process.cpuUsage();
              await page.getOperatorList().catch(() => null);
              stages.scanDetect += cpuMs(t);
            }
            page.cleanup();
          } catch {
            // counted by parsePdf below as an unreadable page
          }
          if (round === 0) pages++;
        }
        await doc.destroy();
      } catch {
        // parsePdf reports it below
      }
      // the product's parser (OCR off) and the chunker on its output
      let t = process.cpuUsage();
      try {
        const parsed = await parsePdf(new Uint8Array(bytes), { ocr: { enabled: false }, visualFlags: false });
        stages.parsePdf += cpuMs(t);
        t = process.cpuUsage();
        const chunks = chunkDocument(parsed, { filename: path.basename(file) });
        stages.chunk += cpuMs(t);
        if (round === 0)
          dumped.push({
            file: name,
            units: parsed.units.map((u) => ({ page: u.page, sheet: u.sheet, text: u.text })),
            chunks: chunks.map((c) => ({ page: c.page, text: c.text, contextPrefix: c.contextPrefix ?? null })),
          });
      } catch (error) {
        stages.parsePdf += cpuMs(t);
        if (round === 0) dumped.push({ file: name, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }
  console.log(
    `${files.length} PDFs, ${pages} pages (${leftToPdfjs} of them left to pdf.js by PDFium), ${repeat} round(s); CPU ms per round:`,
  );
  for (const [stage, ms] of Object.entries(stages)) {
    console.log(`  ${stage.padEnd(12)} ${(ms / repeat).toFixed(0).padStart(7)}`);
  }
  if (dumpTo) writeFileSync(dumpTo, JSON.stringify(dumped));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
