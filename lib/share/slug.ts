import crypto from 'node:crypto';

/** 144 random bits, base64url (24 characters): unguessable share slugs. */
export function generateShareSlug(): string {
  return crypto.randomBytes(18).toString('base64url');
}

const SLUG_RE = /^[A-Za-z0-9_-]{22,64}$/;

/** Cheap shape check before any database lookup. */
export function isShareSlug(value: string): boolean {
  return SLUG_RE.test(value);
}
