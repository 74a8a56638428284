import { describe, expect, it } from 'vitest';
import { binaryContentReason, decodeText } from './text-decode';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'utf8')] : p)));

describe('decodeText', () => {
  it('decodes UTF-8 and drops its BOM', () => {
    expect(decodeText(bytes([0xef, 0xbb, 0xbf], 'Grüße'))).toEqual({
      text: 'Grüße',
      encoding: 'utf-8',
      replacedInvalid: false,
    });
  });

  it('decodes UTF-16 LE and BE with a BOM', () => {
    const le = new Uint8Array([0xff, 0xfe, ...Buffer.from('a,b\nü', 'utf16le')]);
    const be = new Uint8Array([0xfe, 0xff, ...Buffer.from('a,b\nü', 'utf16le').swap16()]);
    expect(decodeText(le)).toMatchObject({ text: 'a,b\nü', encoding: 'utf-16le' });
    expect(decodeText(be)).toMatchObject({ text: 'a,b\nü', encoding: 'utf-16be' });
  });

  it('recognises BOM-less UTF-16 LE by its zero bytes', () => {
    expect(decodeText(new Uint8Array(Buffer.from('plain ascii text here', 'utf16le')))).toMatchObject({
      text: 'plain ascii text here',
      encoding: 'utf-16le',
    });
  });

  it('replaces invalid sequences in otherwise UTF-8 text instead of throwing', () => {
    const result = decodeText(bytes('naïve ', [0xff, 0xfe, 0xc3], ' end'));
    expect(result.encoding).toBe('utf-8');
    expect(result.replacedInvalid).toBe(true);
    expect(result.text.startsWith('naïve ')).toBe(true);
    expect(result.text.endsWith(' end')).toBe(true);
    expect(result.text).toContain('\ufffd');
  });

  it('falls back to windows-1252 for legacy 8-bit text without any UTF-8 sequence', () => {
    expect(decodeText(new Uint8Array([0x6b, 0xf6, 0x6e, 0x6e, 0x65, 0x6e, 0x20, 0x80]))).toMatchObject({
      text: 'können €',
      encoding: 'windows-1252',
    });
  });

  it('strips NUL characters', () => {
    expect(decodeText(bytes('a', [0], 'b', [0, 0], 'c')).text).toBe('abc');
  });
});

describe('binaryContentReason', () => {
  it('accepts ordinary and UTF-16 text', () => {
    expect(binaryContentReason(bytes('hello\tworld\r\n'))).toBeNull();
    expect(binaryContentReason(new Uint8Array([0xff, 0xfe, 0x41, 0, 0x42, 0]))).toBeNull();
  });

  it('flags NUL-heavy and control-heavy content', () => {
    const nul = new Uint8Array(1000).fill(0x41);
    for (let i = 0; i < 1000; i += 7) nul[i] = 0;
    expect(binaryContentReason(nul)).toMatch(/NUL bytes/);
    const control = new Uint8Array(1000).fill(0x41);
    for (let i = 0; i < 1000; i += 5) control[i] = 0x02;
    expect(binaryContentReason(control)).toMatch(/control bytes/);
  });
});
