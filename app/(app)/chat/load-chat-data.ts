import type { BucketOption, DocumentOption } from '@/components/chat/filter-picker';
import { listBuckets } from '@/lib/db/buckets';
import { listDocuments } from '@/lib/db/documents';

/** What every chat page needs besides the messages: the indexed documents and buckets for the filter pickers. */
export async function loadChatContext(
  ownerId: string,
): Promise<{ documents: DocumentOption[]; buckets: BucketOption[] }> {
  const [documents, buckets] = await Promise.all([
    listDocuments({ ownerId, filter: { status: 'INDEXED' } }),
    listBuckets({ ownerId }),
  ]);
  return {
    documents: documents.map((d) => ({ id: d.id, filename: d.filename, bucketId: d.bucketId })),
    buckets: buckets.map((b) => ({
      id: b.id,
      name: b.name,
      documentCount: b.documentCount,
      ...(b.metaFields?.length ? { metaFields: b.metaFields } : {}),
    })),
  };
}
