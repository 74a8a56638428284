/**
 * PPTX → one unit per slide (page = slide number): the slide's text in reading order, its tables as rows of cells
 * joined by " | ", then its speaker notes. Parsed by hand from the package's XML (after the zip guard), because the
 * maintained npm parsers either drop tables and notes or pull in a second PDF engine and OCR (see docs/formats.md).
 */

import { IngestError } from '../errors';
import type { ParsedDocument, ParsedUnit } from '../types';
import { inspectZip, titleFromCoreProperties, type ZipLimits } from '../zip-guard';
import {
  descendants,
  elementsByTag,
  hasAncestor,
  parseXml,
  readRelationships,
  resolvePartPath,
  squash,
} from './xml-dom';

const SLIDE_REL = /\/slide$/;
const NOTES_REL = /\/notesSlide$/;

function paragraphText(paragraph: Element): string {
  let text = '';
  const walk = (node: Element) => {
    for (const child of Array.from(node.children)) {
      if (child.tagName === 'a:t') text += child.textContent ?? '';
      else if (child.tagName === 'a:br') text += '\n';
      else walk(child);
    }
  };
  walk(paragraph);
  return text.replace(/[^\S\n]+/g, ' ').trim();
}

function tableLines(table: Element): string[] {
  return elementsByTag(table, 'a:tr')
    .map((row) =>
      elementsByTag(row, 'a:tc')
        .map((cell) => squash(elementsByTag(cell, 'a:p').map(paragraphText).join(' ')))
        .join(' | '),
    )
    .filter((line) => line.replace(/[|\s]/g, '') !== '');
}

/** Text of a slide or notes part in document order; tables as lines of cells. */
function shapeText(xml: string, skipPlaceholders: ReadonlySet<string> = new Set()): { lines: string[]; title: string } {
  const doc = parseXml(xml);
  const lines: string[] = [];
  let title = '';
  const root = doc.documentElement;
  if (!root) return { lines, title };
  for (const element of descendants(root)) {
    if (element.tagName === 'a:tbl' && !hasAncestor(element, 'a:tbl')) {
      const rows = tableLines(element);
      if (rows.length > 0) lines.push(rows.join('\n'));
      continue;
    }
    if (element.tagName !== 'p:sp') continue;
    const placeholder = elementsByTag(element, 'p:ph')[0]?.getAttribute('type') ?? '';
    if (skipPlaceholders.has(placeholder)) continue;
    const text = elementsByTag(element, 'a:p')
      .filter((p) => !hasAncestor(p, 'a:tbl', element))
      .map(paragraphText)
      .filter((t) => t !== '')
      .join('\n');
    if (!text) continue;
    if (!title && (placeholder === 'title' || placeholder === 'ctrTitle')) title = squash(text);
    lines.push(text);
  }
  return { lines, title };
}

function slideOrder(presentationXml: string | undefined, relsXml: string | undefined, names: string[]): string[] {
  const rels = readRelationships(relsXml);
  const ordered: string[] = [];
  if (presentationXml) {
    for (const id of elementsByTag(parseXml(presentationXml), 'p:sldId')) {
      const rel = rels.get(id.getAttribute('r:id') ?? '');
      if (rel && SLIDE_REL.test(rel.type)) ordered.push(resolvePartPath('ppt/presentation.xml', rel.target));
    }
  }
  if (ordered.length > 0) return ordered.filter((name) => names.includes(name));
  const number = (name: string) => Number(/(\d+)\.xml$/.exec(name)?.[1] ?? 0);
  return names.filter((n) => /^ppt\/slides\/slide\d+\.xml$/.test(n)).sort((a, b) => number(a) - number(b));
}

export async function parsePptx(
  bytes: Uint8Array,
  options: { zipLimits?: Partial<ZipLimits> } = {},
): Promise<ParsedDocument> {
  const inspection = await inspectZip(bytes, {
    limits: options.zipLimits,
    keepText: (name) =>
      name === 'docProps/core.xml' ||
      name === 'ppt/presentation.xml' ||
      name === 'ppt/_rels/presentation.xml.rels' ||
      /^ppt\/(slides|notesSlides)\/(_rels\/)?[^/]+\.xml(\.rels)?$/.test(name),
  });
  const { texts } = inspection;
  const names = [...texts.keys()];
  const slides = slideOrder(texts.get('ppt/presentation.xml'), texts.get('ppt/_rels/presentation.xml.rels'), names);
  if (slides.length === 0) throw new IngestError('malformed', 'malformed PPTX: the presentation has no slides');
  const units: ParsedUnit[] = [];
  const warnings: string[] = [];
  slides.forEach((slidePath, i) => {
    const xml = texts.get(slidePath);
    if (xml === undefined) {
      warnings.push(`slide ${i + 1}: part ${slidePath} is missing`);
      return;
    }
    const slide = shapeText(xml);
    const relsPath = slidePath.replace(/([^/]+)$/, '_rels/$1.rels');
    const notesRel = [...readRelationships(texts.get(relsPath)).values()].find((r) => NOTES_REL.test(r.type));
    const notesXml = notesRel ? texts.get(resolvePartPath(slidePath, notesRel.target)) : undefined;
    const notes = notesXml ? shapeText(notesXml, new Set(['sldImg', 'sldNum', 'hdr', 'ftr', 'dt'])).lines : [];
    const parts = [...slide.lines];
    if (notes.length > 0) parts.push(`Speaker notes:\n${notes.join('\n')}`);
    const text = parts.join('\n\n').trim();
    units.push({
      ordinal: units.length,
      page: i + 1,
      sheet: null,
      headingPath: slide.title ? [slide.title] : [],
      text,
    });
  });
  if (!units.some((u) => u.text !== ''))
    throw new IngestError('no-text', 'no extractable text (the slides have no text)');
  return {
    kind: 'pptx',
    title: titleFromCoreProperties(texts.get('docProps/core.xml')),
    units,
    pageCount: slides.length,
    warnings,
  };
}
