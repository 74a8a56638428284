import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_NEXT, safeNextPath } from '@/lib/auth/safe-next';

const ORIGIN = 'https://docs.example.org';

describe('safeNextPath', () => {
  it.each([
    ['/documents', '/documents'],
    ['/chat?c=42#latest', '/chat?c=42#latest'],
    ['/search?q=%2F%2Fnot-a-host', '/search?q=%2F%2Fnot-a-host'],
    ['/documents/../shares', '/shares'],
    ['/chat?q=a b', '/chat?q=a%20b'],
  ])('keeps the same-origin path %j', (input, expected) => {
    expect(safeNextPath(input)).toBe(expected);
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/%09/evil.example',
    '/%0A',
    '/%0d%0aSet-Cookie:x=1',
    '/%2F%2Fevil.example',
    '/%2f/evil.example',
    '/%252F%252Fevil.example',
    '/%25252F%25252Fevil.example',
    '/%5Cevil.example',
    '/%255Cevil.example',
    '/..//evil.example',
    '/a/../..//evil.example',
    '/./\\evil.example',
    'https://evil.example/documents',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    ' /documents',
    'documents',
    '/documents\u2028',
    '/\u0000',
    '',
    '/%E0%A4%A',
    `/${'a'.repeat(5000)}`,
  ])('refuses %j', (input) => {
    expect(safeNextPath(input)).toBe(DEFAULT_NEXT);
  });

  it.each([undefined, null, 42, ['/documents'], { toString: () => '/x' }])('refuses a non-string (%j)', (input) => {
    expect(safeNextPath(input)).toBe(DEFAULT_NEXT);
  });

  it('never throws and never leaves the origin, whatever the input', () => {
    const nasty = fc.constantFrom(
      '/',
      '//',
      '\\',
      '%2F',
      '%5C',
      '%25',
      '%09',
      '%0A',
      '\t',
      '\n',
      '\r',
      '..',
      '.',
      ':',
      '@',
      '?',
      '#',
      'evil.example',
      'https:',
      'javascript:',
      '\u2028',
      '\u3000',
      '%',
      'é',
    );
    const input = fc.oneof(
      fc.string({ maxLength: 60 }),
      fc.string({ unit: 'grapheme', maxLength: 30 }),
      fc.array(nasty, { maxLength: 12 }).map((parts) => parts.join('')),
      fc.array(nasty, { maxLength: 12 }).map((parts) => `/${parts.join('')}`),
    );
    fc.assert(
      fc.property(input, (value) => {
        const out = safeNextPath(value);
        expect(out.startsWith('/')).toBe(true);
        expect(out.startsWith('//')).toBe(false);
        expect(out).not.toMatch(/[\u0000-\u0020\u007f\\]/);
        for (const origin of [ORIGIN, 'http://localhost:3000']) {
          expect(new URL(out, origin).origin).toBe(origin);
          // a browser resolving the Location header, and the same path used as a relative link, stay at home
          expect(new URL(out, `${origin}/sign-in?next=x`).origin).toBe(origin);
        }
        // stable: a second pass changes nothing
        expect(safeNextPath(out)).toBe(out);
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses a path whose normalised form decodes to a protocol-relative URL (found by the property test)', () => {
    expect(safeNextPath('/../%2F')).toBe('/documents');
    expect(safeNextPath('/a/../%2F%2Fevil.example')).toBe('/documents');
  });
});
