import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeStorageUsage, formatStorageBytes, storageUsageShare } from '@/lib/documents/quota-text';

const GB = 1024 ** 3;
const quota = { maxBytes: 5 * GB, maxDocuments: 10_000 };

describe('storage usage text', () => {
  it('reads like the Documents page shows it', () => {
    expect(describeStorageUsage({ bytes: 1.2 * GB, documents: 140 }, quota)).toBe(
      '1.2 GB of 5 GB · 140 of 10,000 documents',
    );
    expect(describeStorageUsage({ bytes: 0, documents: 0 }, { maxBytes: 300 * 1024, maxDocuments: 1 })).toBe(
      '0 bytes of 300 KB · 0 of 1 document',
    );
  });

  it.each([
    [0, '0 bytes'],
    [1, '1 byte'],
    [1023, '1,023 bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [250 * 1024, '250 KB'],
    [5 * GB, '5 GB'],
    [5 * GB - 1, '4.9 GB'],
    [2 * 1024 ** 4, '2 TB'],
  ])('formats %i bytes as %s', (bytes, text) => {
    expect(formatStorageBytes(bytes)).toBe(text);
  });

  it('never shows more than is used (rounds down), so "full" is never shown early', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 50 }), (bytes) => {
        const [value, unit] = formatStorageBytes(bytes).replace(/,/g, '').split(' ');
        const size = { TB: 1024 ** 4, GB, MB: 1024 ** 2, KB: 1024, bytes: 1, byte: 1 }[unit ?? ''];
        expect(size).toBeDefined();
        expect(Number(value) * (size ?? 0)).toBeLessThanOrEqual(bytes);
      }),
    );
  });

  it('takes the fuller of bytes and documents as the share in use, within 0..1', () => {
    expect(storageUsageShare({ bytes: GB, documents: 9_000 }, quota)).toBeCloseTo(0.9);
    expect(storageUsageShare({ bytes: 6 * GB, documents: 1 }, quota)).toBe(1);
    expect(storageUsageShare({ bytes: 0, documents: 0 }, quota)).toBe(0);
  });
});
