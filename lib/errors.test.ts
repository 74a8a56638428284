import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError, errorFromBody } from '@/lib/errors';
import { handleRouteError } from '@/lib/route-error';

describe('error vocabulary', () => {
  it.each([
    ['not_found:document', 404],
    ['unauthorized:auth', 401],
    ['rate_limited:agent', 429],
    ['payload_too_large:upload', 413],
    ['quota_exceeded:upload', 413],
    ['unsupported_media_type:upload', 415],
    ['unprocessable:api', 422],
    ['unavailable:llm', 503],
  ] as const)('%s maps to %i', (code, status) => {
    expect(new AppError(code).status).toBe(status);
  });

  it('rebuilds the same typed error from a response body', () => {
    const original = new AppError('conflict:bucket', 'You already have a bucket named “x”.', {
      details: { name: 'x' },
    });
    const rebuilt = errorFromBody(JSON.parse(JSON.stringify(original.toBody())));
    expect(rebuilt).toBeInstanceOf(AppError);
    expect(rebuilt.code).toBe('conflict:bucket');
    expect(rebuilt.message).toBe(original.message);
    expect(rebuilt.details).toEqual({ name: 'x' });
  });

  it.each([null, 'text', { error: { code: 'evil:<script>' } }, { error: 'x' }, { message: 'hi' }])(
    'turns unrecognised bodies into internal:api (%o)',
    (body) => {
      expect(errorFromBody(body).code).toBe('internal:api');
    },
  );
});

describe('handleRouteError', () => {
  it('maps zod errors to 422 with field messages', async () => {
    const result = z.object({ name: z.string().min(3) }).safeParse({ name: 'a' });
    const response = handleRouteError(result.error);
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.error.code).toBe('unprocessable:api');
    expect(Object.keys(body.error.details.fields)).toEqual(['name']);
  });

  it('hides internals of unexpected errors', async () => {
    const original = console.error;
    console.error = () => {};
    const response = handleRouteError(new Error('SELECT * FROM secret_table failed at /srv/app'));
    console.error = original;
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain('secret_table');
    expect(text).not.toContain('/srv/app');
  });

  it('sends Retry-After with rate limits', () => {
    const response = handleRouteError(new AppError('rate_limited:upload', undefined, { retryAfter: 12.2 }));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('13');
  });
});
