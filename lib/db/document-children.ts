/**
 * Documents that come out of other documents: e-mail attachments and archive members. A child has the same
 * owner and bucket as its parent and a `parentId`; it is indexed and cited like any upload. Deleting the parent
 * keeps its children (the link is cleared by the foreign key's ON DELETE SET NULL).
 */

import { getDb } from '@/lib/db/client';

/** How many parents up a document's chain goes (0 for an upload), counted up to `limit`. */
export async function documentDepth({ ownerId, id, limit }: { ownerId: string; id: string; limit: number }) {
  let depth = 0;
  let current: string | null = id;
  while (current && depth < limit) {
    const row: { parentId: string | null } | null = await getDb().document.findFirst({
      where: { id: current, ownerId },
      select: { parentId: true },
    });
    if (!row?.parentId) break;
    depth++;
    current = row.parentId;
  }
  return depth;
}

export interface NewChildDocument {
  ownerId: string;
  parentId: string;
  bucketId: string | null;
  filename: string;
  storedName: string;
  mime: string;
  size: number;
  sha256: string;
}

/**
 * Queues a child document (PENDING, picked up by the ingest worker like an upload). Returns its id, or null when
 * the owner already has a document with the same content (a concurrent insert of the same content included) or
 * the parent was deleted meanwhile (its foreign key no longer resolves).
 */
export async function createChildDocument(child: NewChildDocument): Promise<string | null> {
  try {
    const created = await getDb().document.create({
      data: {
        ...child,
        status: 'PENDING',
        stage: 'queued',
        progress: 0,
        metadata: { title: null, documentDate: null, tags: [], fields: {} },
      },
      select: { id: true },
    });
    return created.id;
  } catch (error) {
    const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : null;
    if (code === 'P2002' || code === 'P2003') return null;
    throw error;
  }
}
