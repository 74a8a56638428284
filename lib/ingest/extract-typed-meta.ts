import {
  type BucketMetaSchema,
  coerceMetaValue,
  isIsoDay,
  type MetaEvidence,
  type MetaField,
  type MetaValue,
} from '@/lib/domain/typed-meta';

/**
 * Deterministic extraction of typed values at ingest, without a language model:
 * - a value written after the field's label or name ("Total: $1,500.00", "Issued 2 March 2023") is read in the
 *   80 characters that follow it, in the first chunk that has one;
 * - without a label, a date field that is the schema's only date field takes the document's first date, and a
 *   number field that is its only number field takes the first amount written with a currency;
 * - a string field with a `pattern` takes the pattern's first match anywhere in the document.
 * Every value keeps its evidence: chunk index, page and the character offsets of the quote inside the chunk.
 */

export interface ExtractableChunk {
  index: number;
  page: number | null;
  text: string;
}

export interface ExtractedValues {
  values: Record<string, MetaValue>;
  evidence: Record<string, MetaEvidence>;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH = String.raw`(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`;
/** Unambiguous date spellings only: ISO, "March 2, 2023", "2 March 2023" (never 03/02/2023, day-month order unknown). */
const DATE = new RegExp(
  String.raw`\b(\d{4})-(\d{2})-(\d{2})\b|\b${MONTH}\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})\b|\b(\d{1,2})(?:st|nd|rd|th)?\s+${MONTH}\s+(\d{4})\b`,
  'giu',
);
const AMOUNT = /(?:[$€£¥]\s?|\b(?:USD|EUR|GBP|CHF|JPY)\s?)?-?(?:\d{1,3}(?:[,\s]\d{3})+|\d+)(?:\.\d+)?\b/giu;
const CURRENCY = /^(?:[$€£¥]|USD|EUR|GBP|CHF|JPY)/iu;
const WINDOW = 80;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function dateOf(m: RegExpExecArray | RegExpMatchArray): string | null {
  const monthIndex = (name: string | undefined) => MONTHS.indexOf((name ?? '').slice(0, 3).toLowerCase()) + 1;
  let day: string | null = null;
  if (m[1]) day = `${m[1]}-${m[2]}-${m[3]}`;
  else if (m[4]) day = `${m[6]}-${pad(monthIndex(m[4]))}-${pad(Number(m[5]))}`;
  else if (m[7]) day = `${m[9]}-${pad(monthIndex(m[8]))}-${pad(Number(m[7]))}`;
  return day && isIsoDay(day) ? day : null;
}

interface Found {
  value: MetaValue;
  start: number;
  end: number;
}

function firstDate(text: string, from = 0, to = text.length): Found | null {
  for (const m of text.slice(from, to).matchAll(DATE)) {
    const value = dateOf(m);
    if (value) return { value, start: from + m.index, end: from + m.index + m[0].length };
  }
  return null;
}

function firstAmount(text: string, from: number, to: number, needCurrency: boolean): Found | null {
  for (const m of text.slice(from, to).matchAll(AMOUNT)) {
    const raw = m[0].trim();
    if (needCurrency && !CURRENCY.test(raw)) continue;
    if (/^(?:19|20)\d{2}$/.test(raw)) continue; // a bare year is not an amount
    const n = Number(raw.replace(/^(?:[$€£¥]|USD|EUR|GBP|CHF|JPY)\s?/iu, '').replace(/[,\s]/g, ''));
    if (Number.isFinite(n)) return { value: n, start: from + m.index, end: from + m.index + m[0].length };
  }
  return null;
}

/** Labels a field is written under: its label, its name with spaces, then each longer word of its name. */
function labelsOf(field: MetaField): RegExp[] {
  const words = field.name.split('_').filter((w) => w.length >= 4);
  const phrases = [...new Set([field.label, field.name.replace(/_/g, ' '), ...words].filter((p): p is string => !!p))];
  return phrases.map((p) => {
    const escaped = p.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    return new RegExp(`(?:^|[^\\p{L}\\p{N}])(${escaped})(?:$|[^\\p{L}\\p{N}])`, 'giu');
  });
}

function valueAfter(field: MetaField, text: string, from: number): Found | null {
  const to = Math.min(text.length, from + WINDOW);
  switch (field.type) {
    case 'date':
      return firstDate(text, from, to);
    case 'number':
      return firstAmount(text, from, to, false);
    case 'enum': {
      const window = text.slice(from, to).toLowerCase();
      let best: Found | null = null;
      for (const value of field.values ?? []) {
        const at = window.indexOf(value.toLowerCase());
        if (at >= 0 && (!best || from + at < best.start))
          best = { value, start: from + at, end: from + at + value.length };
      }
      return best;
    }
    case 'boolean': {
      const m = /\b(yes|no|true|false)\b/i.exec(text.slice(from, to));
      return m
        ? { value: /^(?:yes|true)$/i.test(m[1] ?? ''), start: from + m.index, end: from + m.index + m[0].length }
        : null;
    }
    case 'string':
      return null; // free text after a label has no end we can trust; strings come from a pattern
  }
}

function evidence(chunk: ExtractableChunk, start: number, end: number): MetaEvidence {
  return {
    source: 'pattern',
    quote: chunk.text.slice(start, end).replace(/\s+/g, ' ').slice(0, 500),
    chunkIndex: chunk.index,
    page: chunk.page,
    charStart: start,
    charEnd: end,
  };
}

function byLabel(
  field: MetaField,
  chunks: readonly ExtractableChunk[],
): { found: Found; chunk: ExtractableChunk; labelAt: number } | null {
  for (const label of labelsOf(field)) {
    for (const chunk of chunks) {
      for (const m of chunk.text.matchAll(label)) {
        const labelAt = m.index + m[0].indexOf(m[1] ?? '');
        const found = valueAfter(field, chunk.text, labelAt + (m[1] ?? '').length);
        if (found) return { found, chunk, labelAt };
      }
    }
  }
  return null;
}

function byPattern(
  field: MetaField,
  chunks: readonly ExtractableChunk[],
): { found: Found; chunk: ExtractableChunk } | null {
  if (!field.pattern) return null;
  const re = new RegExp(field.pattern, 'u');
  for (const chunk of chunks) {
    const m = re.exec(chunk.text);
    if (m && m[0].length > 0) return { found: { value: m[0], start: m.index, end: m.index + m[0].length }, chunk };
  }
  return null;
}

function byFallback(
  field: MetaField,
  schema: BucketMetaSchema,
  chunks: readonly ExtractableChunk[],
): { found: Found; chunk: ExtractableChunk } | null {
  const onlyOfType = schema.fields.filter((f) => f.type === field.type).length === 1;
  if (!onlyOfType) return null;
  for (const chunk of chunks) {
    const found =
      field.type === 'date'
        ? firstDate(chunk.text)
        : field.type === 'number'
          ? firstAmount(chunk.text, 0, chunk.text.length, true)
          : null;
    if (found) return { found, chunk };
  }
  return null;
}

/** Typed values for the schema's fields read from the document's chunks (fields without a value are left out). */
export function extractTypedValues(schema: BucketMetaSchema, chunks: readonly ExtractableChunk[]): ExtractedValues {
  const out: ExtractedValues = { values: {}, evidence: {} };
  for (const field of schema.fields) {
    let hit: { found: Found; chunk: ExtractableChunk; from?: number } | null = null;
    if (field.type === 'string') hit = byPattern(field, chunks);
    else {
      const labelled = byLabel(field, chunks);
      hit = labelled ? { ...labelled, from: labelled.labelAt } : byFallback(field, schema, chunks);
    }
    if (!hit) continue;
    const coerced = coerceMetaValue(field, hit.found.value);
    if (!coerced.ok) continue;
    out.values[field.name] = coerced.value;
    out.evidence[field.name] = evidence(hit.chunk, hit.from ?? hit.found.start, hit.found.end);
  }
  return out;
}
