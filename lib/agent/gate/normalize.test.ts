import { describe, expect, it } from 'vitest';
import { findVerbatim, normalize, normalizeWithMap } from './normalize';

describe('normalize the one normalisation', () => {
  it.each([
    ['Cafe\u0301', 'Caf\u00E9'],
    ['\uFB01le \uFB02ow', 'file flow'],
    ['synchro\u00ADnisation', 'synchronisation'],
    ['a\u200Bb\u200Cc\u200Dd\u2060e\uFEFFf', 'abcdef'],
    ['25\u00A0MB\u202Fx\u3000y', '25 MB x y'],
    ['\u2018a\u2019 \u201Ab\u201B \u2032c` \u2039d\u203A', "'a' 'b' 'c' 'd'"],
    ['\u201Ca\u201D \u201Eb\u201F \u2033 \u00ABc\u00BB', '"a" "b" \'\' "c"'],
    ['a\u2010b\u2011c\u2012d\u2013e\u2014f\u2015g\u2212h', 'a-b-c-d-e-f-g-h'],
    ['wait\u2026', 'wait...'],
    ['  one \n\t two\r\n\nthree  ', 'one two three'],
    ['\uFF21\uFF22\uFF23', 'ABC'],
    ['', ''],
    ['Case Kept', 'Case Kept'],
  ])('case %#', (input, out) => {
    expect(normalize(input)).toBe(out);
  });

  it('maps every output character back to its source cluster', () => {
    const n = normalizeWithMap('a  \u00ADe\u0301\uFB01');
    expect(n.text).toBe('a \u00E9fi');
    expect([...n.map]).toEqual([0, 1, 4, 6, 6]);
    expect([...n.ends]).toEqual([1, 2, 6, 7, 7]);
  });
});

describe('findVerbatim', () => {
  const hay = 'Intro.  The re\u0301sume\u0301\nservice caches   for 500\u00A0seconds.';
  it('finds a normalised span and reports original offsets', () => {
    const at = findVerbatim(hay, 'The r\u00E9sum\u00E9 service caches for 500 seconds');
    expect(at).not.toBeNull();
    expect(hay.slice(at?.start, at?.end)).toBe('The re\u0301sume\u0301\nservice caches   for 500\u00A0seconds');
  });
  it('is case-sensitive except, when asked, for the first letter', () => {
    expect(findVerbatim(hay, 'the r\u00E9sum\u00E9')).toBeNull();
    expect(findVerbatim(hay, 'the r\u00E9sum\u00E9', true)).toEqual({ start: 8, end: 20 });
    expect(findVerbatim('the x', 'The x', true)).toEqual({ start: 0, end: 5 });
    expect(findVerbatim('the x', 'The x')).toBeNull();
  });
  it('rejects altered text and empty needles', () => {
    expect(findVerbatim(hay, 'The resume service')).toBeNull();
    expect(findVerbatim(hay, '   ')).toBeNull();
    expect(findVerbatim(hay, 'caches for 600 seconds')).toBeNull();
  });
  it('takes the earliest of the case variants', () => {
    expect(findVerbatim('b A a', 'a', true)).toEqual({ start: 2, end: 3 });
    expect(findVerbatim('b a A', 'A', true)).toEqual({ start: 2, end: 3 });
    expect(findVerbatim('a b A', 'a', true)).toEqual({ start: 0, end: 1 });
    // A variant that is not there does not undo one that is.
    expect(findVerbatim('x The end', 'The end', true)).toEqual({ start: 2, end: 9 });
  });
  it('ends a match after a multi-character source cluster', () => {
    expect(findVerbatim('xe\u0301y', 'x\u00E9')).toEqual({ start: 0, end: 3 });
  });
});

describe('markup references', () => {
  it.each([
    ['lp://&lt;dataset-name&gt;/', 'lp://<dataset-name>/'],
    ['AT&amp;T and &#60;b&#62; and &#x3C;i&#x3e; and &#x26;', 'AT&T and <b> and <i> and &'],
    ['&LT;x&GT; &AMP;', '<x> &'],
    // Other references, and an ampersand alone, are text.
    ['&quot; &nbsp; & &amp', '&quot; &nbsp; & &amp'],
  ])('markup reference %#', (text, read) => {
    expect(normalize(text)).toBe(read);
  });

  it('maps a decoded reference back to the whole reference', () => {
    expect(findVerbatim('see lp://&lt;name&gt;/ here', '<name>')).toEqual({ start: 9, end: 21 });
  });
});
