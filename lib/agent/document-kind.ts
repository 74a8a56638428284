import { kindOfMime } from '@/lib/ingest/mime-by-kind';
import type { DocumentKind } from '@/lib/ingest/types';
import { analyze } from '@/lib/retrieval/analyzer';

/**
 * The words people call a document by its format: "the email", "the presentation", "the spreadsheet", "the book".
 * A question that names the document so ("How many illustrations does the book have?", "Who sent the email?") asks
 * about that document, whose passages never need to say the word: the format says it, as the file name and title
 * say theirs. Read from the chunk's MIME type (lib/ingest/sniff.ts: what the file really is, not its extension).
 * "document" and "file" name every format and are question noise already (text.ts).
 */
const WORDS_BY_KIND: Partial<Record<DocumentKind, string>> = {
  eml: 'email e-mail mail message',
  msg: 'email e-mail mail message',
  pptx: 'presentation slides slide deck',
  odp: 'presentation slides slide deck',
  xlsx: 'spreadsheet sheet workbook',
  xls: 'spreadsheet sheet workbook',
  ods: 'spreadsheet sheet workbook',
  csv: 'spreadsheet sheet workbook',
  epub: 'book ebook',
  pdf: 'pdf',
};

const cache = new Map<string, readonly string[]>();

/** The analysed words naming a document of this MIME type's format (none for formats with no name of their own). */
export function kindTerms(mime: string | null | undefined): readonly string[] {
  if (!mime) return [];
  let terms = cache.get(mime);
  if (!terms) {
    const kind = kindOfMime(mime);
    const words = kind ? WORDS_BY_KIND[kind] : undefined;
    terms = words ? [...new Set(analyze(words))] : [];
    cache.set(mime, terms);
  }
  return terms;
}
