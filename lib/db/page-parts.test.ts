import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { joinPageParts, splitPageText } from '@/lib/db/page-parts';

describe('page parts', () => {
  it('split then join gives the text back; parts are bounded and never split a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 400 }), fc.integer({ min: 2, max: 50 }), (text, max) => {
        const parts = splitPageText(text, max);
        expect(parts.join('')).toBe(text);
        expect(parts.length).toBeGreaterThan(0);
        for (const part of parts) {
          expect(part.length).toBeLessThanOrEqual(max);
          const last = part.charCodeAt(part.length - 1);
          if (part !== parts[parts.length - 1]) expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
        }
        const rows = parts.map((t, part) => ({ ordinal: 3, part, text: t, page: 1 }));
        expect(joinPageParts([{ ordinal: 1, part: 0, text: 'a', page: 1 }, ...rows])).toEqual([
          { ordinal: 1, part: 0, text: 'a', page: 1 },
          { ordinal: 3, part: 0, text, page: 1 },
        ]);
      }),
    );
  });

  it('a 12.6 MB unit becomes parts of 128 K characters', () => {
    const parts = splitPageText('x'.repeat(12_600_000));
    expect(parts.length).toBe(Math.ceil(12_600_000 / (128 * 1024)));
  });
});
