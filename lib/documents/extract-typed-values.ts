import {
  getDocumentTypedMeta,
  listChunkTexts,
  listIndexedDocumentIdsInBucket,
  setDocumentTypedValues,
} from '@/lib/db/typed-meta';
import { type ManageDeps, syncIndexedTypedValues } from '@/lib/documents/manage';
import { extractTypedValues } from '@/lib/ingest/extract-typed-meta';

/**
 * Reads typed values for a bucket's schema from each of its indexed documents' stored chunks (after the schema
 * changed, so documents ingested before it get values too). Hand-set values are kept. Returns how many documents
 * got at least one value. Each updated document's chunks in the index get the new values (typed filters run there).
 * Cost: one read of each document's chunk texts, no parsing, no model.
 */
export async function extractBucketTypedValues(
  {
    ownerId,
    bucketId,
  }: {
    ownerId: string;
    bucketId: string;
  },
  deps: Pick<ManageDeps, 'index'>,
): Promise<number> {
  let updated = 0;
  for (const documentId of await listIndexedDocumentIdsInBucket({ ownerId, bucketId })) {
    const { schema } = await getDocumentTypedMeta({ ownerId, documentId });
    if (schema.fields.length === 0) return updated;
    const extracted = extractTypedValues(schema, await listChunkTexts({ ownerId, documentId }));
    if (Object.keys(extracted.values).length === 0) continue;
    await setDocumentTypedValues({ ownerId, documentId, ...extracted, replace: false });
    await syncIndexedTypedValues({ ownerId, documentId }, deps);
    updated++;
  }
  return updated;
}
