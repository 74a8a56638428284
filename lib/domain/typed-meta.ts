import { z } from 'zod';

/**
 * Typed metadata per bucket: the schema a bucket declares (typed fields), the typed values a document holds for
 * it (with the evidence each value came from), and typed filters on those values. One module for every layer:
 * the API validates with these schemas, lib/db validates every write against the bucket's schema, the agent
 * validates its filters and matches documents with matchesMetaFilters.
 */

export const META_FIELD_TYPES = ['string', 'number', 'date', 'enum', 'boolean'] as const;
export type MetaFieldType = (typeof META_FIELD_TYPES)[number];

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,39}$/;
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function isValidRegex(source: string): boolean {
  try {
    new RegExp(source, 'u');
    return true;
  } catch {
    return false;
  }
}

/** A calendar day that exists (2023-02-30 does not). */
export function isIsoDay(value: string): boolean {
  if (!ISO_DAY.test(value)) return false;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
}

export const metaFieldSchema = z
  .object({
    name: z
      .string()
      .trim()
      .regex(IDENTIFIER, 'Field names are lower-case identifiers: a-z, 0-9 and _, starting with a letter or _.'),
    type: z.enum(META_FIELD_TYPES),
    required: z.boolean().default(false),
    /** Allowed values of an enum field. */
    values: z.array(z.string().trim().min(1).max(60)).min(1).max(50).optional(),
    /** A regular expression (JavaScript, unicode) a string field's values are extracted with at ingest. */
    pattern: z.string().min(1).max(200).refine(isValidRegex, 'Not a valid regular expression.').optional(),
    /** Words that label the value in a document ("Invoice date", "Total"), used by extraction at ingest. */
    label: z.string().trim().min(1).max(80).optional(),
  })
  .superRefine((field, ctx) => {
    if (field.type === 'enum' && !field.values)
      ctx.addIssue({ code: 'custom', path: ['values'], message: 'An enum field lists its values.' });
    if (field.type !== 'enum' && field.values)
      ctx.addIssue({ code: 'custom', path: ['values'], message: 'Only enum fields list values.' });
    if (field.type !== 'string' && field.pattern)
      ctx.addIssue({ code: 'custom', path: ['pattern'], message: 'Only string fields have a pattern.' });
  });
export type MetaField = z.infer<typeof metaFieldSchema>;

export const bucketMetaSchemaSchema = z
  .object({ fields: z.array(metaFieldSchema).max(30) })
  .superRefine((schema, ctx) => {
    const seen = new Set<string>();
    schema.fields.forEach((field, i) => {
      if (seen.has(field.name))
        ctx.addIssue({
          code: 'custom',
          path: ['fields', i, 'name'],
          message: `Field "${field.name}" is declared twice.`,
        });
      seen.add(field.name);
    });
  });
export type BucketMetaSchema = z.infer<typeof bucketMetaSchemaSchema>;

/** Stored schema JSON; anything malformed reads as no fields. */
export function readBucketMetaSchema(value: unknown): BucketMetaSchema {
  const parsed = bucketMetaSchemaSchema.safeParse(value ?? { fields: [] });
  return parsed.success ? parsed.data : { fields: [] };
}

/** A typed value: numbers are finite, dates are YYYY-MM-DD strings, enums one of their values. */
export type MetaValue = string | number | boolean;
const metaValueSchema = z.union([z.string().max(500), z.number().finite(), z.boolean()]);

/** Where an extracted value was read: the chunk (index, page) and character offsets of the quote in it. */
export const metaEvidenceSchema = z.object({
  source: z.enum(['manual', 'pattern', 'model']),
  quote: z.string().max(500).nullable().default(null),
  chunkIndex: z.number().int().min(0).nullable().default(null),
  page: z.number().int().min(1).nullable().default(null),
  charStart: z.number().int().min(0).nullable().default(null),
  charEnd: z.number().int().min(0).nullable().default(null),
});
export type MetaEvidence = z.infer<typeof metaEvidenceSchema>;

/** What a document stores: typed values and, per value, the evidence it came from. */
export const typedMetaSchema = z.object({
  values: z.record(z.string(), metaValueSchema).default({}),
  evidence: z.record(z.string(), metaEvidenceSchema).default({}),
});
export type TypedMeta = z.infer<typeof typedMetaSchema>;

export function readTypedMeta(value: unknown): TypedMeta {
  const parsed = typedMetaSchema.safeParse(value ?? {});
  return parsed.success ? parsed.data : { values: {}, evidence: {} };
}

/** The value coerced to the field's type, or an error message (a user's "1,500.00" is the number 1500). */
export function coerceMetaValue(
  field: MetaField,
  raw: unknown,
): { ok: true; value: MetaValue } | { ok: false; error: string } {
  const fail = (what: string) => ({ ok: false as const, error: `${field.name} must be ${what}.` });
  switch (field.type) {
    case 'number': {
      const n =
        typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw.replace(/[,\s]/g, '')) : Number.NaN;
      return Number.isFinite(n) && !(typeof raw === 'string' && raw.trim() === '')
        ? { ok: true, value: n }
        : fail('a number');
    }
    case 'date':
      return typeof raw === 'string' && isIsoDay(raw.trim())
        ? { ok: true, value: raw.trim() }
        : fail('a date (YYYY-MM-DD)');
    case 'boolean':
      return typeof raw === 'boolean' ? { ok: true, value: raw } : fail('true or false');
    case 'enum':
      return typeof raw === 'string' && field.values?.includes(raw.trim())
        ? { ok: true, value: raw.trim() }
        : fail(`one of ${(field.values ?? []).join(', ')}`);
    case 'string':
      return typeof raw === 'string' && raw.trim().length > 0 && raw.length <= 500
        ? { ok: true, value: raw.trim() }
        : fail('a non-empty text of at most 500 characters');
  }
}

export type ValuesCheck = { ok: true; values: Record<string, MetaValue> } | { ok: false; errors: string[] };

/**
 * Validates values against a bucket schema: every key a declared field, every value of its type, every required
 * field present (unless `partial`, for values extracted at ingest, which may miss some). Null values are dropped.
 */
export function checkTypedValues(
  schema: BucketMetaSchema,
  input: Record<string, unknown>,
  options: { partial?: boolean } = {},
): ValuesCheck {
  const byName = new Map(schema.fields.map((f) => [f.name, f]));
  const errors: string[] = [];
  const values: Record<string, MetaValue> = {};
  for (const [key, raw] of Object.entries(input)) {
    const field = byName.get(key);
    if (!field) {
      errors.push(`Unknown field "${key}"; the bucket declares: ${describeFields(schema) || '(no fields)'}.`);
      continue;
    }
    if (raw === null || raw === undefined) continue;
    const coerced = coerceMetaValue(field, raw);
    if (coerced.ok) values[key] = coerced.value;
    else errors.push(coerced.error);
  }
  if (!options.partial) {
    for (const field of schema.fields) {
      if (field.required && !(field.name in values)) errors.push(`${field.name} is required.`);
    }
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, values };
}

/** "total_amount (number), issued (date)": how errors name the valid fields. */
export function describeFields(schema: BucketMetaSchema): string {
  return schema.fields
    .map((f) => `${f.name} (${f.type === 'enum' ? `enum: ${(f.values ?? []).join('|')}` : f.type})`)
    .join(', ');
}

export const META_OPERATORS = ['=', '!=', '<', '<=', '>', '>=', 'in', 'between'] as const;
export type MetaOperator = (typeof META_OPERATORS)[number];

/** A typed filter as a caller writes it (the API, the model, the UI): field, operator, value(s). */
export const metaFilterInputSchema = z.object({
  field: z.string().trim().min(1).max(40),
  op: z.enum(META_OPERATORS),
  value: z.union([metaValueSchema, z.array(metaValueSchema).min(1).max(20)]),
});
export type MetaFilterInput = z.infer<typeof metaFilterInputSchema>;

/** A typed filter checked against a schema: values coerced to the field's type; `between` is [low, high]. */
export interface MetaFilter {
  field: string;
  type: MetaFieldType;
  op: MetaOperator;
  values: MetaValue[];
}

export type FilterCheck = { ok: true; filters: MetaFilter[] } | { ok: false; error: string };

/**
 * Checks filters against the union of the given schemas' fields: the field exists, the operator suits its type
 * (ranges only on numbers and dates), the value(s) coerce to its type. The error names the valid fields.
 */
export function checkMetaFilters(schema: BucketMetaSchema, inputs: readonly MetaFilterInput[]): FilterCheck {
  const byName = new Map(schema.fields.map((f) => [f.name, f]));
  const valid = describeFields(schema) || '(this bucket declares no typed fields)';
  const filters: MetaFilter[] = [];
  for (const input of inputs) {
    const field = byName.get(input.field);
    if (!field) return { ok: false, error: `Unknown field "${input.field}". Valid fields: ${valid}.` };
    const ordered = field.type === 'number' || field.type === 'date';
    if (!ordered && ['<', '<=', '>', '>=', 'between'].includes(input.op))
      return {
        ok: false,
        error: `"${input.op}" needs a number or date field; ${field.name} is ${field.type}. Valid fields: ${valid}.`,
      };
    const raw = Array.isArray(input.value) ? input.value : [input.value];
    const wanted = input.op === 'between' ? 2 : input.op === 'in' ? -1 : 1;
    if (wanted > 0 && raw.length !== wanted)
      return { ok: false, error: `"${input.op}" takes ${wanted === 2 ? 'two values [low, high]' : 'one value'}.` };
    const values: MetaValue[] = [];
    for (const v of raw) {
      const coerced = coerceMetaValue(field, v);
      if (!coerced.ok) return { ok: false, error: `${coerced.error} Valid fields: ${valid}.` };
      values.push(coerced.value);
    }
    filters.push({ field: field.name, type: field.type, op: input.op, values });
  }
  return { ok: true, filters };
}

/** The fields of several buckets as one schema (a name declared twice with different types is left out). */
export function unionSchemas(schemas: readonly BucketMetaSchema[]): BucketMetaSchema {
  const byName = new Map<string, MetaField>();
  const conflicting = new Set<string>();
  for (const schema of schemas) {
    for (const field of schema.fields) {
      const seen = byName.get(field.name);
      if (seen && seen.type !== field.type) conflicting.add(field.name);
      else if (!seen) byName.set(field.name, field);
    }
  }
  return { fields: [...byName.values()].filter((f) => !conflicting.has(f.name)) };
}

function compare(a: MetaValue, b: MetaValue): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

/**
 * True when the values pass every filter. A document without a value for a filtered field never passes (not even
 * `!=`): a filter asks about documents that have the field. A value passes only a filter of its kind: numbers
 * number filters, booleans boolean filters, strings string and enum filters, and strings that are calendar days
 * (YYYY-MM-DD) date filters, compared as such. This is the reference every pushed-down filter (LanceDB SQL,
 * Qdrant payload filter) is tested against.
 */
export function matchesMetaFilters(values: Record<string, MetaValue>, filters: readonly MetaFilter[]): boolean {
  return filters.every((filter) => matchesOne(values, filter));
}

function matchesOne(values: Record<string, MetaValue>, filter: MetaFilter): boolean {
  if (!Object.hasOwn(values, filter.field)) return false;
  const value = values[filter.field] as MetaValue;
  if (typeof value !== (filter.type === 'number' ? 'number' : filter.type === 'boolean' ? 'boolean' : 'string'))
    return false;
  if (filter.type === 'date' && !isIsoDay(value as string)) return false;
  const [first, second] = filter.values as [MetaValue, MetaValue?];
  switch (filter.op) {
    case '=':
      return compare(value, first) === 0;
    case '!=':
      return compare(value, first) !== 0;
    case '<':
      return compare(value, first) < 0;
    case '<=':
      return compare(value, first) <= 0;
    case '>':
      return compare(value, first) > 0;
    case '>=':
      return compare(value, first) >= 0;
    case 'in':
      return filter.values.some((v) => compare(value, v) === 0);
    case 'between':
      return second !== undefined && compare(value, first) >= 0 && compare(value, second) <= 0;
  }
}

const ORDERED_OPS: readonly MetaOperator[] = ['<', '<=', '>', '>=', 'between'];

/**
 * A checked filter as it travels to a chunk index (the engines validate it again: the field is an identifier, each
 * value has the field type's JavaScript type, ranges only on numbers and dates, the operator's arity holds).
 */
export const metaFilterSchema = z
  .object({
    field: z.string().regex(IDENTIFIER),
    type: z.enum(META_FIELD_TYPES),
    op: z.enum(META_OPERATORS),
    values: z.array(metaValueSchema).min(1).max(20),
  })
  .superRefine((filter, ctx) => {
    const jsType = filter.type === 'number' ? 'number' : filter.type === 'boolean' ? 'boolean' : 'string';
    if (!filter.values.every((v) => typeof v === jsType))
      ctx.addIssue({ code: 'custom', path: ['values'], message: `${filter.field} takes ${filter.type} values.` });
    if (filter.type === 'date' && !filter.values.every((v) => typeof v === 'string' && isIsoDay(v)))
      ctx.addIssue({ code: 'custom', path: ['values'], message: 'Dates are YYYY-MM-DD.' });
    if (ORDERED_OPS.includes(filter.op) && filter.type !== 'number' && filter.type !== 'date')
      ctx.addIssue({ code: 'custom', path: ['op'], message: `"${filter.op}" needs a number or date field.` });
    const arity = filter.op === 'between' ? 2 : filter.op === 'in' ? -1 : 1;
    if (arity > 0 && filter.values.length !== arity)
      ctx.addIssue({ code: 'custom', path: ['values'], message: `"${filter.op}" takes ${arity} value(s).` });
  });

/**
 * The typed values a document's chunks carry into a chunk index: its values while it is in a bucket, none outside
 * one (a typed filter asks about documents in buckets that declare fields).
 */
export function indexedMetaValues(
  bucketId: string | null,
  values: Record<string, MetaValue>,
): Record<string, MetaValue> {
  return bucketId === null ? {} : { ...values };
}

/** "total_amount > 1000": a filter as the trace and the model read it. */
export function describeMetaFilter(filter: MetaFilter): string {
  const shown = filter.values.map((v) => (typeof v === 'string' ? v : String(v)));
  if (filter.op === 'between') return `${filter.field} between ${shown[0]} and ${shown[1]}`;
  if (filter.op === 'in') return `${filter.field} in (${shown.join(', ')})`;
  return `${filter.field} ${filter.op} ${shown[0]}`;
}

/** A hand edit of a document's typed values (checked against the bucket's schema when written). */
export const manualValuesSchema = z
  .object({ values: z.record(z.string().max(40), z.union([metaValueSchema, z.null()])) })
  .strict()
  .refine((body) => Object.keys(body.values).length <= 30, 'At most 30 values.');
