import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '@/lib/errors';
import { readBodyBytes } from '@/lib/http/read-body';
import { readJson } from '@/lib/http/read-json';

const CAP = 1024;
const schema = z.object({ title: z.string().max(100), tags: z.array(z.string().max(10)).max(3).default([]) }).strict();

function jsonRequest(body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request('http://localhost/api/x', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}

/** A body stream of `chunkBytes`-sized chunks, forever (or `chunks` of them), that records how far it was read. */
function countingStream(chunkBytes: number, chunks = Number.POSITIVE_INFINITY) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (seen.pulled >= chunks) {
        controller.close();
        return;
      }
      seen.pulled++;
      controller.enqueue(new TextEncoder().encode(' '.repeat(chunkBytes)));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return { stream, seen };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('readJson', () => {
  it('returns the parsed, defaulted body', async () => {
    const body = await readJson(jsonRequest(JSON.stringify({ title: 'Q3 report' })), schema, { maxBytes: CAP });
    expect(body).toEqual({ title: 'Q3 report', tags: [] });
  });

  it('accepts application/json with parameters and +json media types', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON', 'application/merge-patch+json']) {
      const body = await readJson(jsonRequest('{"title":"x"}', { 'content-type': type }), schema, { maxBytes: CAP });
      expect(body.title).toBe('x');
    }
  });

  it.each([
    ['text/plain', 'text/plain'],
    ['form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['a json look-alike', 'application/jsonp'],
  ])('refuses a %s content type with 415', async (_label, type) => {
    const error = await refusal(
      readJson(jsonRequest('{"title":"x"}', { 'content-type': type }), schema, { maxBytes: CAP }),
    );
    expect(error.status).toBe(415);
    expect(error.code).toBe('unsupported_media_type:request');
    expect(error.message).toMatch(/application\/json/);
  });

  it('refuses a body without a content type with 415', async () => {
    const request = new Request('http://localhost/api/x', { method: 'POST', body: new Uint8Array([123, 125]) });
    expect(request.headers.get('content-type')).toBeNull();
    expect((await refusal(readJson(request, schema, { maxBytes: CAP }))).status).toBe(415);
  });

  it('refuses a declared oversize body with 413 without reading any of it', async () => {
    const { stream, seen } = countingStream(100, 50);
    const request = jsonRequest(stream, { 'content-length': String(CAP + 1) });
    const error = await refusal(readJson(request, schema, { maxBytes: CAP }));
    expect(error.status).toBe(413);
    expect(error.code).toBe('payload_too_large:request');
    expect(error.message).toMatch(/1 KiB/);
    expect(seen.pulled).toBeLessThanOrEqual(1); // a stream may prefetch one chunk; nothing more
  });

  it('stops an endless body without Content-Length at the cap and cancels the stream', async () => {
    const { stream, seen } = countingStream(100);
    const request = jsonRequest(stream);
    expect(request.headers.get('content-length')).toBeNull();
    const error = await refusal(readJson(request, schema, { maxBytes: CAP }));
    expect(error.status).toBe(413);
    expect(seen.pulled).toBeLessThanOrEqual(Math.ceil(CAP / 100) + 2);
    expect(seen.cancelled).toBe(true);
  });

  it('counts the bytes when Content-Length lies low', async () => {
    const { stream } = countingStream(100, 30); // 3000 bytes
    const request = jsonRequest(stream, { 'content-length': '10' });
    expect((await refusal(readJson(request, schema, { maxBytes: CAP }))).status).toBe(413);
  });

  it('counts bytes, not characters', async () => {
    const title = 'é'.repeat(90); // 90 characters, 180 bytes
    const body = JSON.stringify({ title });
    expect((await readJson(jsonRequest(body), schema, { maxBytes: 200 })).title).toBe(title);
    expect((await refusal(readJson(jsonRequest(body), schema, { maxBytes: 150 }))).status).toBe(413);
  });

  it('accepts a body of exactly the cap', async () => {
    const body = JSON.stringify({ title: 'x'.repeat(20) });
    await expect(readJson(jsonRequest(body), z.unknown(), { maxBytes: body.length })).resolves.toBeTruthy();
    expect((await refusal(readJson(jsonRequest(body), z.unknown(), { maxBytes: body.length - 1 }))).status).toBe(413);
  });

  it.each([
    ['an empty body', '', /empty/],
    ['only whitespace', ' \n\t ', /empty/],
    ['truncated JSON', '{"title":"x"', /not valid JSON/],
    ['single quotes', "{'title':'x'}", /not valid JSON/],
    ['a trailing comma', '{"title":"x",}', /not valid JSON/],
    ['two documents', '{"title":"x"}{"title":"y"}', /not valid JSON/],
    ['NaN', '{"title":NaN}', /not valid JSON/],
    ['a duplicate key', '{"title":"safe","title":"evil"}', /"title" twice/],
    ['a duplicate key spelled with an escape', '{"title":"safe","\\u0074itle":"evil"}', /"title" twice/],
    ['a nested duplicate key', '{"title":"x","tags":[{"a":1,"a":2}]}', /"a" twice/],
  ])('refuses %s with 400 invalid_json', async (_label, body, message) => {
    const error = await refusal(readJson(jsonRequest(body), schema, { maxBytes: CAP }));
    expect(error.status).toBe(400);
    expect(error.code).toBe('invalid_json:request');
    expect(error.message).toMatch(message);
  });

  it('allows the same key in sibling objects and inside strings', async () => {
    const body = '{"a":{"k":1},"b":{"k":2},"c":"\\"a\\":1,\\"a\\":2","d":["{\\"x\\":1,\\"x\\":2}"]}';
    await expect(readJson(jsonRequest(body), z.unknown(), { maxBytes: CAP })).resolves.toEqual(JSON.parse(body));
  });

  it('refuses bytes that are not UTF-8 with 400', async () => {
    const bytes = new Uint8Array([
      ...new TextEncoder().encode('{"title":"'),
      0xff,
      0xfe,
      ...new TextEncoder().encode('"}'),
    ]);
    const error = await refusal(readJson(jsonRequest(bytes), schema, { maxBytes: CAP }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/UTF-8/);
  });

  it('refuses an overlong UTF-8 encoding and a lone surrogate encoding', async () => {
    for (const bad of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
    ]) {
      const bytes = new Uint8Array([
        ...new TextEncoder().encode('{"title":"'),
        ...bad,
        ...new TextEncoder().encode('"}'),
      ]);
      expect((await refusal(readJson(jsonRequest(bytes), schema, { maxBytes: CAP }))).status).toBe(400);
    }
  });

  it('refuses deep nesting before parsing it', async () => {
    const depth = 100_000;
    const body = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const error = await refusal(readJson(jsonRequest(body), z.unknown(), { maxBytes: 1_000_000 }));
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/nested deeper than 32/);
    const ok = `${'{"a":'.repeat(31)}1${'}'.repeat(31)}`;
    await expect(readJson(jsonRequest(ok), z.unknown(), { maxBytes: CAP })).resolves.toBeTruthy();
  });

  it.each([
    ['an array', '[{"title":"x"}]'],
    ['a string', '"title"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', 'true'],
  ])('refuses %s where an object is expected with 422', async (_label, body) => {
    const error = await refusal(readJson(jsonRequest(body), schema, { maxBytes: CAP }));
    expect(error.status).toBe(422);
    expect(error.fields?.[0]?.path).toBe('_');
  });

  it('answers schema errors with 422 and every field path', async () => {
    const body = JSON.stringify({ title: 'x'.repeat(101), tags: ['ok', 'far too long a tag'], extra: 1 });
    const error = await refusal(readJson(jsonRequest(body), schema, { maxBytes: CAP }));
    expect(error.status).toBe(422);
    expect(error.code).toBe('unprocessable:api');
    expect(error.fields?.map((f) => f.path).sort()).toEqual(['_', 'tags.1', 'title']);
    expect(error.toBody().error.fields).toEqual(error.fields);
    expect(error.details).toMatchObject({ fields: { title: expect.any(String), 'tags.1': expect.any(String) } });
    expect(error.message).toMatch(/title|tags\.1|_/);
  });

  it('ignores a __proto__ key as data (strict schemas refuse it as unknown)', async () => {
    const error = await refusal(
      readJson(jsonRequest('{"title":"x","__proto__":{"polluted":true}}'), schema, { maxBytes: CAP }),
    );
    expect(error.status).toBe(422);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('round-trips any JSON value within the cap and refuses any body past it (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (value) => {
        const text = JSON.stringify(value);
        const bytes = new TextEncoder().encode(text).byteLength;
        const within = readJson(jsonRequest(text), z.unknown(), { maxBytes: Math.max(bytes, 1) });
        if (bytes === 0) return;
        await expect(within).resolves.toEqual(JSON.parse(text));
        if (bytes > 1) {
          const over = await refusal(readJson(jsonRequest(text), z.unknown(), { maxBytes: bytes - 1 }));
          expect(over.status).toBe(413);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('readBodyBytes', () => {
  it('reads a body without a stream as empty', async () => {
    expect((await readBodyBytes(new Request('http://localhost/'), { maxBytes: 10 })).byteLength).toBe(0);
  });

  it('ignores a malformed Content-Length and counts instead', async () => {
    const request = jsonRequest('{"a":1}', { 'content-length': 'abc' });
    expect(new TextDecoder().decode(await readBodyBytes(request, { maxBytes: 100 }))).toBe('{"a":1}');
  });
});
