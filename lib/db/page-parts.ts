/**
 * A document unit (page, sheet, section) is stored as one DocumentPage row per part of at most PAGE_PART_CHARS
 * characters. A plain-text file without sections is ONE unit (12.6 MB in the fairness benchmark), and one INSERT of
 * it held the event loop for 0.45 to 1.5 s (SQLite runs a statement synchronously); in parts, each INSERT is short
 * and the loop gets a turn between them (lib/db/bulk-insert.ts). Readers join the parts in order.
 */

/** The same bound as one INSERT statement's text (DEFAULT_BATCH_CHARS), so a part never shares a statement. */
export const PAGE_PART_CHARS = 128 * 1024;

/** The text in consecutive parts (at least one; never splitting a surrogate pair). */
export function splitPageText(text: string, maxChars = PAGE_PART_CHARS): string[] {
  if (text.length <= maxChars) return [text];
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + maxChars);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff && end - 1 > start) end--;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts;
}

/** Rows ordered by (ordinal, part) joined into one row per ordinal (the first part's other fields). */
export function joinPageParts<Row extends { ordinal: number; text: string }>(rows: readonly Row[]): Row[] {
  const out: Row[] = [];
  let texts: string[] = [];
  for (const row of rows) {
    const current = out[out.length - 1];
    if (current && current.ordinal === row.ordinal) {
      texts.push(row.text);
      continue;
    }
    if (current) current.text = texts.join('');
    out.push({ ...row });
    texts = [row.text];
  }
  const last = out[out.length - 1];
  if (last) last.text = texts.join('');
  return out;
}
