import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildZip } from '@/test/support/ingest/test-zip';
import { IngestError } from './errors';
import { parseDocument } from './parse';

/** Parses and returns the IngestError code, or 'ok'; anything else thrown fails the test. */
async function outcome(bytes: Uint8Array, filename: string, zipLimits?: { maxTotalUncompressedBytes: number }) {
  try {
    await parseDocument(bytes, { filename, zipLimits, ocr: { enabled: false } });
    return 'ok';
  } catch (error) {
    if (error instanceof IngestError) return error.code;
    throw error;
  }
}

function compoundFile(stream: string, size = 8192): Uint8Array {
  const bytes = new Uint8Array(size);
  bytes.set([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  bytes.set(Buffer.from(stream, 'utf16le'), 1024);
  for (let i = 2048; i < size; i++) bytes[i] = (i * 31) & 0xff;
  return bytes;
}

describe('hostile files in the new formats', () => {
  it('refuses zip bombs in every ZIP-based format before a parser inflates them', async () => {
    const big = 'A'.repeat(200_000);
    const packages: [string, Uint8Array][] = [
      [
        'bomb.pptx',
        buildZip([
          { name: 'ppt/presentation.xml', data: '<p/>' },
          { name: 'ppt/slides/slide1.xml', data: big },
        ]),
      ],
      [
        'bomb.odt',
        buildZip([
          { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', store: true },
          { name: 'content.xml', data: big },
        ]),
      ],
      [
        'bomb.epub',
        buildZip([
          { name: 'mimetype', data: 'application/epub+zip', store: true },
          { name: 'META-INF/container.xml', data: big },
        ]),
      ],
      ['bomb.zip', buildZip([{ name: 'a.txt', data: big }])],
    ];
    for (const [name, bytes] of packages) {
      expect(await outcome(bytes, name, { maxTotalUncompressedBytes: 100_000 }), name).toBe('zip-bomb');
    }
  });

  it('refuses entries that inflate to more than they declare', async () => {
    const liar = buildZip([
      { name: 'mimetype', data: 'application/vnd.oasis.opendocument.text', store: true },
      { name: 'content.xml', data: 'B'.repeat(50_000), declaredSize: 100 },
    ]);
    expect(await outcome(liar, 'liar.odt')).toMatch(/malformed|zip-bomb/);
  });

  it('fails broken legacy Office and Outlook files as malformed, never crashing', async () => {
    for (const [stream, name] of [
      ['WordDocument', 'broken.doc'],
      ['Workbook', 'broken.xls'],
      ['__substg1.0_0037001F', 'broken.msg'],
    ] as const) {
      expect(await outcome(compoundFile(stream), name), name).toMatch(/malformed|no-text/);
    }
  });

  it('survives arbitrary bytes as e-mail, RTF and archive content', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), async (body) => {
        const mail = new Uint8Array(
          Buffer.concat([Buffer.from('Subject: x\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n'), body]),
        );
        expect(typeof (await outcome(mail, 'fuzz.eml'))).toBe('string');
        const rtf = new Uint8Array(Buffer.concat([Buffer.from('{\\rtf1 '), body]));
        expect(typeof (await outcome(rtf, 'fuzz.rtf'))).toBe('string');
      }),
      { numRuns: 60 },
    );
    const rtfBin = new Uint8Array(Buffer.from('{\\rtf1 text \\bin999999999 tail}'));
    expect(await outcome(rtfBin, 'bin.rtf')).toBe('ok');
  });

  it('parses deeply nested MIME without overflowing the stack', async () => {
    const depth = 200;
    const parts: string[] = ['Subject: nested'];
    for (let i = 0; i < depth; i++) parts.push(`Content-Type: multipart/mixed; boundary=b${i}`, '', `--b${i}`);
    parts.push('Content-Type: text/plain', '', 'innermost text');
    for (let i = depth - 1; i >= 0; i--) parts.push(`--b${i}--`);
    expect(await outcome(new Uint8Array(Buffer.from(parts.join('\r\n'))), 'nested.eml')).toMatch(/ok|malformed/);
  });
});
