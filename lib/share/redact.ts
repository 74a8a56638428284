import { listShareSnapshots, replaceShareSnapshot } from '@/lib/db/shares';
import { redactSnapshot } from '@/lib/share/redact-snapshot';
import { shareSnapshotSchema } from '@/lib/share/snapshot';

/**
 * When an owner deletes a document, every share of theirs that quotes it loses the quoted text (quote, chunk text,
 * snippet, and the answer's sentences citing only that document; see redact-snapshot.ts): the citation says
 * "source deleted by its owner". Runs after the document's rows are gone.
 */
export async function redactSharesForDocument({
  ownerId,
  documentId,
}: {
  ownerId: string;
  documentId: string;
}): Promise<number> {
  const shares = await listShareSnapshots({ ownerId });
  let changed = 0;
  for (const share of shares) {
    const parsed = shareSnapshotSchema.safeParse(share.snapshot);
    if (!parsed.success) continue;
    const snapshot = parsed.data;
    if (!snapshot.citations.some((c) => c.documentId === documentId && !c.redacted)) continue;
    await replaceShareSnapshot({
      ownerId,
      id: share.id,
      snapshot: redactSnapshot(snapshot, (c) => c.documentId === documentId),
    });
    changed++;
  }
  return changed;
}
