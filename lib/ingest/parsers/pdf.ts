/** PDF → one unit per page (unpdf's pdf.js build), title from the document information or XMP metadata. */

import { getDocumentProxy } from 'unpdf';
import { IngestError } from '../errors';
import type { ParsedDocument, ParsedUnit, ProgressCallback } from '../types';

interface TextItemLike {
  str?: string;
  hasEOL?: boolean;
}

function pageText(items: readonly unknown[]): string {
  let text = '';
  for (const item of items) {
    const t = item as TextItemLike;
    if (typeof t.str !== 'string') continue;
    text += t.str;
    if (t.hasEOL) text += '\n';
  }
  return text
    .replace(/\u0000/g, '')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function errorName(error: unknown): string {
  return error instanceof Error
    ? error.name
    : typeof error === 'object' && error && 'name' in error
      ? String(error.name)
      : '';
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error && 'message' in error) return String(error.message);
  return String(error);
}

async function readTitle(doc: Awaited<ReturnType<typeof getDocumentProxy>>): Promise<string | null> {
  try {
    const { info, metadata } = await doc.getMetadata();
    const fromXmp = metadata?.get('dc:title');
    const fromInfo = typeof info === 'object' && info && 'Title' in info ? (info as { Title?: unknown }).Title : null;
    for (const candidate of [fromXmp, fromInfo]) {
      if (typeof candidate === 'string') {
        const title = candidate
          .replace(/\u0000/g, '')
          .replace(/\s+/g, ' ')
          .trim();
        if (title) return title;
      }
    }
  } catch {
    // Unreadable metadata is not a reason to refuse the text.
  }
  return null;
}

/**
 * Extracts text per page. A password-protected file fails with "password-protected", a broken one with
 * "malformed PDF: ...", one whose pages hold no text with "no extractable text (scanned?)". A page that fails on
 * its own is kept empty with a warning.
 */
export async function parsePdf(
  bytes: Uint8Array,
  options: { onProgress?: ProgressCallback } = {},
): Promise<ParsedDocument> {
  let doc: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    doc = await getDocumentProxy(bytes, { verbosity: 0, isEvalSupported: false, stopAtErrors: false });
  } catch (error) {
    const name = errorName(error);
    if (name === 'PasswordException')
      throw new IngestError('password-protected', 'password-protected', { cause: error });
    throw new IngestError('malformed', `malformed PDF: ${errorMessage(error).slice(0, 300)}`, { cause: error });
  }
  try {
    const title = await readTitle(doc);
    const units: ParsedUnit[] = [];
    const warnings: string[] = [];
    const pageCount = doc.numPages;
    for (let pageNumber = 1; pageNumber <= pageCount; pageNumber++) {
      let text = '';
      try {
        const page = await doc.getPage(pageNumber);
        const content = await page.getTextContent();
        text = pageText(content.items);
        page.cleanup();
      } catch (error) {
        warnings.push(`page ${pageNumber}: ${errorMessage(error).slice(0, 200)}`);
      }
      units.push({ ordinal: pageNumber - 1, page: pageNumber, sheet: null, headingPath: [], text });
      options.onProgress?.({ stage: 'parsing', fraction: pageNumber / pageCount });
    }
    if (!units.some((u) => u.text.trim().length > 0)) {
      // Every page failed to parse: the file is broken, not scanned.
      if (pageCount > 0 && warnings.length >= pageCount) {
        throw new IngestError('malformed', `malformed PDF: no page could be read (${warnings[0] ?? 'unknown error'})`);
      }
      throw new IngestError('no-text', 'no extractable text (scanned?)');
    }
    return { kind: 'pdf', title, units, pageCount, warnings };
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}
