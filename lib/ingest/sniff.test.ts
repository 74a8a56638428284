import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildTextPdf } from '@/test/support/ingest/minimal-pdf';
import { buildDocx, buildZip } from '@/test/support/ingest/test-zip';
import { sniffFile } from './sniff';

/** Deterministic pseudo-random bytes (xorshift), so a failure is reproducible. */
function noise(length: number, seed = 0x9e3779b9): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed >>> 0;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out[i] = x & 0xff;
  }
  return out;
}

async function xlsxBytes(): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook.addWorksheet('S').addRow(['a', 'b']);
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

const sniff = (bytes: Uint8Array, filename: string, declaredMime?: string) =>
  sniffFile({ bytes, filename, declaredMime });

describe('sniffFile', () => {
  it('recognises real documents by content whatever their name says', async () => {
    expect(await sniff(buildTextPdf([['hi']]), 'report.pdf')).toEqual({ kind: 'pdf', mime: 'application/pdf' });
    expect(await sniff(buildTextPdf([['hi']]), 'report.txt')).toMatchObject({ kind: 'pdf' });
    expect(await sniff(buildDocx([[null, 'x']]), 'letter.docx')).toMatchObject({ kind: 'docx' });
    expect(await sniff(buildDocx([[null, 'x']]), 'misnamed.xlsx')).toMatchObject({ kind: 'docx' });
    expect(await sniff(await xlsxBytes(), 'book.xlsx', 'application/octet-stream')).toMatchObject({ kind: 'xlsx' });
  });

  it('tells docx, xlsx, pptx, OpenDocument, EPUB and plain ZIP archives apart by their entries', async () => {
    const pptx = buildZip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'ppt/presentation.xml', data: '<p/>' },
    ]);
    expect(await sniff(pptx, 'misnamed.docx')).toMatchObject({ kind: 'pptx' });
    const office = buildZip([{ name: '[Content_Types].xml', data: '<Types/>' }]);
    expect(await sniff(office, 'x.docx')).toMatchObject({ code: 'malformed' });
    expect(await sniff(buildZip([{ name: 'a.txt', data: 'x' }]), 'a.zip')).toMatchObject({ kind: 'zip' });
    expect(await sniff(buildZip([{ name: 'a.txt', data: 'x' }]), 'noext')).toMatchObject({ kind: 'zip' });
    for (const [flavour, kind] of [
      ['text', 'odt'],
      ['spreadsheet', 'ods'],
      ['presentation', 'odp'],
    ] as const) {
      const odf = buildZip([
        { name: 'mimetype', data: `application/vnd.oasis.opendocument.${flavour}` },
        { name: 'content.xml', data: '<office:document-content/>' },
      ]);
      expect(await sniff(odf, 'misnamed.bin'), flavour).toMatchObject({ kind });
    }
    const epub = buildZip([
      { name: 'mimetype', data: 'application/epub+zip' },
      { name: 'META-INF/container.xml', data: '<container/>' },
    ]);
    expect(await sniff(epub, 'book.zip')).toMatchObject({ kind: 'epub', mime: 'application/epub+zip' });
  });

  it('tells the legacy compound-file formats apart by their stream names', async () => {
    const cfb = (stream: string) => {
      const bytes = new Uint8Array(4096);
      bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
      bytes.set(Buffer.from(stream, 'utf16le'), 1024);
      return bytes;
    };
    expect(await sniff(cfb('WordDocument'), 'a.bin')).toMatchObject({ kind: 'doc' });
    expect(await sniff(cfb('Workbook'), 'a.bin')).toMatchObject({ kind: 'xls' });
    expect(await sniff(cfb('__substg1.0_0037001F'), 'a.bin')).toMatchObject({ kind: 'msg' });
    expect(await sniff(cfb('PowerPoint Document'), 'a.ppt')).toMatchObject({ code: 'unsupported' });
    expect(await sniff(cfb('Something'), 'a.bin')).toMatchObject({ code: 'unsupported' });
  });

  it('reads RTF by its signature and e-mail by its name or declared type', async () => {
    expect(await sniff(new Uint8Array(Buffer.from('{\\rtf1\\ansi hello}')), 'x.txt')).toMatchObject({ kind: 'rtf' });
    const mail = new Uint8Array(Buffer.from('From: a@example.org\r\nSubject: hi\r\n\r\nbody'));
    expect(await sniff(mail, 'note.eml')).toMatchObject({ kind: 'eml' });
    expect(await sniff(mail, 'note', 'message/rfc822')).toMatchObject({ kind: 'eml' });
  });

  it('refuses empty files', async () => {
    expect(await sniff(new Uint8Array(0), 'empty.pdf')).toEqual({ code: 'empty', error: 'empty file' });
  });

  it('refuses executables renamed as documents', async () => {
    const mz = new Uint8Array(512);
    mz.set([0x4d, 0x5a]);
    expect(await sniff(mz, 'invoice.pdf')).toMatchObject({
      code: 'unsupported',
      error: expect.stringMatching(/executable.*\.pdf/),
    });
    const elf = new Uint8Array(64);
    elf.set([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]);
    expect(await sniff(elf, 'notes.docx')).toMatchObject({ error: expect.stringMatching(/executable/) });
  });

  it('refuses random bytes under any name', async () => {
    for (const name of ['scan.pdf', 'a.docx', 'b.xlsx', 'c.txt', 'd.csv', 'noext']) {
      const result = await sniff(noise(4096), name);
      expect(result, name).toHaveProperty('error');
    }
    expect(await sniff(noise(4096), 'scan.pdf')).toMatchObject({ error: expect.stringMatching(/not a PDF/) });
  });

  it('refuses text content under a binary format name', async () => {
    expect(await sniff(new Uint8Array(Buffer.from('just text')), 'fake.pdf')).toMatchObject({ code: 'malformed' });
  });

  it('reads raster images (for OCR) whatever their name says', async () => {
    const png = new Uint8Array([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      0,
      0,
      0,
      13,
      0x49,
      0x48,
      0x44,
      0x52,
      ...new Array(64).fill(0),
    ]);
    expect(await sniff(png, 'photo.pdf')).toMatchObject({ kind: 'image', mime: 'image/png' });
  });

  it('says password-protected for encrypted Office files (CFB with an EncryptionInfo stream)', async () => {
    const cfb = new Uint8Array(4096);
    cfb.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    cfb.set(Buffer.from('EncryptionInfo', 'utf16le'), 1024);
    expect(await sniff(cfb, 'secret.xlsx')).toEqual({ code: 'password-protected', error: 'password-protected' });
  });

  it('decides text formats by extension once the bytes are text', async () => {
    const text = (s: string) => new Uint8Array(Buffer.from(s));
    expect(await sniff(text('# T\nbody'), 'a.md')).toMatchObject({ kind: 'markdown' });
    expect(await sniff(text('a,b\n1,2'), 'a.csv')).toMatchObject({ kind: 'csv', mime: 'text/csv' });
    expect(await sniff(text('a\tb\n1\t2'), 'a.tsv')).toMatchObject({ kind: 'csv' });
    expect(await sniff(text('<html><body>x</body></html>'), 'a.htm')).toMatchObject({ kind: 'html' });
    expect(await sniff(text('<!DOCTYPE html><p>x'), 'download')).toMatchObject({ kind: 'html' });
    expect(await sniff(text('plain'), 'LICENSE')).toMatchObject({ kind: 'text' });
    expect(await sniff(text('plain'), 'notes.xyz', 'text/plain')).toMatchObject({ kind: 'text' });
    expect(await sniff(text('plain'), 'notes.xyz')).toMatchObject({ code: 'unsupported' });
  });

  it('accepts UTF-16 text and text with invalid UTF-8, refuses NUL-heavy text', async () => {
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from('a,b\n1,2\n', 'utf16le')]);
    expect(await sniff(utf16, 'data.csv')).toMatchObject({ kind: 'csv' });
    expect(await sniff(new Uint8Array([0x61, 0xff, 0x62, 0xc3, 0xa9]), 'x.txt')).toMatchObject({ kind: 'text' });
    const nulHeavy = new Uint8Array(2000).fill(0x41);
    for (let i = 0; i < 2000; i += 3) nulHeavy[i] = 0;
    expect(await sniff(nulHeavy, 'x.txt')).toMatchObject({ code: 'unsupported', error: expect.stringMatching(/NUL/) });
  });

  it('reports a truncated ZIP container as malformed', async () => {
    const docx = buildDocx([[null, 'some text']]);
    expect(await sniff(docx.subarray(0, Math.floor(docx.length / 2)), 'cut.docx')).toMatchObject({ code: 'malformed' });
  });

  it('reads from a path as well as from bytes', async () => {
    const result = await sniffFile({
      path: '/work/shared/data/documents/pypdf_sample_files/001-trivial/minimal-document.pdf',
      filename: 'minimal-document.pdf',
    });
    expect(result).toMatchObject({ kind: 'pdf' });
  });
});
