import type { StoredChunk } from '@/lib/retrieval/embedded/lance-rows';

/**
 * A stored chunk of owner "owner" for keyword-store tests: only the fields scoring and filters read vary
 * (id, document, text, heading prefix, bucket); the rest are fixed plain-text defaults.
 */
export function storedChunk(
  fields: Pick<StoredChunk, 'chunkId' | 'documentId' | 'text'> &
    Partial<Pick<StoredChunk, 'contextPrefix' | 'bucketId'>>,
): StoredChunk {
  return {
    ownerId: 'owner',
    index: 0,
    contextPrefix: '',
    bucketId: null,
    tokenCount: 1,
    page: null,
    sheet: null,
    rowStart: null,
    rowEnd: null,
    headingPath: null,
    charStart: 0,
    charEnd: fields.text.length,
    mime: 'text/plain',
    filename: 'f.txt',
    title: null,
    documentDate: null,
    tags: [],
    fields: {},
    embeddingModel: null,
    ...fields,
  };
}
