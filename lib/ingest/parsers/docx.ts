/**
 * DOCX → readable text in heading sections (mammoth's HTML, walked as a DOM; no markup is kept); tables of at least
 * 2 rows and 2 columns become table units like spreadsheet sheets (named "Table n", header row repeated in every
 * chunk).
 */

import mammoth from 'mammoth';
import { IngestError } from '../errors';
import type { ParsedDocument, ParsedUnit } from '../types';
import { inspectZip, titleFromCoreProperties, type ZipLimits } from '../zip-guard';
import { bodyOf, parseHtmlDocument, sectionsFromDom } from './html-sections';
import { buildSheetUnit } from './sheet-unit';

/**
 * Parses a DOCX: the zip guard runs first (zip bombs, DTD/entity declarations refused), mammoth converts the body
 * to HTML with images dropped (never inlined), and the HTML becomes one unit per heading section, each table a
 * table unit of its own (sheet "Table n", the heading path of the section it stands in).
 * Title: the core properties' dc:title.
 */
export async function parseDocx(
  bytes: Uint8Array,
  options: { zipLimits?: Partial<ZipLimits> } = {},
): Promise<ParsedDocument> {
  const inspection = await inspectZip(bytes, { limits: options.zipLimits, keepText: ['docProps/core.xml'] });
  let html: string;
  try {
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      { convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })), ignoreEmptyParagraphs: true },
    );
    html = result.value;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new IngestError('malformed', `malformed DOCX: ${message.slice(0, 300)}`, { cause: error });
  }
  const document = parseHtmlDocument(`<!doctype html><html><head></head><body>${html}</body></html>`);
  const body = bodyOf(document);
  const sections = body ? sectionsFromDom(body, { tables: 'separate' }) : [];
  const units: ParsedUnit[] = [];
  let tables = 0;
  for (const section of sections) {
    const ordinal = units.length;
    const table = section.table
      ? buildSheetUnit(
          ordinal,
          `Table ${tables + 1}`,
          section.table.map((cells, index) => ({ position: index + 1, cells })),
        )
      : null;
    if (table) {
      tables++;
      units.push({ ...table, headingPath: section.headingPath });
    } else {
      units.push({ ordinal, page: null, sheet: null, headingPath: section.headingPath, text: section.text });
    }
  }
  if (units.length === 0) throw new IngestError('no-text', 'no extractable text (the document has no text)');
  return {
    kind: 'docx',
    title: titleFromCoreProperties(inspection.texts.get('docProps/core.xml')),
    units,
    pageCount: units.length,
    warnings: [],
  };
}
