import { describe, expect, it } from 'vitest';
import { buildDocx } from '@/test/support/ingest/test-zip';
import { parseDocx } from './docx';

describe('parseDocx', () => {
  it('turns headings into sections with heading paths and keeps the title', async () => {
    const parsed = await parseDocx(
      buildDocx(
        [
          [null, 'Preface before any heading.'],
          ['Heading1', 'Install'],
          ['Heading2', 'Linux'],
          [null, 'Run the installer. Then reboot.'],
          ['Heading2', 'Mac'],
          [null, 'Use <brew> & relax.'],
          ['Heading1', 'Use'],
          [null, 'Open it.'],
        ],
        { title: 'Guide' },
      ),
    );
    expect(parsed.title).toBe('Guide');
    expect(parsed.units.map((u) => [u.headingPath, u.text])).toEqual([
      [[], 'Preface before any heading.'],
      [['Install', 'Linux'], 'Linux\n\nRun the installer. Then reboot.'],
      [['Install', 'Mac'], 'Mac\n\nUse <brew> & relax.'],
      [['Use'], 'Use\n\nOpen it.'],
    ]);
    expect(parsed.units.every((u) => u.page === null && u.sheet === null)).toBe(true);
  });

  it('keeps no markup from the document', async () => {
    const parsed = await parseDocx(buildDocx([[null, '<script>alert(1)</script> plain']]));
    expect(parsed.units[0]?.text).toBe('<script>alert(1)</script> plain');
  });

  it('fails a document without text', async () => {
    await expect(parseDocx(buildDocx([]))).rejects.toMatchObject({ code: 'no-text' });
  });

  it('reads the real fixtures', async () => {
    const { readFile } = await import('node:fs/promises');
    const bytes = new Uint8Array(await readFile('/work/shared/data/documents/unstructured/docx-tables.docx'));
    const parsed = await parseDocx(bytes);
    expect(parsed.units.map((u) => u.text).join('\n')).toMatch(/\|/);
  });

  it('makes each table a table unit (header row + located rows), like a spreadsheet sheet', async () => {
    const { readFile } = await import('node:fs/promises');
    const bytes = new Uint8Array(await readFile('/work/shared/data/documents/unstructured/docx-tables.docx'));
    const parsed = await parseDocx(bytes);
    expect(parsed.units.map((u) => u.ordinal)).toEqual(parsed.units.map((_, i) => i));
    const first = parsed.units.find((u) => u.sheet === 'Table 1');
    expect(first).toMatchObject({
      header: 'Header Col 1 | Header Col 2',
      text: 'Header Col 1 | Header Col 2\nLorem ipsum | A link example',
      rows: [{ rowNumber: 1 }],
    });
    // the prose around a table stays a text unit, in document order
    const texts = parsed.units.map((u) => (u.sheet ? `[${u.sheet}]` : u.text));
    expect(texts.slice(0, 3)).toEqual(['Simple uniform table', '[Table 1]', 'Nested Table']);
    const { chunkDocument } = await import('../chunker');
    const rowChunk = chunkDocument(parsed).find((c) => c.sheet === 'Table 2');
    expect(rowChunk?.repeatedHeader).toBe('a | >b< | c');
  });
});
