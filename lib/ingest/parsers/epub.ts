/**
 * EPUB → heading sections, chapter by chapter in spine order. The package is read by hand (container.xml → the
 * OPF package document → its spine) after the zip guard; each chapter's XHTML goes through the same DOM walk as
 * HTML uploads (scripts and styles dropped, nothing executed). The npm EPUB readers were rejected: epub2 inflates
 * with adm-zip outside our guard, @lingo-reader/epub-parser targets rendering (docs/formats.md).
 */

import { IngestError } from '../errors';
import type { ParsedDocument, ParsedUnit } from '../types';
import { inspectZip, type ZipLimits } from '../zip-guard';
import { bodyOf, dropNonContent, parseHtmlDocument, sectionsFromDom } from './html-sections';
import { elementsByTag, parseXml, resolvePartPath, squash } from './xml-dom';

const CHAPTER = /\.(x?html?|xml)$/i;

function hrefPath(opfPath: string, href: string): string {
  const bare = href.split('#')[0] ?? '';
  let decoded = bare;
  try {
    decoded = decodeURIComponent(bare);
  } catch {
    // keep the raw href
  }
  return resolvePartPath(opfPath, decoded);
}

export async function parseEpub(
  bytes: Uint8Array,
  options: { zipLimits?: Partial<ZipLimits> } = {},
): Promise<ParsedDocument> {
  const { texts } = await inspectZip(bytes, {
    limits: options.zipLimits,
    keepText: (name) => name === 'META-INF/container.xml' || /\.(opf|x?html?|xml)$/i.test(name),
  });
  const container = texts.get('META-INF/container.xml');
  const opfPath = container ? elementsByTag(parseXml(container), 'rootfile')[0]?.getAttribute('full-path') : null;
  const opf = opfPath ? texts.get(opfPath) : undefined;
  if (!opfPath || opf === undefined) throw new IngestError('malformed', 'malformed EPUB: no package document');
  const pkg = parseXml(opf);
  const manifest = new Map<string, string>();
  for (const item of elementsByTag(pkg, 'item')) {
    const id = item.getAttribute('id');
    const href = item.getAttribute('href');
    if (id && href) manifest.set(id, hrefPath(opfPath, href));
  }
  const spine = elementsByTag(pkg, 'itemref')
    .map((ref) => manifest.get(ref.getAttribute('idref') ?? ''))
    .filter((p): p is string => typeof p === 'string' && CHAPTER.test(p));
  const title = squash(elementsByTag(pkg, 'dc:title')[0]?.textContent ?? '') || null;
  const units: ParsedUnit[] = [];
  const warnings: string[] = [];
  for (const chapterPath of spine) {
    const html = texts.get(chapterPath);
    if (html === undefined) {
      warnings.push(`chapter ${chapterPath} is missing from the package`);
      continue;
    }
    const document = parseHtmlDocument(html);
    dropNonContent(document);
    const body = bodyOf(document);
    if (!body) continue;
    for (const section of sectionsFromDom(body)) {
      units.push({
        ordinal: units.length,
        page: null,
        sheet: null,
        headingPath: section.headingPath,
        text: section.text,
      });
    }
  }
  if (units.length === 0) throw new IngestError('no-text', 'no extractable text (the book has no text)');
  return { kind: 'epub', title, units, pageCount: units.length, warnings };
}
