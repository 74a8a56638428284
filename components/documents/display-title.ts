/**
 * The name a document is shown under. Titles come from the file's own metadata (PDF info, Office core properties,
 * HTML <title>) and are often not titles at all: a file name ("10811.exe", "Microsoft Word - x.doc"), an
 * application's placeholder ("Untitled", "Document1"), a number or a page of text. Such titles are ignored and the
 * file name the user uploaded is shown instead.
 */

export interface Titled {
  filename: string;
  /** The document's title (from its metadata or set by the user); null when there is none. */
  title?: string | null | undefined;
}

/** Longer than this, a "title" is a sentence or a paragraph pasted into the metadata, not a title. */
const MAX_TITLE_LENGTH = 120;

/** A trailing ".ext" (letters first, then up to 4 letters or digits): the mark of a file name. */
const FILE_EXTENSION = /\.[a-z][a-z0-9]{0,4}$/i;

/** Default names office applications put in the title property of new files (any language-neutral number after). */
const PLACEHOLDER =
  /^(untitled|no title|title|document|new document|doc|sheet|book|workbook|presentation|slide)[\s_-]*\d*$/i;

function collapse(value: string): string {
  return value.replace(/[\s\u00a0]+/g, ' ').trim();
}

function countLetters(value: string): number {
  return (value.match(/\p{L}/gu) ?? []).length;
}

/**
 * The title when it reads like a title, else null. Rejected: empty, placeholders, anything ending in a file
 * extension (which covers "Microsoft Word - x.doc"), the file name itself, control or replacement characters
 * (a mis-decoded property), more than 120 characters, fewer than two letters, or fewer letters than other
 * visible characters.
 */
export function usableTitle(doc: Titled): string | null {
  if (typeof doc.title !== 'string') return null;
  const title = collapse(doc.title);
  if (title === '' || title.length > MAX_TITLE_LENGTH) return null;
  if (PLACEHOLDER.test(title)) return null;
  if (FILE_EXTENSION.test(title)) return null;
  if (/[\p{Cc}\p{Cs}\ufffd]/u.test(title)) return null;
  const name = collapse(doc.filename);
  if (title.toLocaleLowerCase() === name.toLocaleLowerCase()) return null;
  if (title.toLocaleLowerCase() === name.replace(FILE_EXTENSION, '').toLocaleLowerCase()) return null;
  const letters = countLetters(title);
  const visible = title.replace(/\s/g, '').length;
  if (letters < 2 || letters * 2 < visible) return null;
  return title;
}

/** The name to show for a document: its title when it reads like one, else its file name. */
export function displayTitle(doc: Titled): string {
  const title = usableTitle(doc);
  if (title) return title;
  const name = collapse(doc.filename);
  return name || 'Unnamed file';
}
