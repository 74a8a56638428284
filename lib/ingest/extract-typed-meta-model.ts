import { generateText, type LanguageModel, Output } from 'ai';
import { z } from 'zod';
import {
  type BucketMetaSchema,
  coerceMetaValue,
  describeFields,
  type MetaEvidence,
  type MetaField,
  type MetaValue,
} from '@/lib/domain/typed-meta';
import type { ExtractableChunk, ExtractedValues } from '@/lib/ingest/extract-typed-meta';

/**
 * Typed values read by a language model, when one is configured: one structured-output call per document with the
 * bucket's schema. The output is validated with zod, each value coerced to its field's type, and each value's
 * quote must occur verbatim in one chunk (and contain the value): anything else is dropped, so a value always
 * comes with evidence a reader can find.
 */

const MAX_PROMPT_CHARS = 12_000;

const modelOutputSchema = z.object({
  values: z
    .array(
      z.object({
        field: z.string().describe('A field name from the schema'),
        value: z.string().describe('The value: a number as digits, a date as YYYY-MM-DD, an enum value, true/false'),
        quote: z.string().describe('The exact words of the document the value was read from, copied verbatim'),
      }),
    )
    .max(60),
});

function excerpt(chunks: readonly ExtractableChunk[]): string {
  let out = '';
  for (const chunk of chunks) {
    if (out.length + chunk.text.length > MAX_PROMPT_CHARS) {
      out += chunk.text.slice(0, Math.max(0, MAX_PROMPT_CHARS - out.length));
      break;
    }
    out += `${chunk.text}\n\n`;
  }
  return out;
}

/** The chunk and offsets where the quote occurs verbatim (whitespace runs may differ), else null. */
function locate(quote: string, chunks: readonly ExtractableChunk[]): MetaEvidence | null {
  const words = quote.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return null;
  const pattern = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\s+'), 'u');
  for (const chunk of chunks) {
    const m = pattern.exec(chunk.text);
    if (m)
      return {
        source: 'model',
        quote: m[0].replace(/\s+/g, ' ').slice(0, 500),
        chunkIndex: chunk.index,
        page: chunk.page,
        charStart: m.index,
        charEnd: m.index + m[0].length,
      };
  }
  return null;
}

/** The quote states the value: its digits for a number, the value's text otherwise (dates: any spelling passes). */
function quoteSupports(field: MetaField, value: MetaValue, quote: string): boolean {
  if (field.type === 'number') return quote.replace(/[,\s]/g, '').includes(String(value).replace(/\.0+$/, ''));
  if (field.type === 'enum' || field.type === 'string')
    return quote.toLowerCase().includes(String(value).toLowerCase());
  return true;
}

/**
 * Asks the model for the schema's values; returns only values that validate and whose quote is in the document.
 * A failed call returns null (the deterministic extractor's values are used instead).
 */
export async function extractTypedValuesWithModel(args: {
  model: LanguageModel;
  schema: BucketMetaSchema;
  chunks: readonly ExtractableChunk[];
  timeoutMs: number;
  signal?: AbortSignal;
}): Promise<ExtractedValues | null> {
  const timeout = AbortSignal.timeout(args.timeoutMs);
  let output: z.infer<typeof modelOutputSchema>;
  try {
    const result = await generateText({
      model: args.model,
      instructions:
        'You read one document and fill in the typed fields listed. Only values the document states; copy the exact words each value comes from as its quote. Leave out fields the document does not state.',
      prompt: `Fields: ${describeFields(args.schema)}\n\nDocument:\n${excerpt(args.chunks)}`,
      output: Output.object({ schema: modelOutputSchema, name: 'typed_values' }),
      abortSignal: args.signal ? AbortSignal.any([args.signal, timeout]) : timeout,
      maxRetries: 0,
      temperature: 0,
    });
    output = modelOutputSchema.parse(result.output);
  } catch {
    return null;
  }
  const byName = new Map(args.schema.fields.map((f) => [f.name, f]));
  const out: ExtractedValues = { values: {}, evidence: {} };
  for (const item of output.values) {
    const field = byName.get(item.field.trim());
    if (!field || field.name in out.values) continue;
    const coerced = coerceMetaValue(field, item.value);
    if (!coerced.ok) continue;
    const evidence = locate(item.quote, args.chunks);
    if (!evidence || !quoteSupports(field, coerced.value, evidence.quote ?? '')) continue;
    out.values[field.name] = coerced.value;
    out.evidence[field.name] = evidence;
  }
  return out;
}
