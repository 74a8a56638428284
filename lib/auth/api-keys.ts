import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import {
  API_KEY_SCOPES,
  type ApiKeyIdentity,
  type ApiKeySummary,
  countActiveApiKeys,
  deleteApiKey,
  findActiveApiKeyByHash,
  insertApiKey,
} from '@/lib/db/api-keys';
import { ensureDbReady } from '@/lib/db/lifecycle';
import { AppError } from '@/lib/errors';

/**
 * Personal API keys: `dc_` + 32 random bytes in base64url (256 bits). Only the SHA-256 of the key is stored: a key
 * carries its own entropy, so a fast hash is enough (no password stretching), and a database leak reveals no key.
 * Written here rather than with Better Auth's api-key plugin: `@better-auth/api-key` 1.7.5 pins peer versions
 * (`better-call` 1.4.0, `@better-auth/utils` 0.4.2) that conflict with better-auth 1.7.24 (see docs/api.md).
 */

const KEY_PREFIX = 'dc_';
const KEY_RE = /^dc_[A-Za-z0-9_-]{43}$/;
const MAX_ACTIVE_KEYS = 25;

export const createApiKeyBodySchema = z
  .object({
    name: z.string().trim().min(1, 'Give the key a name.').max(100, 'At most 100 characters.'),
    scopes: z
      .array(z.enum(API_KEY_SCOPES))
      .min(1, 'Choose at least one scope.')
      .max(API_KEY_SCOPES.length)
      .describe('read: list, search, open and ask; write: upload, change, delete and share'),
    expiresInDays: z.number().int().min(1).max(3650).nullish().describe('Omit or null for a key that never expires'),
  })
  .strict();
export type CreateApiKeyBody = z.infer<typeof createApiKeyBodySchema>;

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

const capReached = () =>
  new AppError('conflict:auth', `You already have ${MAX_ACTIVE_KEYS} active keys; revoke one first.`);

/** A new key (shown to its owner once) with the summary that is stored. */
export async function createApiKey({
  ownerId,
  body,
}: {
  ownerId: string;
  body: CreateApiKeyBody;
}): Promise<{ key: string; apiKey: ApiKeySummary }> {
  if ((await countActiveApiKeys({ ownerId })) >= MAX_ACTIVE_KEYS) throw capReached();
  const key = `${KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const apiKey = await insertApiKey({
    ownerId,
    name: body.name,
    prefix: key.slice(0, KEY_PREFIX.length + 6),
    hash: hashApiKey(key),
    scopes: body.scopes,
    expiresAt: body.expiresInDays ? new Date(Date.now() + body.expiresInDays * 86_400_000) : null,
  });
  // The count above and the insert are two statements: concurrent creates could both pass it. Counting again
  // after the insert closes that race (a key that took the count over the cap is removed, never shown).
  if ((await countActiveApiKeys({ ownerId })) > MAX_ACTIVE_KEYS) {
    await deleteApiKey({ ownerId, id: apiKey.id });
    throw capReached();
  }
  return { key, apiKey };
}

/**
 * The bearer token of a request: `undefined` when there is no Authorization header (the request may use a
 * session), otherwise the token or `null` for a header that is not a well-formed key.
 */
export function bearerTokenOf(request: Request): string | null | undefined {
  const header = request.headers.get('authorization');
  if (header === null) return undefined;
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  const token = match?.[1];
  return token && KEY_RE.test(token) ? token : null;
}

/** The identity of an active key, or null (unknown, revoked, expired or malformed all look the same). */
export async function resolveApiKey(token: string | null): Promise<ApiKeyIdentity | null> {
  if (!token) return null;
  await ensureDbReady();
  return findActiveApiKeyByHash({ hash: hashApiKey(token) });
}
