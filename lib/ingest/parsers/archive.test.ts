import { describe, expect, it } from 'vitest';
import { buildZip } from '@/test/support/ingest/test-zip';
import { parseZipArchive } from './archive';

describe('parseZipArchive', () => {
  it('returns members as child files and lists them, skipping folders, hidden files and resource forks', async () => {
    const parsed = await parseZipArchive(
      buildZip([
        { name: 'docs/', data: '' },
        { name: 'docs/a.txt', data: 'alpha' },
        { name: 'b.md', data: '# Beta' },
        { name: '.DS_Store', data: 'x' },
        { name: '__MACOSX/docs/._a.txt', data: 'x' },
      ]),
      'bundle.zip',
    );
    expect(parsed.children?.map((c) => [c.filename, Buffer.from(c.bytes).toString()])).toEqual([
      ['a.txt', 'alpha'],
      ['b.md', '# Beta'],
    ]);
    expect(parsed.units[0]?.text).toMatch(/^Archive bundle.zip contains 2 files:\n- docs\/a.txt/);
  });

  it('refuses zip bombs before inflating and archives without files', async () => {
    const bomb = buildZip([{ name: 'big.txt', data: 'x'.repeat(10_000), declaredSize: 10_000 }]);
    await expect(
      parseZipArchive(bomb, 'b.zip', { zipLimits: { maxTotalUncompressedBytes: 1000 } }),
    ).rejects.toMatchObject({
      code: 'zip-bomb',
    });
    await expect(parseZipArchive(buildZip([{ name: 'empty/', data: '' }]), 'e.zip')).rejects.toMatchObject({
      code: 'no-text',
    });
  });
});
