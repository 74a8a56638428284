import { describe, expect, it } from 'vitest';
import { detectDelimiter, parseCsv, parseCsvDocument } from './csv';

describe('parseCsv', () => {
  it('handles quotes, doubled quotes, delimiters and newlines inside quotes, CRLF and CR', () => {
    expect(parseCsv('a,"b,c","say ""hi"""\r\n"multi\nline",2,\r3,4,5')).toEqual([
      ['a', 'b,c', 'say "hi"'],
      ['multi\nline', '2', ''],
      ['3', '4', '5'],
    ]);
  });

  it('is lenient with an unterminated quote and text after a closing quote', () => {
    expect(parseCsv('a,"open\nrest')).toEqual([['a', 'open\nrest']]);
    expect(parseCsv('"x"y,z')).toEqual([['xy', 'z']]);
  });

  it('detects semicolon, tab and pipe delimiters', () => {
    expect(detectDelimiter('a;b;c\n1;2;3\n')).toBe(';');
    expect(detectDelimiter('a\tb\n1\t2\n')).toBe('\t');
    expect(detectDelimiter('a|b\n1|2\n')).toBe('|');
    expect(detectDelimiter('a,"x;y"\n1,2\n')).toBe(',');
    expect(detectDelimiter('a,b', 'x.tsv')).toBe('\t');
  });
});

describe('parseCsvDocument', () => {
  it('makes one sheet unit named after the file, rows numbered after the header, newlines in cells flattened', () => {
    const parsed = parseCsvDocument('name,notes\n\n"Ann","line1\nline2"\nBob,ok\n', 'people.csv');
    const unit = parsed.units[0];
    expect(unit?.sheet).toBe('people');
    expect(unit?.text).toBe('name | notes\nAnn | line1 line2\nBob | ok');
    expect(unit?.rows?.map((r) => [r.rowNumber, unit.text.slice(r.charStart, r.charEnd)])).toEqual([
      [1, 'Ann | line1 line2'],
      [2, 'Bob | ok'],
    ]);
  });

  it('fails a CSV without any value', () => {
    expect(() => parseCsvDocument(',,\n,,\n', 'x.csv')).toThrow(/no extractable text/);
  });
});
