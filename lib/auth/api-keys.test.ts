import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bearerTokenOf, createApiKeyBodySchema, hashApiKey } from '@/lib/auth/api-keys';

const req = (authorization?: string) =>
  new Request('http://localhost/api/x', { headers: authorization === undefined ? {} : { authorization } });
const KEY = `dc_${'a'.repeat(43)}`;

describe('bearerTokenOf', () => {
  it('is undefined without an Authorization header (the request may use a session)', () => {
    expect(bearerTokenOf(req())).toBeUndefined();
  });

  it('reads a well-formed key, case-insensitive scheme', () => {
    expect(bearerTokenOf(req(`Bearer ${KEY}`))).toBe(KEY);
    expect(bearerTokenOf(req(`bearer ${KEY}`))).toBe(KEY);
  });

  it.each([
    ['another scheme', `Basic ${KEY}`],
    ['no token', 'Bearer '],
    ['a short token', 'Bearer dc_abc'],
    ['a token without the prefix', `Bearer ${'a'.repeat(46)}`],
    ['two tokens', `Bearer ${KEY} ${KEY}`],
    ['a longer token', `Bearer ${KEY}x`],
  ])('is null (refused like an unknown key) for %s', (_name, header) => {
    expect(bearerTokenOf(req(header))).toBeNull();
  });

  it('never accepts anything but dc_ + 43 base64url characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (token) => {
        const got = bearerTokenOf(req(`Bearer ${token}`.replace(/[\r\n]/g, '')));
        if (got !== null) expect(got).toMatch(/^dc_[A-Za-z0-9_-]{43}$/);
      }),
    );
  });
});

describe('API key bodies and hashes', () => {
  it('hashes with SHA-256 (hex), one way', () => {
    expect(hashApiKey(KEY)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(KEY)).not.toBe(hashApiKey(`${KEY.slice(0, -1)}b`));
  });

  it('needs a name and at least one known scope', () => {
    expect(createApiKeyBodySchema.safeParse({ name: ' ', scopes: ['read'] }).success).toBe(false);
    expect(createApiKeyBodySchema.safeParse({ name: 'ci', scopes: [] }).success).toBe(false);
    expect(createApiKeyBodySchema.safeParse({ name: 'ci', scopes: ['admin'] }).success).toBe(false);
    expect(createApiKeyBodySchema.safeParse({ name: 'ci', scopes: ['read'], ownerId: 'x' }).success).toBe(false);
    expect(createApiKeyBodySchema.parse({ name: ' ci ', scopes: ['read', 'write'], expiresInDays: 30 })).toEqual({
      name: 'ci',
      scopes: ['read', 'write'],
      expiresInDays: 30,
    });
  });
});
