import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { containsPattern, escapeLike } from '@/lib/db/like';

/** A reference LIKE matcher with `\` as escape character (the semantics of `LIKE ? ESCAPE '\'`). */
function likeMatches(pattern: string, text: string): boolean {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') source += (pattern[++i] ?? '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    else if (c === '%') source += '[\\s\\S]*';
    else if (c === '_') source += '[\\s\\S]';
    else source += c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'u').test(text);
}

describe('escapeLike', () => {
  it.each([
    ['100%', '100\\%'],
    ['a_b', 'a\\_b'],
    ['back\\slash', 'back\\\\slash'],
    ['plain', 'plain'],
  ])('%j → %j', (input, escaped) => {
    expect(escapeLike(input)).toBe(escaped);
  });

  it('a contains pattern matches exactly the texts that contain the value', () => {
    const alphabet = fc.constantFrom('a', 'b', '%', '_', '\\', 'x');
    const word = fc.array(alphabet, { maxLength: 6 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(word, word, (value, text) => {
        expect(likeMatches(containsPattern(value), text)).toBe(text.includes(value));
      }),
      { numRuns: 2000 },
    );
  });
});
