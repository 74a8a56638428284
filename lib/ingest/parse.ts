/** Bytes → ParsedDocument: sniffs the real type, then runs the matching parser. */

import { IngestError } from './errors';
import type { OcrOptions } from './ocr';
import { parseCsvDocument } from './parsers/csv';
import { parseMarkdownText } from './parsers/markdown';
import { sniffOrThrow } from './sniff';
import { decodeText } from './text-decode';
import type { DocumentKind, ParsedDocument, ProgressCallback } from './types';
import type { ZipLimits } from './zip-guard';

export interface ParseOptions {
  filename: string;
  declaredMime?: string | null;
  onProgress?: ProgressCallback;
  zipLimits?: Partial<ZipLimits>;
  /** OCR of scanned PDF pages and images (defaults: see ocr.ts). */
  ocr?: OcrOptions;
  /**
   * Return attachments and archive members as child files (default true). False for a file that is itself a
   * child nested too deep: its children are then only named in a warning (no archive-in-archive chains).
   */
  extractChildren?: boolean;
  /**
   * Flag PDF pages worth reading as pictures (figures, little text) for the visual_interpretation tool (default
   * true). The app passes whether a vision model is configured: the flags cost an operator list per page (pdf.js
   * decodes every image to build one, ~40% of parsing a real PDF), and only that tool uses them.
   */
  visualFlags?: boolean;
}

/**
 * Runs the parser for an already sniffed kind. Throws IngestError with a readable reason on any failure.
 * The heavy parser packages (exceljs ~0.8 s to load, unpdf, mammoth, linkedom) load on first use only.
 */
export async function parseAs(kind: DocumentKind, bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  try {
    switch (kind) {
      case 'pdf': {
        const { parsePdf } = await import('./parsers/pdf');
        return await parsePdf(bytes, {
          onProgress: options.onProgress,
          ocr: options.ocr,
          visualFlags: options.visualFlags,
        });
      }
      case 'docx': {
        const { parseDocx } = await import('./parsers/docx');
        return await parseDocx(bytes, { zipLimits: options.zipLimits });
      }
      case 'xlsx': {
        const { parseXlsx } = await import('./parsers/xlsx');
        return await parseXlsx(bytes, { onProgress: options.onProgress, zipLimits: options.zipLimits });
      }
      case 'csv':
        return parseCsvDocument(decodeText(bytes).text, options.filename);
      case 'html': {
        const { parseHtml } = await import('./parsers/html');
        return parseHtml(decodeText(bytes).text);
      }
      case 'markdown':
      case 'text':
        return parseMarkdownText(decodeText(bytes).text, kind);
      case 'pptx': {
        const { parsePptx } = await import('./parsers/pptx');
        return await parsePptx(bytes, { zipLimits: options.zipLimits });
      }
      case 'odt':
      case 'odp': {
        const { parseOdf } = await import('./parsers/odf');
        return await parseOdf(bytes, kind, { zipLimits: options.zipLimits });
      }
      case 'ods':
      case 'xls': {
        const { parseLegacySheet } = await import('./parsers/legacy-sheet');
        return await parseLegacySheet(bytes, kind, { zipLimits: options.zipLimits });
      }
      case 'epub': {
        const { parseEpub } = await import('./parsers/epub');
        return await parseEpub(bytes, { zipLimits: options.zipLimits });
      }
      case 'rtf': {
        const { parseRtf } = await import('./parsers/rtf');
        return parseRtf(bytes);
      }
      case 'doc': {
        const { parseDoc } = await import('./parsers/doc');
        return await parseDoc(bytes);
      }
      case 'eml': {
        const { parseEml } = await import('./parsers/email');
        return await parseEml(bytes);
      }
      case 'msg': {
        const { parseMsg } = await import('./parsers/email');
        return parseMsg(bytes);
      }
      case 'zip': {
        const { parseZipArchive } = await import('./parsers/archive');
        return await parseZipArchive(bytes, options.filename, { zipLimits: options.zipLimits });
      }
      case 'image': {
        const { parseImage } = await import('./parsers/image');
        return await parseImage(bytes, { ocr: options.ocr });
      }
    }
  } catch (error) {
    if (error instanceof IngestError) throw error;
    if (error instanceof RangeError && /call stack/i.test(error.message)) {
      throw new IngestError('malformed', `malformed ${kind.toUpperCase()}: structure nested too deeply`, {
        cause: error,
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    throw new IngestError('malformed', `malformed ${kind.toUpperCase()}: ${message.slice(0, 300)}`, { cause: error });
  }
}

/**
 * Sniffs and parses a file's bytes into located units. Never returns a document without text: blank or
 * image-only documents throw IngestError('no-text'), unsupported or hostile ones their own IngestError.
 */
export async function parseDocument(bytes: Uint8Array, options: ParseOptions): Promise<ParsedDocument> {
  const { kind } = await sniffOrThrow({ bytes, filename: options.filename, declaredMime: options.declaredMime });
  options.onProgress?.({ stage: 'parsing', fraction: 0 });
  const parsed = await parseAs(kind, bytes, options);
  options.onProgress?.({ stage: 'parsing', fraction: 1 });
  if (options.extractChildren === false && parsed.children && parsed.children.length > 0) {
    const names = parsed.children.map((c) => c.filename);
    parsed.warnings.push(
      `${names.length} attached or archived file${names.length === 1 ? '' : 's'} not ingested (nested too deep): ${names.slice(0, 10).join(', ')}`,
    );
    parsed.children = [];
  }
  return parsed;
}
