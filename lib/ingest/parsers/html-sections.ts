/**
 * A DOM tree → readable text split into sections by its headings (h1-h6). Markup is never kept: paragraphs become
 * blank-line separated blocks, list items and table rows single lines, table cells are joined by " | ".
 * Shared by the HTML parser and the DOCX parser (mammoth's HTML).
 */

import { parseHTML } from 'linkedom';

export interface TextSection {
  headingPath: string[];
  text: string;
  /** Set when the section is one table (only with `tables: 'separate'`): its rows of cell texts, header first. */
  table?: string[][];
}

export interface SectionOptions {
  /**
   * 'rows' (default): a table is lines of cells joined by " | " inside its section's text. 'separate': a table
   * of at least 2 rows and 2 columns becomes a section of its own (same heading path) carrying `table`; the
   * section's text around it is split before and after it. Smaller tables stay as rows.
   */
  tables?: 'rows' | 'separate';
}

const SKIP = new Set([
  'TITLE',
  'META',
  'LINK',
  'BASE',
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'HEAD',
  'SVG',
  'CANVAS',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'BUTTON',
  'SELECT',
  'TEXTAREA',
]);
const BLOCK = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BODY',
  'CAPTION',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIELDSET',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'FORM',
  'HEADER',
  'HR',
  'MAIN',
  'NAV',
  'OL',
  'P',
  'SECTION',
  'TABLE',
  'TBODY',
  'THEAD',
  'TFOOT',
  'UL',
]);
const HEADING = /^H([1-6])$/;
/** Set on headings before Readability rewrites them, so the original level survives (h1 becomes h2 there). */
export const HEADING_LEVEL_ATTRIBUTE = 'data-docuchat-level';

/**
 * Parses an HTML string into a linkedom document (no scripts run; linkedom never executes anything). linkedom
 * makes the first element the document element, so pages without <html> (fragments, files starting at <head>)
 * are wrapped first.
 */
export function parseHtmlDocument(html: string): Document {
  const head = html.slice(0, 8192);
  let source = html;
  if (!/<html[\s>]/i.test(head)) {
    source = /<(body|head)[\s>]/i.test(html)
      ? `<html>${html}</html>`
      : `<html><head></head><body>${html}</body></html>`;
  }
  const { document } = parseHTML(source);
  return document as unknown as Document;
}

/** The <body> element (linkedom's `document.body` can miss it), else the document element. */
export function bodyOf(document: Document): Element | null {
  return document.querySelector('body') ?? document.documentElement;
}

/** Removes elements whose content is never text (scripts, styles, noscript, templates...). */
export function dropNonContent(root: ParentNode): void {
  for (const tag of ['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'embed', 'canvas']) {
    for (const el of Array.from(root.querySelectorAll(tag))) el.remove();
  }
}

function collapse(text: string): string {
  return text.replace(/[\s\u00a0]+/g, ' ');
}

/** Text of an element with collapsed whitespace, skipping non-content elements; iterative (deep trees are safe). */
export function inlineText(root: Node): string {
  const parts: string[] = [];
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (!node) break;
    if (node.nodeType === 3) {
      parts.push(node.nodeValue ?? '');
      continue;
    }
    if (node.nodeType !== 1 || SKIP.has(node.nodeName.toUpperCase())) continue;
    if (node.nodeName.toUpperCase() === 'BR') parts.push(' ');
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child) stack.push(child);
    }
    if (BLOCK.has(node.nodeName.toUpperCase()) || node.nodeName.toUpperCase() === 'TD') parts.push(' ');
  }
  return collapse(parts.join('')).trim();
}

interface Line {
  text: string;
  /** A table kept apart (SectionOptions.tables = 'separate'). */
  table?: string[][];
  /** Items (list items, table rows) of the same list or table join with one newline; the rest a blank line. */
  item: boolean;
  group: number;
}

/**
 * Walks the tree in document order and returns its sections. Text before the first heading forms a section
 * with an empty heading path; each heading opens a section whose text starts with the heading line.
 */
/** The cell rows of a table, nested tables' rows excluded (their text stays inside their cell). */
function tableRows(table: Element): string[][] {
  const rows: string[][] = [];
  for (const row of Array.from(table.querySelectorAll('tr'))) {
    if (row.closest('table') !== table) continue;
    const cells = Array.from(row.children)
      .filter((c) => c.nodeName.toUpperCase() === 'TD' || c.nodeName.toUpperCase() === 'TH')
      .map((c) => inlineText(c));
    while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
    if (cells.some((c) => c !== '')) rows.push(cells);
  }
  return rows;
}

export function sectionsFromDom(root: Node, options: SectionOptions = {}): TextSection[] {
  const sections: { headingPath: string[]; lines: Line[] }[] = [];
  const headingStack: { level: number; text: string }[] = [];
  let current: { headingPath: string[]; lines: Line[] } = { headingPath: [], lines: [] };
  sections.push(current);
  let inline: string[] = [];
  let listPrefix = '';
  let group = 0;

  const flush = (item = false) => {
    const text = collapse(inline.join('')).trim();
    inline = [];
    if (!text) return;
    current.lines.push({ text: listPrefix + text, item: item || listPrefix !== '', group });
    listPrefix = '';
  };

  type Frame = { node: Node; exit: boolean };
  const stack: Frame[] = [{ node: root, exit: false }];
  while (stack.length > 0) {
    const frame = stack.pop();
    if (!frame) break;
    const { node } = frame;
    if (node.nodeType === 3) {
      inline.push(node.nodeValue ?? '');
      continue;
    }
    if (node.nodeType !== 1 && node.nodeType !== 9 && node.nodeType !== 11) continue;
    const tag = node.nodeName.toUpperCase();
    if (SKIP.has(tag)) continue;
    if (frame.exit) {
      flush(tag === 'LI');
      continue;
    }
    const heading = HEADING.exec(tag);
    if (heading) {
      flush();
      const kept = Number((node as Element).getAttribute?.(HEADING_LEVEL_ATTRIBUTE));
      const level = kept >= 1 && kept <= 6 ? kept : Number(heading[1]);
      const text = inlineText(node);
      if (text) {
        while (headingStack.length > 0 && (headingStack[headingStack.length - 1]?.level ?? 0) >= level) {
          headingStack.pop();
        }
        headingStack.push({ level, text });
        current = { headingPath: headingStack.map((h) => h.text), lines: [{ text, item: false, group }] };
        sections.push(current);
      }
      continue;
    }
    if (tag === 'BR') {
      flush();
      continue;
    }
    if (tag === 'TABLE' && options.tables === 'separate') {
      const rows = tableRows(node as Element);
      if (rows.length >= 2 && Math.max(...rows.map((r) => r.length)) >= 2) {
        flush();
        group++;
        current.lines.push({ text: '', table: rows, item: false, group });
        continue;
      }
    }
    if (tag === 'TR') {
      flush();
      const cells = Array.from((node as Element).children)
        .filter((c) => c.nodeName.toUpperCase() === 'TD' || c.nodeName.toUpperCase() === 'TH')
        .map((c) => inlineText(c));
      while (cells.length > 0 && cells[cells.length - 1] === '') cells.pop();
      if (cells.some((c) => c !== '')) current.lines.push({ text: cells.join(' | '), item: true, group });
      continue;
    }
    if (tag === 'PRE') {
      flush();
      const raw = (node.textContent ?? '').replace(/\r\n?/g, '\n').replace(/^\n+|\s+$/g, '');
      if (raw) current.lines.push({ text: raw, item: false, group });
      continue;
    }
    if (tag === 'LI') {
      flush();
      listPrefix = '- ';
    } else if (BLOCK.has(tag)) {
      flush();
      if (tag === 'UL' || tag === 'OL' || tag === 'TABLE' || tag === 'DL') group++;
    }
    if (tag === 'LI' || BLOCK.has(tag)) stack.push({ node, exit: true });
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i];
      if (child) stack.push({ node: child, exit: false });
    }
  }
  flush();

  const result: TextSection[] = [];
  for (let i = 0; i < sections.length; i++) {
    const section = sections[i];
    if (!section || section.lines.length === 0) continue;
    const next = sections[i + 1];
    // A heading with no body of its own, directly followed by one of its subsections, lives on in their paths.
    const headingOnly = section.lines.length === 1 && section.headingPath.length > 0;
    if (headingOnly && next && next.headingPath.length > section.headingPath.length) continue;
    let lines: Line[] = [];
    const emitText = () => {
      if (lines.length === 0) return;
      let text = '';
      lines.forEach((line, index) => {
        const previous = lines[index - 1];
        if (index > 0) text += line.item && previous?.item && previous.group === line.group ? '\n' : '\n\n';
        text += line.text;
      });
      result.push({ headingPath: section.headingPath, text });
      lines = [];
    };
    for (const line of section.lines) {
      if (!line.table) {
        lines.push(line);
        continue;
      }
      // a heading directly over a table lives on in the table's heading path
      if (lines.length === 1 && lines[0] === section.lines[0] && section.headingPath.length > 0) lines = [];
      emitText();
      const text = line.table.map((cells) => cells.join(' | ')).join('\n');
      result.push({ headingPath: section.headingPath, text, table: line.table });
    }
    emitText();
  }
  return result;
}
