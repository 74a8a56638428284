import type { BucketMetaSchema, MetaField, MetaFilter } from '@/lib/domain/typed-meta';
import { MONTHS } from './asked-values';

/**
 * Typed filters from the wording of a question, for the fields a bucket's schema declares: comparatives on
 * numbers ("over 1000", "at most $250", "between 10 and 20") and calendar expressions on dates ("in 2023",
 * "in March 2023", "before 2022-06-30", "since 2021"). A filter is made only when the field it applies to is clear:
 * the field's name or label is written just before the expression, or the schema has one field of that type.
 * Deterministic and language-general within English comparatives; the model's plan may add filters when configured.
 */

const NUMBER = String.raw`[$€£¥]?\s?(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?:\s?([kKmM])\b)?`;
const COMPARATIVES: ReadonlyArray<{ op: MetaFilter['op']; words: string }> = [
  { op: '>=', words: String.raw`at\s+least|no\s+less\s+than|not\s+less\s+than|minimum\s+of|>=` },
  { op: '<=', words: String.raw`at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to|maximum\s+of|<=` },
  { op: '>', words: String.raw`over|above|more\s+than|greater\s+than|higher\s+than|exceeding|larger\s+than|>` },
  { op: '<', words: String.raw`under|below|less\s+than|lower\s+than|smaller\s+than|<` },
];
const YEAR = String.raw`((?:19|20)\d{2})`;
const DAY = String.raw`(\d{4}-\d{2}-\d{2})`;

function parseNumber(digits: string, scale: string | undefined): number {
  const n = Number(digits.replace(/,/g, ''));
  if (scale === 'k' || scale === 'K') return n * 1_000;
  if (scale === 'm' || scale === 'M') return n * 1_000_000;
  return n;
}

/** The words a field is called by: its label, and its name with underscores as spaces ("total amount", "total"). */
function fieldWords(field: MetaField): string[] {
  const words = field.name.split('_').filter((w) => w.length >= 3);
  const phrases = [field.name.replace(/_/g, ' '), ...words];
  if (field.label) phrases.unshift(field.label.toLowerCase());
  return [...new Set(phrases.map((p) => p.toLowerCase()))];
}

/** The field of this type named in the `before` text (the nearest mention wins), else the only one of its type. */
function pickField(fields: readonly MetaField[], before: string): MetaField | null {
  const text = before.toLowerCase();
  let best: { field: MetaField; at: number } | null = null;
  for (const field of fields) {
    for (const phrase of fieldWords(field)) {
      const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const re = new RegExp(`(?:^|[^\\p{L}\\p{N}])${escaped}(?:$|[^\\p{L}\\p{N}])`, 'gu');
      for (const m of text.matchAll(re)) if (!best || m.index > best.at) best = { field, at: m.index };
    }
  }
  if (best) return best.field;
  return fields.length === 1 ? (fields[0] ?? null) : null;
}

/** The text just before a match, back to the previous comparative or clause boundary (where its field is named). */
function leadIn(question: string, index: number): string {
  return question.slice(Math.max(0, index - 40), index);
}

function numberFilters(question: string, fields: readonly MetaField[], taken: Set<string>): MetaFilter[] {
  if (fields.length === 0) return [];
  const out: MetaFilter[] = [];
  const between = new RegExp(String.raw`\bbetween\s+${NUMBER}\s+and\s+${NUMBER}`, 'giu');
  for (const m of question.matchAll(between)) {
    if (/^(?:19|20)\d{2}$/.test(m[1] ?? '') && /^(?:19|20)\d{2}$/.test(m[3] ?? '')) continue; // years: a date range
    const field = pickField(fields, leadIn(question, m.index));
    if (!field || taken.has(field.name)) continue;
    taken.add(field.name);
    out.push({
      field: field.name,
      type: 'number',
      op: 'between',
      values: [parseNumber(m[1] ?? '', m[2]), parseNumber(m[3] ?? '', m[4])],
    });
  }
  for (const { op, words } of COMPARATIVES) {
    const re = new RegExp(String.raw`(?:^|[^\p{L}])(?:${words})\s*${NUMBER}`, 'giu');
    for (const m of question.matchAll(re)) {
      const field = pickField(fields, leadIn(question, m.index));
      if (!field || taken.has(field.name)) continue;
      taken.add(field.name);
      out.push({ field: field.name, type: 'number', op, values: [parseNumber(m[1] ?? '', m[2])] });
    }
  }
  return out;
}

function monthRange(year: string, month: number): [string, string] {
  const last = new Date(Date.UTC(Number(year), month + 1, 0)).getUTCDate();
  const mm = String(month + 1).padStart(2, '0');
  return [`${year}-${mm}-01`, `${year}-${mm}-${String(last).padStart(2, '0')}`];
}

function dateFilters(question: string, fields: readonly MetaField[], taken: Set<string>): MetaFilter[] {
  if (fields.length === 0) return [];
  const out: MetaFilter[] = [];
  const add = (index: number, op: MetaFilter['op'], values: string[]) => {
    const field = pickField(fields, leadIn(question, index));
    if (!field || taken.has(field.name)) return;
    taken.add(field.name);
    out.push({ field: field.name, type: 'date', op, values });
  };
  const monthNames = MONTHS.join('|');
  for (const m of question.matchAll(
    new RegExp(String.raw`\b(?:between|from)\s+${YEAR}\s+(?:and|to|until)\s+${YEAR}\b`, 'giu'),
  ))
    add(m.index, 'between', [`${m[1]}-01-01`, `${m[2]}-12-31`]);
  for (const m of question.matchAll(new RegExp(String.raw`\b(?:in|during)\s+(${monthNames})\s+${YEAR}\b`, 'giu'))) {
    const month = (MONTHS as readonly string[]).indexOf((m[1] ?? '').toLowerCase());
    add(m.index, 'between', monthRange(m[2] ?? '', month));
  }
  for (const m of question.matchAll(new RegExp(String.raw`\b(?:in|during)\s+(?:the\s+year\s+)?${YEAR}\b`, 'giu')))
    add(m.index, 'between', [`${m[1]}-01-01`, `${m[1]}-12-31`]);
  for (const m of question.matchAll(
    new RegExp(String.raw`\b(before|prior\s+to|after|since|on)\s+(?:${DAY}|${YEAR})\b`, 'giu'),
  )) {
    const word = (m[1] ?? '').toLowerCase().replace(/\s+/g, ' ');
    const day = m[2];
    const year = m[3];
    if (word === 'on') {
      if (day) add(m.index, '=', [day]);
    } else if (word === 'before' || word === 'prior to') add(m.index, '<', [day ?? `${year}-01-01`]);
    else if (word === 'after') add(m.index, '>', [day ?? `${year}-12-31`]);
    else add(m.index, '>=', [day ?? `${year}-01-01`]);
  }
  return out;
}

/** Typed filters the question states for the schema's fields (at most one per field; the first wording wins). */
export function metaFiltersFromQuestion(question: string, schema: BucketMetaSchema): MetaFilter[] {
  const taken = new Set<string>();
  const dates = dateFilters(
    question,
    schema.fields.filter((f) => f.type === 'date'),
    taken,
  );
  const numbers = numberFilters(
    question,
    schema.fields.filter((f) => f.type === 'number'),
    taken,
  );
  return [...numbers, ...dates];
}
