import type { DocumentKind } from './types';

/**
 * The MIME type DocuChat stores for each format it reads. sniff.ts decides the kind from a file's content and
 * stores this type (images keep the type file-type detected: PNG, JPEG, TIFF...). Kept apart from sniff.ts, which
 * reads files, so that the agent and the browser can name a stored document's format without its dependencies.
 */
export const MIME_BY_KIND: Record<DocumentKind, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  html: 'text/html',
  markdown: 'text/markdown',
  text: 'text/plain',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  epub: 'application/epub+zip',
  rtf: 'application/rtf',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  eml: 'message/rfc822',
  msg: 'application/vnd.ms-outlook',
  zip: 'application/zip',
  image: 'image/png',
};

const KIND_BY_MIME: ReadonlyMap<string, DocumentKind> = new Map(
  (Object.entries(MIME_BY_KIND) as [DocumentKind, string][]).map(([kind, mime]) => [mime, kind]),
);

/**
 * The format of a stored MIME type: the inverse of MIME_BY_KIND, plus every image type (OCR reads them all) and
 * tab-separated text, which the CSV parser reads. Undefined for a type DocuChat does not store.
 */
export function kindOfMime(mime: string | null | undefined): DocumentKind | undefined {
  if (!mime) return undefined;
  const type = mime.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type.startsWith('image/')) return 'image';
  if (type === 'text/tab-separated-values') return 'csv';
  return KIND_BY_MIME.get(type);
}
