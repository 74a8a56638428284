import { getDb } from '@/lib/db/client';
import { AppError } from '@/lib/errors';
import { isUuid } from '@/lib/validation/ids';

/** The scopes an API key can carry: `read` (list, search, open, ask) and `write` (upload, change, delete, share). */
export const API_KEY_SCOPES = ['read', 'write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** A key as its owner sees it in a list: never the key itself, never its hash. */
export interface ApiKeySummary {
  id: string;
  name: string;
  prefix: string;
  scopes: ApiKeyScope[];
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  active: boolean;
}

/** The identity an active key resolves to. */
export interface ApiKeyIdentity {
  keyId: string;
  scopes: ApiKeyScope[];
  user: { id: string; email: string; name: string };
}

interface ApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  scopes: string;
  createdAt: Date;
  expiresAt: Date | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

function parseScopes(value: string): ApiKeyScope[] {
  return API_KEY_SCOPES.filter((s) => value.split(',').includes(s));
}

function isActive(row: { revokedAt: Date | null; expiresAt: Date | null }, now: Date): boolean {
  return !row.revokedAt && (!row.expiresAt || row.expiresAt > now);
}

function toSummary(row: ApiKeyRow, now = new Date()): ApiKeySummary {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: parseScopes(row.scopes),
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    active: isActive(row, now),
  };
}

/** Stores a new key for the owner: only its hash and a display prefix (the caller shows the key once). */
export async function insertApiKey({
  ownerId,
  name,
  prefix,
  hash,
  scopes,
  expiresAt,
}: {
  ownerId: string;
  name: string;
  prefix: string;
  hash: string;
  scopes: ApiKeyScope[];
  expiresAt: Date | null;
}): Promise<ApiKeySummary> {
  const row = await getDb().apiKey.create({
    data: { ownerId, name, prefix, hash, scopes: [...new Set(scopes)].sort().join(','), expiresAt },
  });
  return toSummary(row);
}

/** The owner's keys, newest first (revoked ones included, marked inactive). */
export async function listApiKeys({ ownerId }: { ownerId: string }): Promise<ApiKeySummary[]> {
  const rows = await getDb().apiKey.findMany({ where: { ownerId }, orderBy: { createdAt: 'desc' } });
  const now = new Date();
  return rows.map((r) => toSummary(r, now));
}

/** Number of the owner's keys that still work (for the per-user cap). */
export async function countActiveApiKeys({ ownerId }: { ownerId: string }): Promise<number> {
  const now = new Date();
  return getDb().apiKey.count({
    where: { ownerId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
  });
}

/** Removes one of the owner's keys outright (a key refused by the cap right after its insert); another owner's id is a no-op. */
export async function deleteApiKey({ ownerId, id }: { ownerId: string; id: string }): Promise<void> {
  await getDb().apiKey.deleteMany({ where: { ownerId, id } });
}

/** Revokes one of the owner's keys (idempotent); another owner's id answers like a missing one. */
export async function revokeApiKey({ ownerId, id }: { ownerId: string; id: string }): Promise<ApiKeySummary> {
  const db = getDb();
  if (!isUuid(id)) throw new AppError('not_found:auth', 'API key not found.');
  const row = await db.apiKey.findFirst({ where: { id, ownerId } });
  if (!row) throw new AppError('not_found:auth', 'API key not found.');
  if (row.revokedAt) return toSummary(row);
  const updated = await db.apiKey.update({ where: { id: row.id }, data: { revokedAt: new Date() } });
  return toSummary(updated);
}

/** How stale `lastUsedAt` may get before a request writes it again (one write per key per minute at most). */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * The authentication lookup: the active key with this hash and its owner, or null for an unknown, revoked or
 * expired key (the caller cannot tell which). Owner-less by nature, like a session lookup by token; everything
 * after it runs with the owner id it returns. Records the time of use at minute resolution.
 */
export async function findActiveApiKeyByHash({
  hash,
  now = new Date(),
}: {
  hash: string;
  now?: Date;
}): Promise<ApiKeyIdentity | null> {
  const db = getDb();
  const row = await db.apiKey.findUnique({
    where: { hash },
    include: { owner: { select: { id: true, email: true, name: true } } },
  });
  if (!row || !isActive(row, now)) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    await db.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  return { keyId: row.id, scopes: parseScopes(row.scopes), user: row.owner };
}
