import { z } from 'zod';
import { getDb } from '@/lib/db/client';
import { toJsonColumn } from '@/lib/db/json-column';
import { AppError } from '@/lib/errors';
import { buildShareSnapshot } from '@/lib/share/build-snapshot';
import { redactSnapshot } from '@/lib/share/redact-snapshot';
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
 *
 * The snapshot is built from the chunks that still exist, read in the same transaction that creates the share: a
 * document deleted earlier is frozen redacted. A document deleted while this runs is caught afterwards: the
 * deleter redacts shares after its rows are gone, and this re-checks the cited documents after the share is
 * committed, so one of the two always sees the other (see docs/reliability.md).
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
  const cited = citedIdsSchema.parse(answer.citations);

  const created = await db.$transaction(async (tx) => {
    const existing = await tx.share.findMany({
      where: { answerId, creatorId: ownerId, revokedAt: null },
      orderBy: { createdAt: 'desc' },
    });
    const active = existing.find((s) => isActive(s));
    if (active) return active;
    const chunkRows = await tx.chunk.findMany({
      where: { id: { in: cited.map((c) => c.chunkId).filter(isUuid) }, ownerId, document: { ownerId } },
      select: { id: true, text: true, document: { select: { sha256: true } } },
    });
    const sources = new Map(chunkRows.map((c) => [c.id, { text: c.text, sha256: c.document.sha256 }]));
    const snapshot = buildShareSnapshot(answer, sources);
    return tx.share.create({
      data: {
        slug: generateShareSlug(),
        answerId,
        creatorId: ownerId,
        snapshot: toJsonColumn(snapshot),
        expiresAt: expiresAt ?? null,
      },
    });
  });
  return toSummary(await redactVanishedSources({ ownerId, share: created }));
}

/** Redacts the citations of a share whose documents no longer exist (a deletion that raced its creation). */
async function redactVanishedSources<T extends { id: string; snapshot: unknown }>({
  ownerId,
  share,
}: {
  ownerId: string;
  share: T;
}): Promise<T> {
  const parsed = shareSnapshotSchema.safeParse(share.snapshot);
  if (!parsed.success) return share;
  const live = parsed.data.citations.filter((c) => !c.redacted).map((c) => c.documentId);
  if (live.length === 0) return share;
  const db = getDb();
  const present = await db.document.findMany({
    where: { id: { in: [...new Set(live)].filter(isUuid) }, ownerId },
    select: { id: true },
  });
  const kept = new Set(present.map((d) => d.id));
  if (live.every((id) => kept.has(id))) return share;
  const redacted = redactSnapshot(parsed.data, (c) => !kept.has(c.documentId));
  const snapshot = toJsonColumn(redacted);
  await db.share.updateMany({ where: { id: share.id, creatorId: ownerId }, data: { snapshot } });
  return { ...share, snapshot };
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

/**
 * Sets or clears an active link's expiry (a date in the past ends it now). A revoked or expired link cannot be
 * revived by editing: share the answer again for a new link. The check and the update are one statement, so a
 * link that expires meanwhile is not revived either.
 */
export async function setShareExpiry({
  ownerId,
  id,
  expiresAt,
  now = new Date(),
}: {
  ownerId: string;
  id: string;
  expiresAt: Date | null;
  now?: Date;
}): Promise<ShareSummary> {
  const share = await getOwnShareOrThrow(ownerId, id);
  if (share.revokedAt)
    throw new AppError('conflict:share', 'This link was revoked; share the answer again for a new link.');
  const db = getDb();
  const updated = await db.share.updateMany({
    where: { id: share.id, creatorId: ownerId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
    data: { expiresAt },
  });
  if (updated.count === 0) {
    throw new AppError('conflict:share', 'This link has expired; share the answer again for a new link.');
  }
  return toSummary(await getOwnShareOrThrow(ownerId, id));
}

/**
 * The public read: the snapshot of an active share, or null for unknown, revoked and expired slugs alike.
 * Reads the share row and whether the documents it still quotes exist (of its creator): a document deleted
 * without its shares being redacted (the server stopped between the two steps) is redacted here, on read.
 */
export async function findPublicSnapshot(slug: string, now = new Date()): Promise<ShareSnapshot | null> {
  if (!isShareSlug(slug)) return null;
  const row = await getDb().share.findUnique({
    where: { slug },
    select: { id: true, creatorId: true, snapshot: true, revokedAt: true, expiresAt: true },
  });
  if (!row || !isActive(row, now)) return null;
  const share = await redactVanishedSources({ ownerId: row.creatorId, share: row });
  const parsed = shareSnapshotSchema.safeParse(share.snapshot);
  // a redacted citation never carries text, even in a row written before redaction cleared every field
  return parsed.success ? redactSnapshot(parsed.data, (c) => c.redacted) : null;
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
  await getDb().share.updateMany({ where: { id, creatorId: ownerId }, data: { snapshot: toJsonColumn(snapshot) } });
}
