import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRtf, rtfToText } from './rtf';

describe('rtfToText', () => {
  it('keeps paragraphs and table rows, drops font tables, info and optional destinations', () => {
    const rtf =
      '{\\rtf1\\ansi\\ansicpg1252{\\fonttbl{\\f0 Times;}}{\\info{\\title Secret}}{\\*\\generator Writer;}' +
      '\\pard Hello \\b world\\b0\\par' +
      '{\\trowd\\cellx1000\\cellx2000 A1\\cell B1\\cell\\row}' +
      "Caf\\'e9 \\u8364? costs\\tab 5\\line end}";
    expect(rtfToText(rtf)).toBe('Hello world\n\nA1 | B1\nCafé € costs 5\nend');
  });

  it('decodes escaped bytes with the declared code page', () => {
    expect(rtfToText("{\\rtf1\\ansi\\ansicpg1251 \\'cf\\'f0\\'e8\\'e2\\'e5\\'f2}")).toBe('Привет');
  });

  it('survives deep nesting and never throws on arbitrary input', () => {
    expect(rtfToText(`{\\rtf1 ${'{'.repeat(100_000)}deep${'}'.repeat(100_000)}}`)).toBe('deep');
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        expect(typeof rtfToText(`{\\rtf1 ${s}}`)).toBe('string');
      }),
      { numRuns: 300 },
    );
  });

  it('refuses files without an RTF header and files without text', () => {
    expect(() => parseRtf(new Uint8Array(Buffer.from('hello')))).toThrow(/malformed RTF/);
    expect(() => parseRtf(new Uint8Array(Buffer.from('{\\rtf1{\\fonttbl{\\f0 Arial;}}}')))).toThrow(
      /no extractable text/,
    );
  });
});
