import { describe, expect, it } from 'vitest';
import { parseMarkdownText } from './markdown';

describe('parseMarkdownText', () => {
  it('splits on ATX and setext headings with heading paths, as exact slices of the source', () => {
    const source =
      'intro line\n\n# Guide\n\nwelcome\n\n## Install ##\nsteps\n\nLinux\n-----\napt\n\nOther\n=====\nend\n';
    const parsed = parseMarkdownText(source, 'markdown');
    expect(parsed.title).toBe('Guide');
    expect(parsed.units.map((u) => u.headingPath)).toEqual([
      [],
      ['Guide'],
      ['Guide', 'Install'],
      ['Guide', 'Linux'],
      ['Other'],
    ]);
    let cursor = 0;
    for (const unit of parsed.units) {
      const at = source.indexOf(unit.text, cursor);
      expect(at).toBeGreaterThanOrEqual(cursor);
      cursor = at + unit.text.length;
    }
    expect(parsed.units[3]?.text).toBe('Linux\n-----\napt\n\n');
  });

  it('ignores headings inside fenced code and list items above dashes', () => {
    const parsed = parseMarkdownText('# A\n```\n# not a heading\n```\n- item\n---\ntext', 'markdown');
    expect(parsed.units.map((u) => u.headingPath)).toEqual([['A']]);
  });

  it('folds a heading with no body into its subsections', () => {
    const parsed = parseMarkdownText('# Top\n## Sub\nbody', 'markdown');
    expect(parsed.units.map((u) => [u.headingPath, u.text])).toEqual([[['Top', 'Sub'], '## Sub\nbody']]);
  });

  it('handles plain text, CRLF and blank input', () => {
    const parsed = parseMarkdownText('Title\r\n=====\r\nbody\r\n', 'text');
    expect(parsed.title).toBeNull();
    expect(parsed.units[0]).toMatchObject({ headingPath: ['Title'], text: 'Title\n=====\nbody\n' });
    expect(() => parseMarkdownText(' \n\t\n', 'text')).toThrow(/no extractable text/);
  });
});
