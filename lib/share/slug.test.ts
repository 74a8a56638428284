import { describe, expect, it } from 'vitest';
import { generateShareSlug, isShareSlug } from '@/lib/share/slug';

describe('share slugs', () => {
  it('carry at least 128 random bits in base64url', () => {
    const slugs = Array.from({ length: 2000 }, generateShareSlug);
    for (const s of slugs) {
      expect(s).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(s, 'base64url').length * 8).toBeGreaterThanOrEqual(128);
      expect(isShareSlug(s)).toBe(true);
    }
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it.each([
    '',
    'short',
    '../../etc/passwd',
    'a'.repeat(65),
    'abc def ghi jkl mno pqr stu',
    "x' OR '1'='1'--aaaaaaaaaa",
  ])('rejects %j before any lookup', (bad) => {
    expect(isShareSlug(bad)).toBe(false);
  });
});
