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
const PER_FILE_TIMEOUT_MS = 120_000;
/** OCR at a lower pixel cap than the app's default keeps this test's few scanned pages quick on 2 cores. */
// As the app runs OCR by default (lib/config.ts): English, and a low-confidence page tried again in Chinese.
const OCR = { maxPixels: 3_000_000, fallbackLanguages: ['chi_sim'] };

/** Known hostile files and the exact reason they must fail with (data/README.md). */
const EXPECTED_FAILURES: Record<string, string> = {
  'pdfplumber/password-example.pdf': 'password-protected',
  'unstructured/pdf/password.pdf': 'password-protected',
  'pypdf_sample_files/005-libreoffice-writer-password/libreoffice-writer-password.pdf': 'password-protected',
  'unstructured/password_protected.xlsx': 'password-protected',
  'pdfplumber/empty.pdf': 'empty file',
};

/**
 * Files that hold no text to read, each with the reason it must fail with: pictures without words (smileys, a
 * photo, a cartoon: their OCR is low-confidence noise in English and in Chinese, and is reported), a blank page, and
 * a PDF whose structure is broken beyond repair.
 */
const EXPECTED_NO_TEXT: Record<string, RegExp> = {
  'pypdf_sample_files/007-imagemagick-images/imagemagick-ASCII85Decode.pdf': /no extractable text/,
  'pypdf_sample_files/007-imagemagick-images/imagemagick-CCITTFaxDecode.pdf': /no extractable text/,
  'pypdf_sample_files/007-imagemagick-images/imagemagick-images.pdf': /no extractable text/,
  'pypdf_sample_files/007-imagemagick-images/imagemagick-lzw.pdf': /no extractable text/,
  'pypdf_sample_files/019-grayscale-image/grayscale-image.pdf': /no (extractable|readable) text/,
  'pypdf_sample_files/023-cmyk-image/cmyk-image.pdf': /no (extractable|readable) text/,
  'pdfplumber/issue-297-example.pdf': /no extractable text/,
  'pypdf_sample_files/017-unreadable-meta-data/unreadablemetadata.pdf': /malformed PDF/,
};

/**
 * Every other file indexes, and its chunks contain this phrase (read off the real files: their text layer, or
 * for scans and images the words printed on them). Whitespace is collapsed before matching.
 */
const PHRASES: Record<string, string> = {
  // a scanned page in Chinese: English OCR reads noise, the Chinese fallback reads it (spaces between Han removed)
  'pdfplumber/issue-203-decimalize.pdf': '行政处罚决定书',
  'MANIFEST.tsv': 'encrypted(pdfinfo)',
  'SOURCE.txt': 'scientific paper with table',
  'pdfplumber/150109DSP-Milw-505-90D.pdf': 'caring for the child',
  'pdfplumber/2023-06-20-PV.pdf': 'que son niveau d’authenticité',
  'pdfplumber/LICENSE.txt': 'The above copyright notice',
  'pdfplumber/WARN-Report-for-7-1-2015-to-03-25-2016.pdf': 'Education Group Santa Ana',
  'pdfplumber/annotations.pdf': 'Dummy PDF file',
  'pdfplumber/chelsea_pdta.pdf': 'transport actif est aussi',
  'pdfplumber/cupertino_usd_4-6-16.pdf': 'noted that the Board',
  'pdfplumber/extra-attrs-example.pdf': 'BlackRedArial',
  'pdfplumber/federal-register-2020-17221.pdf': 'the speed trim system',
  'pdfplumber/figure_structure.pdf': 'Figure 1: Chart',
  'pdfplumber/hello_structure.pdf': 'Hello World Goodbye Cruel',
  'pdfplumber/image_structure.pdf': 'Here is an image with some attributes',
  'pdfplumber/issue-1054-example.pdf': '10559 Berlin (Hausanschrift)',
  'pdfplumber/issue-13-151201DSP-Fond-581-90D.pdf': 'parent and other children',
  'pdfplumber/issue-140-example.pdf': 'CENTRAL KMA | LILYS 40% SLTD ALMND CHOC',
  'pdfplumber/issue-192-example.pdf': 'Aabbaw-ag Aaabab Agabaa',
  'pdfplumber/issue-316-example.pdf': 'with relevant coping strategies',
  'pdfplumber/issue-33-lorem-ipsum.pdf': 'Neque labo | Aliquam qu | Quaerat ip',
  'pdfplumber/issue-336-example.pdf': '路段交通量 Q（peu/d） | 大型车比例 u（%）',
  'pdfplumber/issue-461-example.pdf': '单核细胞计数(MON#) | 仪器法 | 0.25 | E+9/L | [0.1-0.6]',
  'pdfplumber/issue-463-example.pdf': 'trabajando para recolectar nuestra',
  'pdfplumber/issue-466-example.pdf': 'Check for last line',
  'pdfplumber/issue-53-example.pdf': 'JAC, RAC and HAC',
  'pdfplumber/issue-598-example.pdf': 'robots that walk among',
  'pdfplumber/issue-67-example.pdf': '重要事项概述 | 披露日期',
  'pdfplumber/issue-71-duplicate-chars-2.pdf': 'pH Fréquence Signes',
  // the file draws each glyph twice over itself: PDFium reads it once (pdf.js gave '证书证书 语言能力语言能力 …')
  'pdfplumber/issue-71-duplicate-chars.pdf': '证书 语言能力 英语 读写能力',
  'pdfplumber/issue-842-example.pdf': 'ANHUI ANLI ARTIFICIAL LEATHER',
  'pdfplumber/issue-848.pdf': 'the other cops are',
  'pdfplumber/issue-90-example.pdf': 'Program Components Factor Skating Skills',
  'pdfplumber/issue-912.pdf': 'Being Payment against bill',
  'pdfplumber/issue-948.zip': 'dummy.pdf',
  'pdfplumber/issue-982-example.pdf': 'separate the general style',
  // two words set apart in one string: PDFium's reading separates them (pdf.js ran them together)
  'pdfplumber/issue-987-test.pdf': 'Big Small Text Text',
  'pdfplumber/la-precinct-bulletin-2014-p1.pdf': 'JUDGE-SUPERIOR COURT',
  'pdfplumber/line-char-render-example.pdf': 'second line third line',
  // A scanned page whose text layer is only the date digits: OCR (Chinese fallback) reads the page.
  'pdfplumber/malformed-from-issue-932.pdf': '重庆万州经济技术开发',
  'pdfplumber/mcid_example.pdf': 'Figure 1: Chart',
  'pdfplumber/nics-background-checks-2015-11-rotated.pdf': 'State / Territory | Permit | Handgun | Long Gun',
  'pdfplumber/nics-background-checks-2015-11.pdf': 'State / Territory | Permit | Handgun | Long Gun',
  'pdfplumber/pdf_structure.pdf': 'Excepteur sint occaecat cupidatat',
  'pdfplumber/pdffill-demo.pdf': 'Tool for Basic Shapes',
  // Needs the predefined CJK CMaps (GBK-EUC-H) that pdfjs-options.ts makes readable.
  'pdfplumber/pr-136-example.pdf': '浙江菲达环保科技股份有限公司',
  'pdfplumber/pr-138-example.pdf': 'Only loans are based',
  'pdfplumber/pr-88-example.pdf': 'Defense Advanced Research Projects',
  'pdfplumber/scotus-transcript-p1.pdf': 'The above-entitled matter came',
  'pdfplumber/senate-expenditures.pdf': 'AIRFARE FOR SEN HAWLEY',
  'pdfplumber/table-curves-example.pdf': 'and lymphatic system disorders',
  'pdfplumber/test-punkt.pdf': 'Algorithms [2, 3]',
  'pdfplumber/word365_structure.pdf': 'Lorem ipsum dolor sit',
  'pypdf_sample_files/001-trivial/minimal-document.pdf': 'sea taki- mata sanctus',
  'pypdf_sample_files/002-trivial-libre-office-writer/002-trivial-libre-office-writer.pdf': 'sea takimata sanctus est',
  'pypdf_sample_files/002-trivial-libre-office-writer/source.odt': 'sea takimata sanctus est',
  'pypdf_sample_files/003-pdflatex-image/pdflatex-image.pdf': 'sea takimata sanctus est',
  'pypdf_sample_files/004-pdflatex-4-pages/pdflatex-4-pages.pdf': 'This text should contain',
  'pypdf_sample_files/005-libreoffice-writer-password/README.md': '`openpassword` * `permissionpassword`',
  'pypdf_sample_files/005-libreoffice-writer-password/source.odt': 'sea takimata sanctus est',
  'pypdf_sample_files/006-pdflatex-outline/pdflatex-outline.pdf': 'words should match the',
  'pypdf_sample_files/007-imagemagick-images/README.md': 'convert -compress none',
  'pypdf_sample_files/008-reportlab-inline-image/README.md': '[Sebastian Krause](https://github.com/sekrause) for',
  'pypdf_sample_files/008-reportlab-inline-image/inline-image.pdf': 'Test',
  'pypdf_sample_files/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf': 'ist die konvexe Hülle',
  'pypdf_sample_files/010-pdflatex-forms/pdflatex-forms.pdf': 'Check Submit',
  'pypdf_sample_files/011-google-doc-document/google-doc-document.pdf': 'one-- and preferably only',
  'pypdf_sample_files/012-libreoffice-form/libreoffice-form.odt': 'Example for a Form',
  'pypdf_sample_files/012-libreoffice-form/libreoffice-form.pdf': 'First Name Last Name',
  'pypdf_sample_files/013-reportlab-overlay/reportlab-overlay.pdf': 'Bar Fingerprint: asdfSa2123',
  'pypdf_sample_files/014-outlines/README.md': 'The edits were made',
  'pypdf_sample_files/014-outlines/mistitled_outlines_example.pdf': 'words should match the',
  'pypdf_sample_files/015-arabic/README.md': 'written with ASCII space',
  'pypdf_sample_files/015-arabic/habibi-oneline-cmap.pdf': 'habibi',
  'pypdf_sample_files/015-arabic/habibi-rotated.pdf': 'habibi',
  'pypdf_sample_files/015-arabic/habibi.pdf': 'habibi',
  'pypdf_sample_files/016-libre-office-link/libre-office-link.pdf': 'a link to',
  'pypdf_sample_files/018-base64-image/base64image.pdf': 'Trial Version of',
  'pypdf_sample_files/020-xmp/output_with_metadata_pymupdf.pdf': 'Hello, World!',
  'pypdf_sample_files/021-pdfa/README.md': 'a PDF/A-1B compatible',
  'pypdf_sample_files/021-pdfa/crazyones-pdfa.pdf': 'the only thing you',
  'pypdf_sample_files/022-pdfkit/pdfkit.pdf': 'Foo: bar',
  'pypdf_sample_files/024-annotations/annotated_pdf.pdf': 'Not highlighted',
  'pypdf_sample_files/025-attachment/with-attachment.pdf': 'sea taki- mata sanctus',
  'pypdf_sample_files/026-latex-multicolumn/multicolumn.pdf': 'justo vitae lacus tincidunt',
  'pypdf_sample_files/LICENSE': 'rights other than copyright',
  'pypdf_sample_files/README.md': 'those PDF files with',
  'pypdf_sample_files/files.json': '001-trivial/minimal-document.pdf',
  'unstructured/2023-half-year-analyses-by-segment.xlsx': 'Inter-segment sales are not',
  'unstructured/LICENSE.md': 'and such Derivative Works',
  'unstructured/README.md': 'stylesheets These documents can',
  'unstructured/codeblock.md': 'Hello, World!',
  'unstructured/contains-pictures.docx': 'quis nostrud exercitation ullamco',
  'unstructured/csv-with-escaped-commas.csv': 'A | A,A',
  'unstructured/docx-hdrftr.docx': 'Main document',
  'unstructured/docx-tables.docx': 'link example Nested Table',
  'unstructured/eml/fake-email-attachment.eml': "Here's the attachments!",
  'unstructured/eml/fake-email.eml': 'This is a test email to use for unit tests',
  'unstructured/eml/fake-encrypted.eml': 'From: "Michael Elkins" <elkins@aero.org>',
  'unstructured/emoji.xlsx': '🤠😅',
  'unstructured/example-10k-1p.html': 'Interactive Data File required',
  'unstructured/example-list-items-multiple.docx': 'the printing and typesetting',
  'unstructured/example-steelJIS-datasheet-utf-16.html': 'reactors and other special',
  'unstructured/example-steelJIS-datasheet.html': 'reactors and other special',
  'unstructured/example-with-scripts.html': 'which Russia recognized Crimea',
  'unstructured/fake-doc-emphasized-text.doc': 'bold italic bold-italic example',
  'unstructured/fake-doc.rtf': 'Row 1, Cell 1 | Row 1, Cell 2',
  'unstructured/fake-email.msg': 'This is a test email to use for unit tests',
  'unstructured/fake-encrypted.msg': 'From: Michael Elkins <elkins@aero.org>',
  'unstructured/fake-html-cp1252.html': 'niño comió paella con',
  'unstructured/fake-power-point-malformed.pptx': 'Date Placeholder Test Slide',
  'unstructured/fake-power-point-table.pptx': 'Purple | Orange | Yellow',
  'unstructured/fake-power-point.pptx': 'for first bullet Use',
  'unstructured/handbook-1p.docx': 'with all duties imposed',
  'unstructured/ideas-page.html': 'You can see anomalies',
  'unstructured/img/DA-1p.jpg': 'We arrived in the dead of night',
  'unstructured/img/double-column-A.jpg': 'CIVIL SERVICE RULES',
  'unstructured/img/embedded-images-tables.jpg': 'Current Density',
  'unstructured/img/english-and-korean.png': 'RULES AND INSTRUCTIONS',
  'unstructured/img/table-multi-row-column-cells.png': 'Low Vision',
  'unstructured/language-docs/fr_olap.pdf': 'vérifiées par les opérateurs',
  'unstructured/more-than-1k-cells.xlsx': 'x | x | x',
  'unstructured/page-breaks.docx': 'break falls inside link',
  'unstructured/pdf/DA-1p.pdf': 'mage had made this',
  'unstructured/pdf/a1977-backus-p21.pdf': 'the definition and investigation',
  'unstructured/pdf/all-number-table.pdf': '1600.01',
  'unstructured/pdf/copy-protected.pdf': 'and large-scale digitization pipelines',
  'unstructured/pdf/embedded-cmap-cidfont.pdf': 'Helvetica This text uses',
  'unstructured/pdf/embedded-images-tables.pdf': 'inhibitor was porous and',
  'unstructured/pdf/failure-after-repair.pdf': 'Cancer Council Treatment Treatment',
  // each glyph drawn twice over itself: PDFium reads it once (pdf.js read 'BBOOLLDD TTEEXXTT …')
  'unstructured/pdf/fake-bold-sample.pdf': 'BOLD TEXT SAMPLE Test',
  'unstructured/pdf/figure-overlay-text.pdf': 'Name: Jane Doe',
  'unstructured/pdf/header-test-doc.pdf': 'Here is a lovely sentences',
  'unstructured/pdf/interface-config-guide-p93.pdf': 'operator’s perspective and there',
  'unstructured/pdf/invalid-pdf-structure-pdfminer-one-page.pdf': 'Enhance public-private operational collaboration',
  'unstructured/pdf/korean-text-with-tables.pdf': '삼성카드 할인이 적용된 일시불',
  'unstructured/pdf/layout-parser-paper-with-empty-pages.pdf': 'and large-scale digitization pipelines',
  'unstructured/pdf/layout-parser-paper-with-table.pdf': 'trained using the ResNet',
  'unstructured/pdf/list-item-example.pdf': 'Prototyping This module looks',
  'unstructured/pdf/loremipsum-flat.pdf': 'consectetur adipiscing elit',
  'unstructured/pdf/multi-column-2p.pdf': 'done efficiently using maximum',
  'unstructured/pdf/multi-column.pdf': 'passages that contain answers',
  'unstructured/pdf/negative-coords.pdf': 'primary data from Apple’s',
  'unstructured/pdf/pdf-bad-color-space.pdf': 'operations and value chain',
  'unstructured/pdf/pdf-with-ocr-text.pdf': 'and Hawaiian Sugar defining',
  'unstructured/pdf/reliance.pdf': "India's economic growth EXPORTS",
  'unstructured/pdf/table-multi-row-column-cells.pdf': 'Low Vision',
  'unstructured/rotated-page-90.pdf': 'Test Text Second line',
  'unstructured/sample-presentation.pptx': 'the second content slide',
  'unstructured/semicolon-delimited.csv': 'elit sed, do',
  'unstructured/simple-table.md': 'Juicy Apples | 1.99 | 739',
  'unstructured/simple.odt': 'These are a few of my favorite things',
  'unstructured/stanley-cups-utf-16.csv': 'Blues | STL',
  'unstructured/stanley-cups.csv': 'Blues | STL',
  'unstructured/stanley-cups.tsv': 'Blues | STL',
  'unstructured/tables-with-incomplete-rows.docx': 'missing cells from the',
  'unstructured/tests-example.xls': 'The student activities fee',
  'unstructured/umlauts-non-utf8.md': 'können können äöüß',
  'unstructured/umlauts-utf8.md': 'können können äöüß',
  'unstructured/vodafone.xlsx': 'Page Average foreign exchange',
  'unstructured/winter-sports.epub': 'when executed almost perfectly',
  'unstructured/xlsx-subtable-cases.xlsx': 'a | b',
};

/** Files whose text comes from OCR (every chunk carries an OCR confidence). */
const OCR_FILES = [
  'pdfplumber/issue-203-decimalize.pdf',
  'pdfplumber/malformed-from-issue-932.pdf',
  // One word of text layer beside an inline image: the page counts as a scan and is read by OCR (the word included).
  'pypdf_sample_files/008-reportlab-inline-image/inline-image.pdf',
  'unstructured/pdf/loremipsum-flat.pdf',
  'unstructured/pdf/table-multi-row-column-cells.pdf',
  'unstructured/img/DA-1p.jpg',
  'unstructured/img/double-column-A.jpg',
  'unstructured/img/embedded-images-tables.jpg',
  'unstructured/img/english-and-korean.png',
  'unstructured/img/table-multi-row-column-cells.png',
];

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
            ocr: OCR,
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
    expect(totalMs).toBeLessThan(420_000);
    for (const outcome of outcomes) expect(outcome.ms, outcome.file).toBeLessThan(PER_FILE_TIMEOUT_MS + 5_000);
    // The parsing happens in workers: the main thread only moves messages.
    expect(histogram.percentile(99) / 1e6).toBeLessThan(100);
    expect(histogram.max / 1e6).toBeLessThan(500);
  }, 480_000);

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

  it('fails the files without readable text with their reason', () => {
    for (const [file, reason] of Object.entries(EXPECTED_NO_TEXT)) {
      const outcome = outcomes.find((o) => o.file === file);
      expect(outcome, file).toBeDefined();
      if (!outcome || outcome.result.ok) {
        expect.fail(`${file} indexed but holds no readable text`);
        continue;
      }
      expect(outcome.result.reason, file).toMatch(reason);
    }
  });

  it('indexes every other file, each with its phrase', () => {
    const listed = new Set([
      ...Object.keys(EXPECTED_FAILURES),
      ...Object.keys(EXPECTED_NO_TEXT),
      ...Object.keys(PHRASES),
    ]);
    expect(outcomes.filter((o) => !listed.has(o.file)).map((o) => o.file)).toEqual([]);
    for (const [file, phrase] of Object.entries(PHRASES)) {
      const outcome = outcomes.find((o) => o.file === file);
      expect(outcome, file).toBeDefined();
      if (!outcome?.result.ok) {
        expect.fail(`${file}: ${outcome?.result.ok === false ? outcome.result.reason : 'missing'}`);
        continue;
      }
      const text = outcome.result.chunks
        .map((c) => c.text)
        .join(' ')
        .replace(/\s+/g, ' ');
      expect(text, file).toContain(phrase);
    }
    const indexed = outcomes.filter((o) => o.result.ok).length;
    expect(indexed).toBeGreaterThanOrEqual(Object.keys(PHRASES).length);
  });

  it('marks OCR text with its confidence, and only OCR text', () => {
    for (const { file, result } of outcomes) {
      if (!result.ok) continue;
      const ocr = OCR_FILES.includes(file);
      for (const chunk of result.chunks) {
        if (ocr) expect(chunk.ocrConfidence, file).toBeGreaterThanOrEqual(45);
        else expect(chunk.ocrConfidence, file).toBeNull();
      }
    }
  });

  it('returns e-mail attachments and archive members as child files', () => {
    const children = (file: string) => {
      const result = outcomes.find((o) => o.file === file)?.result;
      return result?.ok ? (result.parsed.children ?? []).map((c) => [c.filename, c.bytes.byteLength]) : null;
    };
    expect(children('pdfplumber/issue-948.zip')).toEqual([['dummy.pdf', 13264]]);
    expect(children('unstructured/eml/fake-email-attachment.eml')).toEqual([['fake-attachment.txt', 30]]);
    expect(children('unstructured/eml/fake-encrypted.eml')).toEqual([]);
    expect(children('unstructured/fake-encrypted.msg')).toEqual([]);
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
        expect(result.reason, file).toMatch(/no (extractable|readable) text|malformed PDF/);
      }
    }
  });

  it('reads encodings and drops scripts', () => {
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
