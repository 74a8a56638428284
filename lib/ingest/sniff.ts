/**
 * Decides what a file really is from its content. The file name's extension and the declared MIME type are
 * hints: binary formats are recognised by magic bytes (file-type) and, for ZIP containers, by their entries;
 * text formats by extension (or declared MIME) once the bytes are shown to be text.
 */

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import type { IngestErrorCode } from './errors';
import { IngestError } from './errors';
import { MIME_BY_KIND } from './mime-by-kind';
import { binaryContentReason } from './text-decode';
import type { DocumentKind } from './types';
import { listZipEntries, readSmallZipEntry } from './zip-guard';

/** Raster images read by OCR, by the MIME type file-type detects. */
const OCR_IMAGE_MIMES = new Set(['image/png', 'image/jpeg', 'image/tiff', 'image/webp', 'image/bmp', 'image/gif']);

export type SniffResult = { kind: DocumentKind; mime: string } | { error: string; code: IngestErrorCode };

export type SniffInput = { filename: string; declaredMime?: string | null } & (
  | { path: string; bytes?: undefined }
  | { bytes: Uint8Array; path?: undefined }
);

const TEXT_KIND_BY_EXTENSION: Record<string, DocumentKind> = {
  md: 'markdown',
  markdown: 'markdown',
  mdown: 'markdown',
  mkd: 'markdown',
  csv: 'csv',
  tsv: 'csv',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  txt: 'text',
  text: 'text',
  log: 'text',
  json: 'text',
  jsonl: 'text',
  yaml: 'text',
  yml: 'text',
  toml: 'text',
  ini: 'text',
  cfg: 'text',
  conf: 'text',
  rst: 'text',
  adoc: 'text',
  tex: 'text',
  srt: 'text',
  vtt: 'text',
  eml: 'eml',
};

const TEXT_KIND_BY_MIME: Record<string, DocumentKind> = {
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/csv': 'csv',
  'text/tab-separated-values': 'csv',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/json': 'text',
  'message/rfc822': 'eml',
};

/** Extensions of binary formats: text content under one of these names is refused rather than guessed. */
const BINARY_EXTENSIONS = new Set([
  'pdf',
  'docx',
  'xlsx',
  'pptx',
  'doc',
  'xls',
  'ppt',
  'odt',
  'ods',
  'odp',
  'zip',
  'epub',
  'msg',
]);

const ODF_KIND_BY_EXT: Record<string, DocumentKind> = { odt: 'odt', ods: 'ods', odp: 'odp' };

function extensionOf(filename: string): string {
  return path.extname(filename).slice(1).toLowerCase();
}

function fail(code: IngestErrorCode, error: string): SniffResult {
  return { error, code };
}

function ok(kind: DocumentKind): SniffResult {
  return { kind, mime: MIME_BY_KIND[kind] };
}

function startsWithAscii(bytes: Uint8Array, ascii: string, offset = 0): boolean {
  for (let i = 0; i < ascii.length; i++) if (bytes[offset + i] !== ascii.charCodeAt(i)) return false;
  return true;
}

/** PDF readers accept a header anywhere in the first KiB (some producers prepend junk). */
function hasPdfHeader(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024));
  return head.includes('%PDF-', 0, 'latin1');
}

function containsUtf16(bytes: Uint8Array, text: string): boolean {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(Buffer.from(text, 'utf16le'));
}

/** The flavour an OpenDocument package declares in its `mimetype` entry (text, spreadsheet, presentation...). */
async function odfFlavour(bytes: Uint8Array): Promise<string | null> {
  const declared = await readSmallZipEntry(bytes, 'mimetype');
  return /^application\/vnd\.oasis\.opendocument\.([a-z-]+)$/.exec(declared?.trim() ?? '')?.[1] ?? null;
}

async function classifyZip(bytes: Uint8Array, filenameExt: string): Promise<SniffResult> {
  let names: string[];
  try {
    names = (await listZipEntries(bytes)).map((e) => e.name);
  } catch (error) {
    if (error instanceof IngestError) return fail(error.code, error.message);
    throw error;
  }
  const has = (name: string) => names.includes(name);
  if (has('word/document.xml') || names.some((n) => /^word\/document\d*\.xml$/.test(n))) return ok('docx');
  if (has('xl/workbook.xml')) return ok('xlsx');
  if (has('ppt/presentation.xml')) return ok('pptx');
  if (has('mimetype') && has('content.xml')) {
    const declared = await odfFlavour(bytes);
    if (declared === 'text') return ok('odt');
    if (declared === 'spreadsheet') return ok('ods');
    if (declared === 'presentation') return ok('odp');
    const byExt = ODF_KIND_BY_EXT[filenameExt];
    if (byExt) return ok(byExt);
    return fail('unsupported', 'unsupported OpenDocument type (only text, spreadsheet and presentation are read)');
  }
  if (has('META-INF/container.xml') && (has('mimetype') || filenameExt === 'epub')) return ok('epub');
  if (has('[Content_Types].xml')) {
    return fail(
      'malformed',
      'malformed Office file: the package has no Word document, Excel workbook or PowerPoint presentation part',
    );
  }
  return ok('zip');
}

/** Tells the legacy binary Office formats apart by the stream names in their compound file directory. */
function classifyCompoundFile(bytes: Uint8Array): SniffResult {
  if (containsUtf16(bytes, 'EncryptionInfo') || containsUtf16(bytes, 'EncryptedPackage')) {
    return fail('password-protected', 'password-protected');
  }
  if (containsUtf16(bytes, '__substg1.0_')) return ok('msg');
  if (containsUtf16(bytes, 'WordDocument')) return ok('doc');
  if (containsUtf16(bytes, 'Workbook') || containsUtf16(bytes, 'Book')) return ok('xls');
  if (containsUtf16(bytes, 'PowerPoint Document')) {
    return fail('unsupported', 'unsupported file type: legacy PowerPoint (.ppt); save it as .pptx or PDF');
  }
  return fail('unsupported', 'unsupported file type: a compound binary file that is not a Word, Excel or Outlook file');
}

function describeBinary(ext: string, mime: string, filenameExt: string): string {
  const claimed = filenameExt ? ` (named .${filenameExt})` : '';
  if (['exe', 'elf', 'macho', 'dll', 'class', 'wasm', 'dex'].includes(ext) || mime === 'application/x-msdownload') {
    return `refused: the file is an executable (${mime})${claimed}, not a document`;
  }
  if (mime.startsWith('image/')) {
    return `unsupported file type: image (${mime})${claimed}; OCR reads PNG, JPEG, TIFF, WebP, BMP and GIF`;
  }
  if (mime.startsWith('audio/') || mime.startsWith('video/')) {
    return `unsupported file type: ${mime}${claimed}`;
  }
  return `unsupported file type: ${mime}${claimed}`;
}

function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 2048))
    .toString('latin1')
    .replace(/\u0000/g, '')
    .trimStart()
    .toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html');
}

/**
 * Sniffs a file's real type. Returns `{ kind, mime }` for a format the parsers handle, or `{ error, code }`
 * with a reason fit to show to the user (empty file, password-protected Office file, executable or random bytes
 * under a document name, unsupported format). Reads the file when given a path; never throws for bad content.
 */
export async function sniffFile(input: SniffInput): Promise<SniffResult> {
  const bytes = input.bytes ?? new Uint8Array(await readFile(input.path));
  const filenameExt = extensionOf(input.filename);
  const declaredMime = (input.declaredMime ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (bytes.byteLength === 0) return fail('empty', 'empty file');

  if (startsWithAscii(bytes, '%PDF-') || hasPdfHeader(bytes)) return ok('pdf');

  const detected = await fileTypeFromBuffer(bytes);
  const isZipMagic = startsWithAscii(bytes, 'PK\u0003\u0004') || startsWithAscii(bytes, 'PK\u0005\u0006');
  if (isZipMagic || (detected && ['zip', 'docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub'].includes(detected.ext))) {
    return classifyZip(bytes, filenameExt);
  }
  if (detected?.ext === 'cfb') return classifyCompoundFile(bytes);
  if (detected?.ext === 'rtf') return ok('rtf');
  if (detected && OCR_IMAGE_MIMES.has(detected.mime)) return { kind: 'image', mime: detected.mime };
  if (detected && detected.ext !== 'xml' && !detected.mime.startsWith('text/')) {
    return fail('unsupported', describeBinary(detected.ext, detected.mime, filenameExt));
  }

  // From here on the content has no binary signature: it must be text, in a text format named by the hints.
  const binary = binaryContentReason(bytes);
  if (binary) {
    if (filenameExt === 'pdf') return fail('malformed', `not a PDF: no PDF header and ${binary}`);
    if (filenameExt === 'docx' || filenameExt === 'xlsx') {
      return fail('malformed', `not a valid .${filenameExt}: not a ZIP package and ${binary}`);
    }
    return fail('unsupported', `unsupported file type: ${binary}`);
  }
  if (BINARY_EXTENSIONS.has(filenameExt)) {
    return fail(
      'malformed',
      `not a valid .${filenameExt} file: the content is plain text without a ${filenameExt.toUpperCase()} signature`,
    );
  }
  const byExtension = TEXT_KIND_BY_EXTENSION[filenameExt];
  if (byExtension) return ok(byExtension);
  const byMime = TEXT_KIND_BY_MIME[declaredMime];
  if (byMime) return ok(byMime);
  if (looksLikeHtml(bytes) && (filenameExt === '' || detected?.ext === 'xml')) return ok('html');
  if (filenameExt === '') return ok(byMime ?? 'text');
  return fail('unsupported', `unsupported file type: .${filenameExt} files are not supported`);
}

/** Like sniffFile but throws an IngestError instead of returning `{ error }`. */
export async function sniffOrThrow(input: SniffInput): Promise<{ kind: DocumentKind; mime: string }> {
  const result = await sniffFile(input);
  if ('error' in result) throw new IngestError(result.code, result.error);
  return result;
}
