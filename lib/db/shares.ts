import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { toJsonColumn } from '@/lib/db/json-column';
import { AppError } from '@/lib/errors';
import { buildShareSnapshot } from '@/lib/share/build-snapshot';
import { generateShareSlug, isShareSlug } from '@/lib/share/slug';
import { type ShareSnapshot, shareSnapshotSchema } from '@/lib/share/snapshot';
import { isUuid } from '@/lib/validation/ids';

export interface ShareSummary {
  id: string;
  slug: string;
  answerId: string;
  question: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  active: boolean;
}

function isActive(s: { revokedAt: Date | null; expiresAt: Date | null }, now = new Date()): boolean {
  return !s.revokedAt && (!s.expiresAt || s.expiresAt > now);
}

function toSummary(s: {
  id: string;
  slug: string;
  answerId: string;
  snapshot: unknown;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
}): ShareSummary {
  const parsed = shareSnapshotSchema.safeParse(s.snapshot);
  return {
    id: s.id,
    slug: s.slug,
    answerId: s.answerId,
    question: parsed.success ? parsed.data.question : '',
    createdAt: s.createdAt.toISOString(),
    expiresAt: s.expiresAt?.toISOString() ?? null,
    revokedAt: s.revokedAt?.toISOString() ?? null,
    active: isActive(s),
  };
}

const citedIdsSchema = z.array(z.object({ chunkId: z.string(), documentId: z.string() }).loose()).catch([]);

/**
 * Shares one of the owner's finished answers. Sharing the same answer again returns its active link;
 * a revoked or expired link is never revived (a new slug is made).
 */
export async function createShare({
  ownerId,
  answerId,
  expiresAt,
}: {
  ownerId: string;
  answerId: string;
  expiresAt?: Date | null;
}): Promise<ShareSummary> {
  const db = getDb();
  if (!isUuid(answerId)) throw new AppError('not_found:answer', 'Answer not found.');
  const answer = await db.answer.findFirst({ where: { id: answerId, ownerId } });
  if (!answer) throw new AppError('not_found:answer', 'Answer not found.');
  if (answer.status === 'running')
    throw new AppError('conflict:answer', 'Wait for the answer to finish before sharing it.');
  const existing = await db.share.findMany({
    where: { answerId, creatorId: ownerId, revokedAt: null },
    orderBy: { createdAt: 'desc' },
  });
  const active = existing.find((s) => isActive(s));
  if (active) return toSummary(active);

  const cited = citedIdsSchema.parse(answer.citations);
  const chunkRows = await db.chunk.findMany({
    where: { id: { in: cited.map((c) => c.chunkId).filter(isUuid) }, ownerId },
    select: { id: true, text: true, document: { select: { sha256: true } } },
  });
  const sources = new Map(chunkRows.map((c) => [c.id, { text: c.text, sha256: c.document.sha256 }]));
  const snapshot = buildShareSnapshot(answer, sources);
  const created = await db.share.create({
    data: {
      slug: generateShareSlug(),
      answerId,
      creatorId: ownerId,
      snapshot: toJsonColumn(snapshot),
      expiresAt: expiresAt ?? null,
    },
  });
  return toSummary(created);
}

export async function listShares({ ownerId }: { ownerId: string }): Promise<ShareSummary[]> {
  const rows = await getDb().share.findMany({
    where: { creatorId: ownerId },
    orderBy: { createdAt: 'desc' },
    take: 1000,
  });
  return rows.map(toSummary);
}

async function getOwnShareOrThrow(ownerId: string, id: string) {
  if (!isUuid(id)) throw new AppError('not_found:share', 'Share not found.');
  const share = await getDb().share.findFirst({ where: { id, creatorId: ownerId } });
  if (!share) throw new AppError('not_found:share', 'Share not found.');
  return share;
}

export async function revokeShare({ ownerId, id }: { ownerId: string; id: string }): Promise<ShareSummary> {
  const share = await getOwnShareOrThrow(ownerId, id);
  const updated = await getDb().share.update({
    where: { id: share.id },
    data: { revokedAt: share.revokedAt ?? new Date() },
  });
  return toSummary(updated);
}

export async function setShareExpiry({
  ownerId,
  id,
  expiresAt,
}: {
  ownerId: string;
  id: string;
  expiresAt: Date | null;
}): Promise<ShareSummary> {
  const share = await getOwnShareOrThrow(ownerId, id);
  if (share.revokedAt)
    throw new AppError('conflict:share', 'This link was revoked; share the answer again for a new link.');
  const updated = await getDb().share.update({ where: { id: share.id }, data: { expiresAt } });
  return toSummary(updated);
}

/**
 * The public read: the snapshot of an active share, or null for unknown, revoked and expired slugs alike.
 * Reads nothing but the share row.
 */
export async function findPublicSnapshot(slug: string, now = new Date()): Promise<ShareSnapshot | null> {
  if (!isShareSlug(slug)) return null;
  const share = await getDb().share.findUnique({
    where: { slug },
    select: { snapshot: true, revokedAt: true, expiresAt: true },
  });
  if (!share || !isActive(share, now)) return null;
  const parsed = shareSnapshotSchema.safeParse(share.snapshot);
  return parsed.success ? parsed.data : null;
}

/** Every share the owner created, with its stored snapshot (unparsed), for rewriting snapshots. */
export async function listShareSnapshots({
  ownerId,
}: {
  ownerId: string;
}): Promise<{ id: string; snapshot: unknown }[]> {
  return getDb().share.findMany({ where: { creatorId: ownerId }, select: { id: true, snapshot: true } });
}

/** Replaces the snapshot of one of the owner's shares (no effect on another owner's share id). */
export async function replaceShareSnapshot({
  ownerId,
  id,
  snapshot,
}: {
  ownerId: string;
  id: string;
  snapshot: ShareSnapshot;
}): Promise<void> {
  await getDb().share.updateMany({ where: { id, creatorId: ownerId }, data: { snapshot } });
}
