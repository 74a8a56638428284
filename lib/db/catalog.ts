import type {
  BucketRef,
  CatalogDocument,
  DocumentCatalog,
  DocumentNameMatch,
  DocumentOpening,
} from '@/lib/agent/ports';
import { type Db, getDb } from '@/lib/db/client';
import { findDocumentIdsByMeta } from '@/lib/db/typed-meta';
import { readMetadata } from '@/lib/domain/document';
import { readBucketMetaSchema, readTypedMeta } from '@/lib/domain/typed-meta';
import { isUuid } from '@/lib/validation/ids';

/**
 * The agent's view of a user's documents, over Prisma. Only INDEXED documents of the given owner exist for it;
 * anything else (another owner's id, a failed or deleted document) answers as absent.
 */
export function createPrismaCatalog(db: Db = getDb()): DocumentCatalog {
  return {
    countIndexedDocuments(ownerId) {
      return db.document.count({ where: { ownerId, status: 'INDEXED' } });
    },

    async filterIndexed(ownerId, documentIds) {
      const ids = [...new Set(documentIds.filter(isUuid))];
      if (ids.length === 0) return new Set();
      const rows = await db.document.findMany({
        where: { ownerId, status: 'INDEXED', id: { in: ids } },
        select: { id: true },
      });
      return new Set(rows.map((r) => r.id));
    },

    async getDocument(ownerId, documentId): Promise<CatalogDocument | null> {
      if (!isUuid(documentId)) return null;
      const row = await db.document.findFirst({
        where: { id: documentId, ownerId, status: 'INDEXED' },
        select: {
          id: true,
          filename: true,
          mime: true,
          bucketId: true,
          bucket: { select: { name: true } },
          metadata: true,
          typedMeta: true,
          pageCount: true,
          chunkCount: true,
          sha256: true,
        },
      });
      if (!row) return null;
      const meta = readMetadata(row.metadata);
      return {
        documentId: row.id,
        filename: row.filename,
        title: meta.title,
        mime: row.mime,
        bucketId: row.bucketId,
        bucketName: row.bucket?.name ?? null,
        documentDate: meta.documentDate,
        tags: meta.tags,
        fields: meta.fields,
        pageCount: row.pageCount,
        chunkCount: row.chunkCount,
        sha256: row.sha256,
        typed: readTypedMeta(row.typedMeta),
      };
    },

    async documentOpenings(ownerId, scope): Promise<{ documents: DocumentOpening[]; total: number }> {
      const where = {
        ownerId,
        status: 'INDEXED' as const,
        ...(scope.documentIds ? { id: { in: scope.documentIds.filter(isUuid) } } : {}),
        ...(scope.bucketIds ? { bucketId: { in: scope.bucketIds } } : {}),
      };
      const [total, rows] = await Promise.all([
        db.document.count({ where }),
        db.document.findMany({
          where,
          orderBy: [{ createdAt: 'desc' }, { id: 'asc' }],
          take: Math.max(1, scope.limit),
          select: { id: true, filename: true, metadata: true },
        }),
      ]);
      const chunks = await db.chunk.findMany({
        where: { ownerId, documentId: { in: rows.map((r) => r.id) }, index: { lt: Math.max(1, scope.chunks) } },
        orderBy: { index: 'asc' },
        select: { id: true, documentId: true },
      });
      const documents = rows.map((r) => ({
        documentId: r.id,
        filename: r.filename,
        title: readMetadata(r.metadata).title,
        chunkIds: chunks.filter((c) => c.documentId === r.id).map((c) => c.id),
      }));
      return { documents, total };
    },

    async findDocumentsByName(ownerId, nameLike, limit): Promise<DocumentNameMatch[]> {
      const needle = nameLike.trim().toLowerCase();
      if (!needle) return [];
      // Names are matched in memory (case-insensitively, the same on SQLite and PostgreSQL) over the owner's
      // indexed documents' names only.
      const rows = await db.document.findMany({
        where: { ownerId, status: 'INDEXED' },
        select: { id: true, filename: true, title: true },
        take: 5000,
      });
      // Also compared without punctuation and spaces: "the 10-K" finds example-10k.html, "annual report" annual_report.pdf.
      const bare = (x: string) => x.replace(/[^\p{L}\p{N}]+/gu, '');
      const words = needle.split(/\s+/).filter(Boolean);
      const scored = rows
        .map((r) => {
          const name = r.filename.toLowerCase();
          const title = (r.title ?? '').toLowerCase();
          const bareNames = [bare(name), bare(title)];
          const has = (w: string) => {
            const b = bare(w);
            return name.includes(w) || title.includes(w) || (b.length > 1 && bareNames.some((n) => n.includes(b)));
          };
          const exact = name === needle || title === needle || name.replace(/\.[a-z0-9]+$/, '') === needle;
          const contains = has(needle);
          const wordHits = words.filter(has).length;
          const score = exact ? 3 : contains ? 2 : words.length ? wordHits / words.length : 0;
          return { r, score };
        })
        .filter((s) => s.score >= 0.6)
        .sort((a, b) => b.score - a.score)
        .slice(0, Math.max(1, limit));
      return scored.map(({ r }) => ({ documentId: r.id, filename: r.filename, title: r.title }));
    },

    async listBuckets(ownerId): Promise<BucketRef[]> {
      const rows = await db.bucket.findMany({
        where: { ownerId },
        select: { id: true, name: true, metaSchema: true },
        orderBy: { name: 'asc' },
      });
      return rows.map((r) => ({ id: r.id, name: r.name, metaSchema: readBucketMetaSchema(r.metaSchema) }));
    },

    findDocumentIdsByMeta(ownerId, bucketIds, filters) {
      return findDocumentIdsByMeta({ ownerId, bucketIds, filters });
    },
  };
}
