import type { z } from 'zod';
import { getConfig } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { readBodyBytes } from '@/lib/http/read-body';
import { validationError } from '@/lib/route-error';

/**
 * The one reader of JSON request bodies. In order, each refusal with its own status and a message a client can
 * act on:
 *  - a content type other than application/json (or +json) → 415 `unsupported_media_type:request`;
 *  - a body over `maxBytes` (declared or counted while streaming; see readBodyBytes) → 413
 *    `payload_too_large:request`, before more than `maxBytes` is held;
 *  - an empty body, bytes that are not UTF-8, text that is not JSON, an object with the same key twice, or
 *    nesting deeper than `maxDepth` → 400 `invalid_json:request`;
 *  - JSON the schema refuses (including a non-object) → 422 `unprocessable:api` with every field path.
 * Duplicate keys are refused rather than resolved "last wins" so that no two readers of one body (a proxy, a
 * log, this server) can see different values.
 */
export async function readJson<S extends z.ZodType>(
  request: Request,
  schema: S,
  options: { maxBytes?: number; maxDepth?: number } = {},
): Promise<z.output<S>> {
  const maxBytes = options.maxBytes ?? getConfig().requestLimits.jsonBytes;
  const maxDepth = options.maxDepth ?? 32;
  assertJsonContentType(request.headers.get('content-type'));
  const bytes = await readBodyBytes(request, { maxBytes });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AppError('invalid_json:request', 'The request body is not valid UTF-8 text.');
  }
  if (text.trim() === '') throw new AppError('invalid_json:request', 'The request body is empty; send a JSON object.');
  checkStructure(text, maxDepth);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const reason = error instanceof SyntaxError ? ` (${error.message})` : '';
    throw new AppError('invalid_json:request', `The request body is not valid JSON${reason}.`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

function assertJsonContentType(header: string | null): void {
  const mediaType = header?.split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType)) return;
  throw new AppError(
    'unsupported_media_type:request',
    header
      ? `Send the body as JSON with Content-Type: application/json (got ${JSON.stringify(header.slice(0, 100))}).`
      : 'Send the body as JSON with Content-Type: application/json.',
  );
}

/**
 * One linear pass over the text before JSON.parse (so a deep body never reaches a recursive parser or schema):
 * refuses nesting deeper than `maxDepth` and objects with a repeated key, compared decoded (`"a"` and `"\u0061"`
 * are the same key). Malformed text is left for JSON.parse to report.
 */
function checkStructure(text: string, maxDepth: number): void {
  const stack: { keys: Set<string> | null; expectKey: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
      const top = stack[stack.length - 1];
      if (top?.keys && top.expectKey) {
        let key: string;
        try {
          key = JSON.parse(text.slice(start, i + 1));
        } catch {
          return; // not JSON: JSON.parse says where
        }
        if (top.keys.has(key)) {
          throw new AppError('invalid_json:request', `The request body has the key ${JSON.stringify(key)} twice.`);
        }
        top.keys.add(key);
        top.expectKey = false;
      }
    } else if (c === '{' || c === '[') {
      if (stack.length >= maxDepth) {
        throw new AppError('invalid_json:request', `The request body is nested deeper than ${maxDepth} levels.`);
      }
      stack.push({ keys: c === '{' ? new Set() : null, expectKey: c === '{' });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.keys) top.expectKey = true;
    }
  }
}
