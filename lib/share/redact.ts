import { listShareSnapshots, replaceShareSnapshot } from '@/lib/db/shares';
import { shareSnapshotSchema } from '@/lib/share/snapshot';

/**
 * When an owner deletes a document, every share of theirs that quotes it keeps its answer but loses the quoted
 * text: the citation says "source deleted by its owner". Runs after the document's rows are gone.
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
    const redacted = {
      ...snapshot,
      citations: snapshot.citations.map((c) =>
        c.documentId === documentId ? { ...c, quote: null, text: null, snippet: null, redacted: true } : c,
      ),
    };
    await replaceShareSnapshot({ ownerId, id: share.id, snapshot: redacted });
    changed++;
  }
  return changed;
}
