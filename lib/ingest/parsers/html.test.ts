import { describe, expect, it } from 'vitest';
import { parseHtml } from './html';

describe('parseHtml', () => {
  it('drops scripts, styles and noscript and splits by headings', () => {
    const parsed = parseHtml(`<!doctype html><html><head><title> My  Page </title><style>p{}</style></head><body>
      <script>document.write("evil")</script><noscript>enable js</noscript>
      <h1>Intro</h1><p>First <b>para</b>.</p><p>Second para.</p>
      <h2>Details</h2><ul><li>one</li><li>two</li></ul>
      <table><tr><th>k</th><th>v</th></tr><tr><td>a</td><td>1</td></tr></table></body></html>`);
    expect(parsed.title).toBe('My Page');
    const all = parsed.units.map((u) => u.text).join('\n');
    expect(all).not.toMatch(/evil|enable js|p\{\}/);
    expect(parsed.units.map((u) => u.headingPath)).toEqual([['Intro'], ['Intro', 'Details']]);
    expect(parsed.units[0]?.text).toBe('Intro\n\nFirst para.\n\nSecond para.');
    expect(parsed.units[1]?.text).toBe('Details\n\n- one\n- two\n\nk | v\na | 1');
  });

  it('uses the whole body when Readability would keep too little (data pages)', () => {
    const rows = Array.from({ length: 40 }, (_, i) => `<tr><td>steel ${i}</td><td>${i * 7}</td></tr>`).join('');
    const parsed = parseHtml(`<html><body><table>${rows}</table></body></html>`);
    expect(parsed.units.map((u) => u.text).join('\n')).toContain('steel 39 | 273');
  });

  it('survives deeply nested markup', () => {
    const html = `<html><body>${'<div>'.repeat(5000)}deep text${'</div>'.repeat(5000)}</body></html>`;
    expect(parseHtml(html).units[0]?.text).toBe('deep text');
  });

  it('fails a page without visible text', () => {
    expect(() => parseHtml('<html><body><script>x()</script></body></html>')).toThrow(/no extractable text/);
  });
});

describe('parseHtml on incomplete documents', () => {
  it('reads pages that start at <head> without <html>, and bare fragments', () => {
    const headFirst = parseHtml(
      '\n<head><title>Steel</title><script>x()</script></head>\n<body><h2>Grade</h2><p>SNB22-3</p></body>',
    );
    expect(headFirst.title).toBe('Steel');
    expect(headFirst.units.map((u) => u.text)).toEqual(['Grade\n\nSNB22-3']);
    expect(parseHtml('<p>fragment only</p>').units[0]?.text).toBe('fragment only');
  });
});
