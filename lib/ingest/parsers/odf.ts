/**
 * OpenDocument text (ODT) → heading sections; presentations (ODP) → one unit per slide with its speaker notes.
 * Read by hand from content.xml after the zip guard (DTD/entity declarations refused, inflation capped): the
 * format is plain XML and the npm packages that read it bundle far more than this needs (docs/formats.md).
 * Spreadsheets (ODS) go through SheetJS in legacy-sheet.ts.
 */

import { IngestError } from '../errors';
import type { ParsedDocument, ParsedUnit } from '../types';
import { inspectZip, type ZipLimits } from '../zip-guard';
import { descendants, elementsByTag, hasAncestor, parseXml, squash } from './xml-dom';

const SKIP = new Set(['text:note-citation', 'office:annotation', 'text:tracked-changes', 'draw:image']);

/** Inline text of a paragraph: `text:s` spaces, tabs and line breaks kept as whitespace. */
function inlineText(node: Node): string {
  let out = '';
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === 3) {
      out += child.textContent ?? '';
      continue;
    }
    if (child.nodeType !== 1) continue;
    const element = child as Element;
    if (SKIP.has(element.tagName)) continue;
    if (element.tagName === 'text:s')
      out += ' '.repeat(Math.min(100, Number(element.getAttribute('text:c') ?? 1) || 1));
    else if (element.tagName === 'text:tab') out += '\t';
    else if (element.tagName === 'text:line-break') out += '\n';
    else out += inlineText(element);
  }
  return out;
}

function cleanLine(text: string): string {
  return text
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .trim();
}

function tableLines(table: Element): string[] {
  return elementsByTag(table, 'table:table-row')
    .filter((row) => !hasAncestor(row, 'table:table', table))
    .map((row) =>
      elementsByTag(row, 'table:table-cell')
        .filter((cell) => !hasAncestor(cell, 'table:table', table))
        .map((cell) => squash(elementsByTag(cell, 'text:p').map(inlineText).join(' ')))
        .join(' | '),
    )
    .filter((line) => line.replace(/[|\s]/g, '') !== '');
}

interface Block {
  heading: { level: number; text: string } | null;
  text: string;
}

/**
 * Paragraphs, headings and tables of a body in document order (table content once, as table lines), leaving out
 * anything inside an element with tag `exclude` (a slide's speaker notes).
 */
function blocks(root: Element, exclude?: string): Block[] {
  const out: Block[] = [];
  for (const element of descendants(root)) {
    const tag = element.tagName;
    if (tag !== 'text:p' && tag !== 'text:h' && tag !== 'table:table') continue;
    if (hasAncestor(element, 'table:table', root) || hasAncestor(element, 'text:p') || hasAncestor(element, 'text:h'))
      continue;
    if (exclude && hasAncestor(element, exclude, root)) continue;
    if (tag === 'table:table') {
      const lines = tableLines(element);
      if (lines.length > 0) out.push({ heading: null, text: lines.join('\n') });
      continue;
    }
    const text = cleanLine(inlineText(element));
    if (!text) continue;
    if (tag === 'text:h') {
      const level = Math.max(1, Math.min(10, Number(element.getAttribute('text:outline-level') ?? 1) || 1));
      out.push({ heading: { level, text: squash(text) }, text });
    } else out.push({ heading: null, text });
  }
  return out;
}

function sectionsOf(root: Element): ParsedUnit[] {
  const units: ParsedUnit[] = [];
  const path: { level: number; text: string }[] = [];
  let current: string[] = [];
  const flush = () => {
    const text = current.join('\n\n').trim();
    if (text) {
      units.push({ ordinal: units.length, page: null, sheet: null, headingPath: path.map((h) => h.text), text });
    }
    current = [];
  };
  for (const block of blocks(root)) {
    if (block.heading) {
      flush();
      const level = block.heading.level;
      while (path.length > 0 && (path[path.length - 1]?.level ?? 0) >= level) path.pop();
      path.push(block.heading);
    }
    current.push(block.text);
  }
  flush();
  return units;
}

function slides(root: Element): ParsedUnit[] {
  return elementsByTag(root, 'draw:page').map((page, i) => {
    const notes = elementsByTag(page, 'presentation:notes')[0];
    const parts = blocks(page, 'presentation:notes').map((b) => b.text);
    const notesText = notes ? blocks(notes).map((b) => b.text) : [];
    if (notesText.length > 0) parts.push(`Speaker notes:\n${notesText.join('\n')}`);
    const name = page.getAttribute('draw:name');
    return {
      ordinal: i,
      page: i + 1,
      sheet: null,
      headingPath: name && !/^page\d+$/i.test(name) ? [name] : [],
      text: parts.join('\n\n').trim(),
    };
  });
}

function metaTitle(xml: string | undefined): string | null {
  if (!xml) return null;
  const title = elementsByTag(parseXml(xml), 'dc:title')[0]?.textContent;
  return title ? squash(title) || null : null;
}

export async function parseOdf(
  bytes: Uint8Array,
  kind: 'odt' | 'odp',
  options: { zipLimits?: Partial<ZipLimits> } = {},
): Promise<ParsedDocument> {
  const { texts } = await inspectZip(bytes, { limits: options.zipLimits, keepText: ['content.xml', 'meta.xml'] });
  const content = texts.get('content.xml');
  if (content === undefined) throw new IngestError('malformed', 'malformed OpenDocument file: no content.xml');
  const body = elementsByTag(parseXml(content), 'office:body')[0];
  if (!body) throw new IngestError('malformed', 'malformed OpenDocument file: content.xml has no body');
  const units = kind === 'odp' ? slides(body) : sectionsOf(body);
  if (!units.some((u) => u.text !== ''))
    throw new IngestError('no-text', 'no extractable text (the document has no text)');
  return { kind, title: metaTitle(texts.get('meta.xml')), units, pageCount: units.length, warnings: [] };
}
