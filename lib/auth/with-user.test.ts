import { describe, expect, it } from 'vitest';
import { assertSameOrigin } from '@/lib/auth/with-user';
import { AppError } from '@/lib/errors';

function request(method: string, headers: Record<string, string>): Request {
  return new Request('http://localhost:3000/api/x', { method, headers });
}

describe('assertSameOrigin', () => {
  it.each([
    ['GET from anywhere', 'GET', { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' }],
    [
      'POST same-origin browser',
      'POST',
      { origin: 'http://localhost:3000', host: 'localhost:3000', 'sec-fetch-site': 'same-origin' },
    ],
    ['POST from a non-browser client', 'POST', { host: 'localhost:3000' }],
  ])('allows %s', (_name, method, headers) => {
    expect(() => assertSameOrigin(request(method, headers))).not.toThrow();
  });

  it.each([
    ['cross-site fetch metadata', 'POST', { 'sec-fetch-site': 'cross-site', host: 'localhost:3000' }],
    ['same-site but other origin', 'DELETE', { 'sec-fetch-site': 'same-site', host: 'localhost:3000' }],
    ['foreign Origin header', 'PATCH', { origin: 'https://evil.example', host: 'localhost:3000' }],
    ['opaque null origin', 'POST', { origin: 'null', host: 'localhost:3000' }],
    ['port confusion', 'POST', { origin: 'http://localhost:3001', host: 'localhost:3000' }],
    ['malformed origin', 'POST', { origin: '::::', host: 'localhost:3000' }],
  ])('refuses %s', (_name, method, headers) => {
    try {
      assertSameOrigin(request(method, headers));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(403);
    }
  });
});
