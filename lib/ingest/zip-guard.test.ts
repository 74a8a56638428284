import { describe, expect, it } from 'vitest';
import { buildDocx, buildZip } from '@/test/support/ingest/test-zip';
import { parseDocx } from './parsers/docx';
import { parseXlsx } from './parsers/xlsx';
import { inspectZip, titleFromCoreProperties } from './zip-guard';

describe('inspectZip', () => {
  it('passes an ordinary package and keeps the parts asked for', async () => {
    const docx = buildDocx([[null, 'hello']], { title: 'A &amp; B' });
    const result = await inspectZip(docx, { keepText: ['docProps/core.xml'] });
    expect(result.entries.map((e) => e.name)).toContain('word/document.xml');
    expect(titleFromCoreProperties(result.texts.get('docProps/core.xml'))).toBe('A &amp; B');
  });

  it('refuses more entries than the limit before inflating anything', async () => {
    const entries = Array.from({ length: 50 }, (_, i) => ({ name: `f${i}.xml`, data: '<a/>' }));
    await expect(inspectZip(buildZip(entries), { limits: { maxEntries: 20 } })).rejects.toMatchObject({
      code: 'zip-bomb',
      message: expect.stringMatching(/50 entries/),
    });
  });

  it('refuses entries whose declared size is over the limit', async () => {
    const zip = buildZip([{ name: 'word/document.xml', data: '<a/>', declaredSize: 3_000_000_000 }]);
    await expect(inspectZip(zip)).rejects.toMatchObject({ code: 'zip-bomb' });
  });

  it('refuses a real high-ratio bomb from its declared sizes', async () => {
    const zip = buildZip([{ name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(20 * 1024 * 1024, 0x41) }]);
    expect(zip.length).toBeLessThan(100_000);
    await expect(inspectZip(zip)).rejects.toMatchObject({ code: 'zip-bomb', message: expect.stringMatching(/ratio/) });
  });

  it('catches an entry that inflates to more than its header declares', async () => {
    const zip = buildZip([{ name: 'word/document.xml', data: Buffer.alloc(200_000, 0x41), declaredSize: 100 }]);
    await expect(inspectZip(zip)).rejects.toMatchObject({ code: 'malformed' });
    await expect(parseDocx(zip)).rejects.toMatchObject({ code: 'malformed' });
  });

  it('stops inflating at the total cap even when the headers are honest', async () => {
    const entries = Array.from({ length: 4 }, (_, i) => ({ name: `p${i}.xml`, data: Buffer.alloc(600_000, 0x41 + i) }));
    await expect(
      inspectZip(buildZip(entries), { limits: { maxTotalUncompressedBytes: 1_000_000, maxCompressionRatio: 1e9 } }),
    ).rejects.toMatchObject({ code: 'zip-bomb' });
  });

  it('refuses DTD and entity declarations in XML parts, in UTF-8 and UTF-16', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><w:document>&lol2;</w:document>';
    await expect(
      parseDocx(buildDocx([[null, 'x']], { extraXml: '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>' })),
    ).rejects.toMatchObject({
      code: 'xml-entities',
    });
    await expect(inspectZip(buildZip([{ name: 'xl/workbook.xml', data: laughs }]))).rejects.toMatchObject({
      code: 'xml-entities',
    });
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from(laughs, 'utf16le')]);
    await expect(inspectZip(buildZip([{ name: 'xl/sharedStrings.xml', data: utf16 }]))).rejects.toMatchObject({
      code: 'xml-entities',
    });
    await expect(parseXlsx(buildZip([{ name: 'xl/workbook.xml', data: laughs }]))).rejects.toMatchObject({
      code: 'xml-entities',
    });
  });

  it('reports garbage as a malformed container', async () => {
    await expect(inspectZip(new Uint8Array(Buffer.from('PK\u0003\u0004 not really a zip')))).rejects.toMatchObject({
      code: 'malformed',
    });
  });
});
