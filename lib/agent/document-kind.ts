import { analyze } from '@/lib/retrieval/analyzer';

/**
 * The words people call a document by its format: "the email", "the presentation", "the spreadsheet", "the book".
 * A question that names the document so ("How many illustrations does the book have?", "Who sent the email?") asks
 * about that document, whose passages never need to say the word: the format says it, as the file name and title
 * say theirs. Read from the chunk's MIME type (lib/ingest/sniff.ts: what the file really is, not its extension).
 * "document" and "file" name every format and are question noise already (text.ts).
 */
const KIND_WORDS: readonly (readonly [RegExp, string])[] = [
  [/^message\/rfc822$|^application\/vnd\.ms-outlook$/, 'email e-mail mail message'],
  [/presentation/, 'presentation slides slide deck'],
  [/spreadsheet|^application\/vnd\.ms-excel$|^text\/csv$|^text\/tab-separated-values$/, 'spreadsheet sheet workbook'],
  [/^application\/epub\+zip$/, 'book ebook'],
  [/^application\/pdf$/, 'pdf'],
];

const cache = new Map<string, readonly string[]>();

/** The analysed words naming a document of this MIME type's format (none for formats with no name of their own). */
export function kindTerms(mime: string | null | undefined): readonly string[] {
  if (!mime) return [];
  let terms = cache.get(mime);
  if (!terms) {
    terms = [...new Set(KIND_WORDS.filter(([re]) => re.test(mime)).flatMap(([, words]) => analyze(words)))];
    cache.set(mime, terms);
  }
  return terms;
}
