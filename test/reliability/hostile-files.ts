import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { buildTextPdf } from '@/test/support/ingest/minimal-pdf';
import { buildZip } from '@/test/support/ingest/test-zip';

/**
 * Hostile files for issue 8, built in memory (nothing downloaded, nothing stored in the repository): compression
 * bombs in DOCX and XLSX, XML entity expansion, deeply nested and self-referencing PDF structures, a
 * 20,000-page PDF, random bytes and executables named .pdf, a 50 MB single-line text, NUL bytes, UTF-16,
 * invalid UTF-8, and hostile file names.
 */

export interface HostileFile {
  name: string;
  /** What is hostile about it (for the results table). */
  what: string;
  mime: string | null;
  /** Built lazily: some are large. */
  build(): Buffer;
  /** Where the run must end: INDEXED, FAILED, or refused at upload (any of them is acceptable when a list). */
  expect: ('INDEXED' | 'FAILED' | 'REFUSED')[];
}

const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const CONTENT_TYPES_DOCX = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const RELS_DOCX = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const CONTENT_TYPES_XLSX = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`;
const RELS_XLSX = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`;

function docx(documentXml: string | Uint8Array, declaredSize?: number): Buffer {
  return Buffer.from(
    buildZip([
      { name: '[Content_Types].xml', data: CONTENT_TYPES_DOCX },
      { name: '_rels/.rels', data: RELS_DOCX },
      { name: 'word/document.xml', data: documentXml, ...(declaredSize !== undefined ? { declaredSize } : {}) },
    ]),
  );
}

function xlsx(sheetXml: string | Uint8Array, sharedStrings: string, declaredSize?: number): Buffer {
  return Buffer.from(
    buildZip([
      { name: '[Content_Types].xml', data: CONTENT_TYPES_XLSX },
      { name: '_rels/.rels', data: RELS_XLSX },
      { name: 'xl/workbook.xml', data: WORKBOOK },
      { name: 'xl/_rels/workbook.xml.rels', data: WORKBOOK_RELS },
      { name: 'xl/sharedStrings.xml', data: sharedStrings },
      { name: 'xl/worksheets/sheet1.xml', data: sheetXml, ...(declaredSize !== undefined ? { declaredSize } : {}) },
    ]),
  );
}

const DOC_OPEN = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const W_NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const SST_OK = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>hello</t></si></sst>`;
const SHEET_OK = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>`;

/** A body of `bytes` spaces inside a valid XML wrapper: compresses about 1000:1. */
function paddedXml(head: string, tail: string, bytes: number): Uint8Array {
  const out = Buffer.alloc(head.length + bytes + tail.length, 0x20);
  out.write(head, 0, 'utf8');
  out.write(tail, head.length + bytes, 'utf8');
  return out;
}

/** A PDF from raw object bodies (1-based), with a correct xref table; `trailerExtra` is added to the trailer. */
export function rawPdf(objects: string[], trailerExtra = ''): Buffer {
  let out = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const PAGE_TEXT = (text: string) => {
  const stream = `BT /F1 12 Tf 50 700 Td (${text}) Tj ET`;
  return `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
};

function elfBytes(): Buffer {
  for (const candidate of ['/bin/ls', '/usr/bin/env', process.execPath]) {
    try {
      const fd = fs.openSync(candidate, 'r');
      const buf = Buffer.alloc(256 * 1024);
      const n = fs.readSync(fd, buf, 0, buf.length, 0);
      fs.closeSync(fd);
      if (n > 4 && buf.subarray(0, 4).toString('latin1') === '\x7fELF') return buf.subarray(0, n);
    } catch {
      // try the next one
    }
  }
  // a minimal ELF header when no binary is readable
  const b = Buffer.alloc(4096);
  Buffer.from('\x7fELF\x02\x01\x01', 'latin1').copy(b);
  return b;
}

function peBytes(): Buffer {
  const b = randomBytes(64 * 1024);
  b.write('MZ', 0, 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  return b;
}

export const HOSTILE_FILES: HostileFile[] = [
  {
    name: 'bomb.docx',
    what: 'DOCX whose document.xml inflates 1000:1 to 100 MB (honest headers)',
    mime: DOCX_MIME,
    build: () =>
      docx(
        paddedXml(
          `${DOC_OPEN}<w:document ${W_NS}><w:body><w:p><w:r><w:t>`,
          '</w:t></w:r></w:p></w:body></w:document>',
          100 * 1024 * 1024,
        ),
      ),
    expect: ['FAILED', 'REFUSED'],
  },
  {
    name: 'bomb-lying-sizes.xlsx',
    what: 'XLSX whose sheet inflates to 100 MB while its headers claim 1 KB',
    mime: XLSX_MIME,
    build: () =>
      xlsx(
        paddedXml(
          '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
          '</sheetData></worksheet>',
          100 * 1024 * 1024,
        ),
        SST_OK,
        1024,
      ),
    expect: ['FAILED', 'REFUSED'],
  },
  {
    name: 'billion-laughs.docx',
    what: 'DOCX with nested XML entities (billion laughs)',
    mime: DOCX_MIME,
    build: () => {
      const ents = ['<!ENTITY lol "lol">'];
      for (let i = 1; i <= 9; i++) ents.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
      return docx(
        `${DOC_OPEN}<!DOCTYPE lolz [${ents.join('')}]><w:document ${W_NS}><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>`,
      );
    },
    expect: ['FAILED', 'REFUSED'],
  },
  {
    name: 'xxe.xlsx',
    what: 'XLSX shared strings with an external entity (file:///etc/passwd)',
    mime: XLSX_MIME,
    build: () =>
      xlsx(
        SHEET_OK,
        `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE sst [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="1" uniqueCount="1"><si><t>&xxe;</t></si></sst>`,
      ),
    expect: ['FAILED', 'REFUSED'],
  },
  {
    name: 'nested-arrays.pdf',
    what: 'PDF with 200,000 nested arrays in its page resources',
    mime: 'application/pdf',
    build: () =>
      rawPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> /X ${'['.repeat(200_000)}${']'.repeat(200_000)} >> >>`,
        PAGE_TEXT('nested arrays page text'),
        '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      ]),
    expect: ['INDEXED', 'FAILED'],
  },
  {
    name: 'nested-dicts.pdf',
    what: 'PDF with 100,000 nested dictionaries',
    mime: 'application/pdf',
    build: () =>
      rawPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> /Deep ${'<< /A '.repeat(100_000)}1${' >>'.repeat(100_000)} >>`,
        PAGE_TEXT('nested dictionaries page text'),
        '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      ]),
    expect: ['INDEXED', 'FAILED'],
  },
  {
    name: 'self-referencing-pages.pdf',
    what: 'PDF whose page tree lists itself as a kid (cycle), /Count 1000000',
    mime: 'application/pdf',
    build: () =>
      rawPdf([
        '<< /Type /Catalog /Pages 2 0 R >>',
        '<< /Type /Pages /Kids [2 0 R 3 0 R 2 0 R] /Count 1000000 /Parent 2 0 R >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
        PAGE_TEXT('self reference page text'),
        '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
      ]),
    expect: ['INDEXED', 'FAILED'],
  },
  {
    name: 'xref-loop.pdf',
    what: 'PDF whose trailer /Prev points at itself and whose object refers to itself',
    mime: 'application/pdf',
    build: () => {
      const base = rawPdf([
        '<< /Type /Catalog /Pages 2 0 R /Self 1 0 R >>',
        '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 6 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
        '<< /Length 4 0 R >>\nstream\nxx\nendstream',
        '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
        '<< /Length 6 0 R >>\nstream\nBT /F1 12 Tf 50 700 Td (loop) Tj ET\nendstream',
      ]);
      const text = base.toString('latin1');
      const startxref = /startxref\n(\d+)/.exec(text)?.[1] ?? '0';
      return Buffer.from(text.replace('/Root 1 0 R ', `/Root 1 0 R /Prev ${startxref} `), 'latin1');
    },
    expect: ['INDEXED', 'FAILED'],
  },
  {
    name: 'pages-20000.pdf',
    what: 'valid PDF with 20,000 pages of text',
    mime: 'application/pdf',
    build: () =>
      Buffer.from(
        buildTextPdf(
          Array.from({ length: 20_000 }, (_, i) => [
            `Page ${i + 1} of the long report.`,
            `Ledger line ${i * 7} balances.`,
          ]),
        ),
      ),
    expect: ['INDEXED', 'FAILED'],
  },
  {
    name: 'random-bytes.pdf',
    what: '8 MB of random bytes named .pdf',
    mime: 'application/pdf',
    build: () => randomBytes(8 * 1024 * 1024),
    expect: ['FAILED', 'REFUSED'],
  },
  {
    name: 'program.pdf',
    what: 'an ELF executable named .pdf',
    mime: 'application/pdf',
    build: elfBytes,
    expect: ['FAILED', 'REFUSED'],
  },
  {
    name: 'setup.exe.pdf',
    what: 'a Windows PE executable header named .pdf',
    mime: 'application/pdf',
    build: peBytes,
    expect: ['FAILED', 'REFUSED'],
  },
  {
    name: 'one-line-50mb.txt',
    what: '50 MB of text on a single line',
    mime: 'text/plain',
    build: () => {
      const sentence = Buffer.from('The quarterly ledger balances against the vault register and nothing else. ');
      const out = Buffer.alloc(50 * 1024 * 1024);
      for (let i = 0; i < out.length; i += sentence.length)
        sentence.copy(out, i, 0, Math.min(sentence.length, out.length - i));
      return out;
    },
    expect: ['INDEXED', 'FAILED'],
  },
  {
    name: 'nul-bytes.txt',
    what: 'text with NUL bytes between words',
    mime: 'text/plain',
    build: () =>
      Buffer.from(
        'Warehouse\0inventory\0counts\0are\0audited\0monthly.\0\0\0 The\0auditor\0signs\0the\0report.\n'.repeat(200),
      ),
    expect: ['INDEXED', 'FAILED', 'REFUSED'],
  },
  {
    name: 'utf16le-bom.txt',
    what: 'UTF-16LE text with a byte-order mark',
    mime: 'text/plain',
    build: () =>
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from('Die Überweisung erfolgt am Monatsende. 月末に送金します。\n'.repeat(100), 'utf16le'),
      ]),
    expect: ['INDEXED'],
  },
  {
    name: 'utf16be-no-bom.txt',
    what: 'UTF-16BE text without a byte-order mark',
    mime: 'text/plain',
    build: () => Buffer.from('The shipment leaves the harbour on Friday.\n'.repeat(100), 'utf16le').swap16(),
    expect: ['INDEXED', 'FAILED', 'REFUSED'],
  },
  {
    name: 'invalid-utf8.txt',
    what: 'UTF-8 text with invalid sequences (lone continuation bytes, overlongs, 0xFF)',
    mime: 'text/plain',
    build: () =>
      Buffer.concat(
        Array.from({ length: 100 }, () =>
          Buffer.concat([
            Buffer.from('The invoice total is due in thirty days '),
            Buffer.from([0xff, 0xc0, 0xaf, 0x80, 0xed, 0xa0, 0x80]),
            Buffer.from(' and the café closes at noon.\n'),
          ]),
        ),
      ),
    expect: ['INDEXED', 'FAILED'],
  },
];

/** File names that try path traversal, markup, control and bidi characters, reserved names and sheer length. */
export const HOSTILE_NAMES: { name: string; what: string }[] = [
  { name: '../../../../etc/passwd.txt', what: 'path traversal' },
  { name: '..\\..\\windows\\system32\\notes.txt', what: 'Windows path traversal' },
  { name: '<img src=x onerror=alert(1)>.txt', what: 'markup' },
  { name: '"><script>alert(1)</script>.md', what: 'script tag' },
  { name: 'report\u202Etxt.exe', what: 'right-to-left override' },
  { name: 'nul\u0000byte.txt', what: 'NUL in the name' },
  { name: 'line\r\nbreak: x-injected: 1.txt', what: 'CR/LF (header injection)' },
  { name: 'CON.txt', what: 'Windows reserved name' },
  { name: `${'a'.repeat(5000)}.txt`, what: '5,000-character name' },
  { name: '....', what: 'only dots' },
  { name: '%2e%2e%2fetc%2fpasswd.txt', what: 'percent-encoded traversal' },
];
