import type { DocumentMetadata } from '@/lib/domain/document';

/**
 * The metadata editor's draft and its validation. The limits mirror `documentMetadataSchema` on the server
 * (which stays the authority: its 422 field messages are mapped back onto the same draft errors).
 */

export const TITLE_MAX = 300;
export const TAG_MAX = 60;
export const TAGS_MAX = 50;
export const FIELD_KEY_MAX = 60;
export const FIELD_VALUE_MAX = 500;

export interface FieldDraft {
  /** Stable row id for React keys and error mapping (not sent). */
  rowId: string;
  key: string;
  value: string;
}

export interface MetadataDraft {
  title: string;
  documentDate: string;
  tags: string[];
  /** Text typed into the tag box but not yet turned into a chip; saved too. */
  pendingTag: string;
  fields: FieldDraft[];
}

export interface MetadataErrors {
  title?: string;
  documentDate?: string;
  tags?: string;
  /** Per field row: a message for its name and/or its value. */
  fields: Record<string, { key?: string; value?: string }>;
  /** A message about the fields as a whole (e.g. from the server). */
  fieldsGeneral?: string;
}

let rowCounter = 0;

/** A fresh row id, unique within the page. */
export function newRowId(): string {
  rowCounter += 1;
  return `field-${rowCounter}`;
}

/** The editable draft of stored metadata. */
export function draftFromMetadata(metadata: DocumentMetadata): MetadataDraft {
  return {
    title: metadata.title ?? '',
    documentDate: metadata.documentDate ?? '',
    tags: [...metadata.tags],
    pendingTag: '',
    fields: Object.entries(metadata.fields).map(([key, value]) => ({ rowId: newRowId(), key, value })),
  };
}

/** Collapses inner whitespace and trims, the way tags and field names are stored. */
export function cleanLabel(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

/**
 * Adds the comma-separated tags in `input` to `tags`: trimmed, blank ones dropped, duplicates (ignoring case)
 * skipped. Returns the new list and any message about a tag that could not be added.
 */
export function addTags(tags: readonly string[], input: string): { tags: string[]; error?: string } {
  const next = [...tags];
  let error: string | undefined;
  for (const raw of input.split(',')) {
    const tag = cleanLabel(raw);
    if (!tag) continue;
    if (tag.length > TAG_MAX) {
      error = `Tags have at most ${TAG_MAX} characters.`;
      continue;
    }
    if (next.some((t) => t.toLocaleLowerCase() === tag.toLocaleLowerCase())) continue;
    if (next.length >= TAGS_MAX) {
      error = `A document can have at most ${TAGS_MAX} tags.`;
      break;
    }
    next.push(tag);
  }
  return error ? { tags: next, error } : { tags: next };
}

/** True for a real calendar date written YYYY-MM-DD (rejects 2023-02-30). */
export function isIsoDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export function hasErrors(errors: MetadataErrors): boolean {
  return Boolean(
    errors.title || errors.documentDate || errors.tags || errors.fieldsGeneral || Object.keys(errors.fields).length > 0,
  );
}

/**
 * Validates the draft. On success returns the metadata to PATCH (blank title/date become null, the pending tag
 * is included, blank field rows are dropped); otherwise a message per problem, keyed like the form.
 */
export function validateMetadataDraft(
  draft: MetadataDraft,
): { ok: true; metadata: DocumentMetadata } | { ok: false; errors: MetadataErrors } {
  const errors: MetadataErrors = { fields: {} };

  const title = draft.title.trim();
  if (title.length > TITLE_MAX) errors.title = `The title has at most ${TITLE_MAX} characters (now ${title.length}).`;

  const documentDate = draft.documentDate.trim();
  if (documentDate && !isIsoDate(documentDate)) errors.documentDate = 'Enter a real date (year-month-day).';

  const withPending = addTags(draft.tags, draft.pendingTag);
  if (withPending.error) errors.tags = withPending.error;

  const fields: Record<string, string> = {};
  const seen = new Map<string, string>();
  for (const row of draft.fields) {
    const key = cleanLabel(row.key);
    const value = row.value;
    if (!key && !value.trim()) continue;
    const rowErrors: { key?: string; value?: string } = {};
    if (!key) rowErrors.key = 'Give this field a name.';
    else if (key.length > FIELD_KEY_MAX) rowErrors.key = `Field names have at most ${FIELD_KEY_MAX} characters.`;
    else if (seen.has(key.toLocaleLowerCase())) rowErrors.key = `“${key}” is already used above.`;
    if (value.length > FIELD_VALUE_MAX) rowErrors.value = `Values have at most ${FIELD_VALUE_MAX} characters.`;
    if (rowErrors.key || rowErrors.value) {
      errors.fields[row.rowId] = rowErrors;
      continue;
    }
    seen.set(key.toLocaleLowerCase(), key);
    fields[key] = value.trim();
  }

  if (hasErrors(errors)) return { ok: false, errors };
  return {
    ok: true,
    metadata: { title: title || null, documentDate: documentDate || null, tags: withPending.tags, fields },
  };
}

/**
 * Maps the server's 422 `details.fields` (paths like `metadata.title`, `metadata.tags.3`,
 * `metadata.fields.Client`) onto the form's errors. Returns null when nothing in it concerns the metadata.
 */
export function errorsFromServer(details: Record<string, unknown> | undefined): MetadataErrors | null {
  const raw = details?.fields;
  if (!raw || typeof raw !== 'object') return null;
  const errors: MetadataErrors = { fields: {} };
  for (const [path, message] of Object.entries(raw as Record<string, unknown>)) {
    if (typeof message !== 'string') continue;
    const [root, part] = path.split('.');
    if (root !== 'metadata') continue;
    if (part === 'title') errors.title = message;
    else if (part === 'documentDate') errors.documentDate = message;
    else if (part === 'tags') errors.tags = message;
    else errors.fieldsGeneral = message;
  }
  return hasErrors(errors) ? errors : null;
}
