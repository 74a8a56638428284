import type { BucketRef, CatalogDocument, DocumentCatalog } from '@/lib/agent/ports';
import { matchesMetaFilters } from '@/lib/domain/typed-meta';

export interface MemoryDocument extends CatalogDocument {
  ownerId: string;
  status: 'PENDING' | 'PROCESSING' | 'INDEXED' | 'FAILED';
  /** Ids of the document's chunks in order (for documentOpenings; default none). */
  chunkIds?: string[];
}

/** An in-memory DocumentCatalog with the Prisma catalog's ownership rules (other owners' ids answer as absent). */
export function createMemoryCatalog(
  documents: MemoryDocument[],
  buckets: (BucketRef & { ownerId: string })[] = [],
): DocumentCatalog & {
  add(doc: MemoryDocument): void;
} {
  const docs = new Map(documents.map((d) => [d.documentId, d]));
  const indexed = (ownerId: string, id: string) => {
    const d = docs.get(id);
    return d && d.ownerId === ownerId && d.status === 'INDEXED' ? d : null;
  };
  return {
    add(doc) {
      docs.set(doc.documentId, doc);
    },
    async countIndexedDocuments(ownerId) {
      return [...docs.values()].filter((d) => d.ownerId === ownerId && d.status === 'INDEXED').length;
    },
    async filterIndexed(ownerId, ids) {
      return new Set(ids.filter((id) => indexed(ownerId, id)));
    },
    async getDocument(ownerId, id) {
      const d = docs.get(id);
      if (!d || d.ownerId !== ownerId) return null;
      const { ownerId: _o, status: _s, ...meta } = d;
      return meta;
    },
    async findDocumentsByName(ownerId, nameLike, limit) {
      const needle = nameLike.toLowerCase();
      return [...docs.values()]
        .filter((d) => d.ownerId === ownerId && d.status === 'INDEXED')
        .filter((d) => d.filename.toLowerCase().includes(needle) || (d.title ?? '').toLowerCase().includes(needle))
        .slice(0, limit)
        .map((d) => ({ documentId: d.documentId, filename: d.filename, title: d.title }));
    },
    async documentOpenings(ownerId, scope) {
      // Newest first: documents added later come first.
      const matching = [...docs.values()]
        .reverse()
        .filter((d) => d.ownerId === ownerId && d.status === 'INDEXED')
        .filter((d) => !scope.documentIds || scope.documentIds.includes(d.documentId))
        .filter((d) => !scope.bucketIds || (d.bucketId !== null && scope.bucketIds.includes(d.bucketId)));
      return {
        total: matching.length,
        documents: matching.slice(0, Math.max(1, scope.limit)).map((d) => ({
          documentId: d.documentId,
          filename: d.filename,
          title: d.title,
          chunkIds: (d.chunkIds ?? []).slice(0, Math.max(1, scope.chunks)),
        })),
      };
    },
    async listBuckets(ownerId) {
      return buckets.filter((b) => b.ownerId === ownerId).map(({ ownerId: _o, ...bucket }) => bucket);
    },
    async findDocumentIdsByMeta(ownerId, bucketIds, filters) {
      return [...docs.values()]
        .filter((d) => d.ownerId === ownerId && d.status === 'INDEXED' && d.bucketId !== null)
        .filter((d) => !bucketIds || (d.bucketId !== null && bucketIds.includes(d.bucketId)))
        .filter((d) => matchesMetaFilters(d.typed?.values ?? {}, filters))
        .map((d) => d.documentId);
    },
  };
}
