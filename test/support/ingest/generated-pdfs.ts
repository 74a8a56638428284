import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildTextPdf } from '@/test/support/ingest/minimal-pdf';

/**
 * Deterministic text PDFs for the ingestion benchmarks: prose-like pages (~45 lines, ~3 KB of text each) from a
 * small business vocabulary with numbers, written without a network by minimal-pdf.ts.
 */

const WORDS = (
  'contract invoice payment schedule delivery warranty clause party agreement termination notice period liability ' +
  'insurance premium policy coverage claim amount currency tax rate annual report revenue margin quarter growth ' +
  'customer supplier product service manual install configure network server storage backup security access'
).split(' ');

/** The lines of page `pageIndex` of file `fileIndex` (same arguments, same text). */
export function pageLines(fileIndex: number, pageIndex: number): string[] {
  let x = (fileIndex * 7919 + pageIndex * 104729 + 1) >>> 0;
  const next = (n: number) => {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    return (x >>> 8) % n;
  };
  return Array.from({ length: 45 }, (_, line) => {
    const words = Array.from({ length: 9 + next(4) }, () => WORDS[next(WORDS.length)] ?? 'x');
    const sentence = `${words.join(' ')} ${next(10_000)}.`;
    return line % 9 === 0
      ? `Section ${pageIndex + 1}.${line / 9 + 1} ${sentence}`
      : sentence.replace(/^./, (c) => c.toUpperCase());
  });
}

/** Writes ceil(totalPages / pagesPerFile) PDFs into `dir` and returns their paths. */
export function writeGeneratedPdfs(dir: string, totalPages: number, pagesPerFile: number): string[] {
  const files: string[] = [];
  const fileCount = Math.ceil(totalPages / pagesPerFile);
  for (let f = 0; f < fileCount; f++) {
    const pages = Math.min(pagesPerFile, totalPages - f * pagesPerFile);
    const file = path.join(dir, `generated-${String(f).padStart(5, '0')}.pdf`);
    writeFileSync(
      file,
      buildTextPdf(
        Array.from({ length: pages }, (_, p) => pageLines(f, p)),
        { title: `Generated ${f}` },
      ),
    );
    files.push(file);
  }
  return files;
}
