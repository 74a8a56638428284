import fc from 'fast-check';
import { z } from 'zod';

/**
 * fast-check arbitraries for the route fuzzer: requests derived from a route's own zod schema (through its JSON
 * Schema), and hostile mutations of them (wrong types, huge strings, deep nesting, bad UTF-8, duplicate keys,
 * wrong content types). Written here because no maintained zod-4 → fast-check bridge exists on the registry; the
 * JSON Schema subset below is what `z.toJSONSchema` emits for this project's request schemas.
 */

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  additionalProperties?: boolean | JsonSchema;
};

const MAX_STRING = 80;
const MAX_ITEMS = 4;

function stringFor(schema: JsonSchema): fc.Arbitrary<string> {
  switch (schema.format) {
    case 'uuid':
      return fc.uuid();
    case 'date':
      return fc
        .date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return fc
        .date({ min: new Date('1900-01-01'), max: new Date('2100-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'email':
      return fc.emailAddress();
    default: {
      const min = schema.minLength ?? 0;
      const max = Math.max(min, Math.min(schema.maxLength ?? MAX_STRING, MAX_STRING));
      return fc.string({ unit: 'binary', minLength: min, maxLength: max });
    }
  }
}

function numberFor(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e6;
  const max = schema.maximum ?? schema.exclusiveMaximum ?? 1e6;
  return integer
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** Values that fit the schema (most of the time: patterns and refinements are not modelled). */
function arbitraryFor(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => arbitraryFor(s, depth + 1)));
  if (schema.allOf?.length) return arbitraryFor(schema.allOf[0] as JsonSchema, depth + 1);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return stringFor(schema);
    case 'integer':
      return numberFor(schema, true);
    case 'number':
      return numberFor(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryFor(schema.items ?? {}, depth + 1), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? MAX_ITEMS, MAX_ITEMS)),
      });
    case 'object': {
      const props = schema.properties ?? {};
      const required = new Set(schema.required ?? []);
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [key, sub] of Object.entries(props)) shape[key] = arbitraryFor(sub, depth + 1);
      const requiredKeys = Object.keys(props).filter((k) => required.has(k));
      if (Object.keys(props).length === 0 && schema.additionalProperties && schema.additionalProperties !== true)
        return fc.dictionary(
          fc.string({ maxLength: 12 }),
          arbitraryFor(schema.additionalProperties as JsonSchema, depth + 1),
          { maxKeys: 3 },
        );
      return fc.record(shape, { requiredKeys });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** An arbitrary of inputs shaped by a zod schema (its input side). */
export function inputsOf(schema: z.ZodType): fc.Arbitrary<unknown> {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return arbitraryFor(json);
}

/** One request body as sent: raw bytes or text, the content type (null = none), and what kind of mutation it is. */
export interface FuzzBody {
  kind: string;
  body: string | Uint8Array | null;
  contentType: string | null;
}

const JSON_TYPE = 'application/json';

/** Replaces one value somewhere in a JSON value with a value of the wrong type. */
function wrongTypes(value: unknown): fc.Arbitrary<unknown> {
  const wrong = fc.oneof(
    fc.constant(null),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant([]),
    fc.constant({}),
    fc.string({ maxLength: 5 }),
    fc.constant('__proto__'),
    fc.constant({ __proto__: { polluted: true } }),
    fc.constant({ constructor: { prototype: { polluted: true } } }),
  );
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return fc.record({ unexpected: wrong });
    return fc.tuple(fc.constantFrom(...keys), wrong).map(([key, w]) => ({ ...(value as object), [key]: w }));
  }
  return wrong;
}

function nested(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

/** Bodies for a route that reads JSON: valid-looking ones from its schema and hostile ones. */
export function bodiesFor(schema: z.ZodType | undefined, maxBytes: number): fc.Arbitrary<FuzzBody> {
  const valid = schema ? inputsOf(schema) : fc.jsonValue({ maxDepth: 2 });
  const asJson = (kind: string) => (v: unknown) => ({
    kind,
    body: JSON.stringify(v) ?? 'null',
    contentType: JSON_TYPE,
  });
  return fc.oneof(
    { weight: 4, arbitrary: valid.map(asJson('schema')) },
    { weight: 3, arbitrary: valid.chain(wrongTypes).map(asJson('wrong-type')) },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(asJson('any-json')) },
    {
      weight: 1,
      arbitrary: fc
        .string({ unit: 'binary', maxLength: 200 })
        .map((s) => ({ kind: 'garbage', body: s, contentType: JSON_TYPE })),
    },
    {
      weight: 1,
      arbitrary: valid.map((v) => {
        const text = JSON.stringify(v) ?? '{}';
        return { kind: 'truncated', body: text.slice(0, Math.max(1, text.length - 1)), contentType: JSON_TYPE };
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(8, 40, 5_000, 50_000)
        .map((d) => ({ kind: 'deep', body: nested(d), contentType: JSON_TYPE })),
    },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(maxBytes + 1, maxBytes * 4)
        .map((n) => ({ kind: 'huge', body: JSON.stringify({ question: 'x'.repeat(n) }), contentType: JSON_TYPE })),
    },
    {
      weight: 1,
      arbitrary: fc.uint8Array({ minLength: 1, maxLength: 64 }).map((bytes) => ({
        kind: 'bad-utf8',
        body: Uint8Array.from([0x7b, 0x22, 0xff, 0xfe, ...bytes, 0x22, 0x7d]),
        contentType: JSON_TYPE,
      })),
    },
    {
      weight: 1,
      arbitrary: valid.map((v) => {
        const text = JSON.stringify(v) ?? '{}';
        const dup = text.startsWith('{"') ? text.replace(/^\{("[^"]+":)/, '{$1null,$1') : '{"a":1,"a":2}';
        return { kind: 'duplicate-keys', body: dup, contentType: JSON_TYPE };
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          valid,
          fc.constantFrom(
            null,
            'text/plain',
            'application/x-www-form-urlencoded',
            'multipart/form-data; boundary=x',
            'application/json; charset=utf-16',
            'application/xml',
            '*/*',
          ),
        )
        .map(([v, contentType]) => ({ kind: 'content-type', body: JSON.stringify(v) ?? 'null', contentType })),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'empty', body: '', contentType: JSON_TYPE }) },
  );
}

/** Path parameter values: mostly well-formed ids that do not exist, sometimes hostile strings. */
export const pathParam: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.uuid() },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '..',
      '../../etc/passwd',
      '%00',
      '\u0000',
      'null',
      'undefined',
      ' ',
      'x'.repeat(5000),
      '😀',
      'a/b',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 60 }) },
);

/** Query strings for GET routes: from the route's query schema, or hostile parameters. */
export function queryFor(schema: z.ZodType | undefined): fc.Arbitrary<Record<string, string>> {
  const hostile = fc.dictionary(
    fc.constantFrom('q', 'query', 'limit', 'status', 'bucketId', 'mode', 'topK', 'cursor', 'name', 'x'),
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.constantFrom('-1', '1e309', 'NaN', '%', '_', 'x'.repeat(10_000)),
    ),
    { maxKeys: 4 },
  );
  if (!schema) return hostile;
  const fromSchema = inputsOf(schema).map((v) => {
    const out: Record<string, string> = {};
    if (v && typeof v === 'object')
      for (const [k, val] of Object.entries(v)) out[k] = typeof val === 'string' ? val : JSON.stringify(val);
    return out;
  });
  return fc.oneof(fromSchema, hostile);
}
