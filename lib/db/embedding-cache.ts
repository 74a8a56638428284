import { type Db, getDb } from '@/lib/db/client';
import type { EmbeddingCache } from '@/lib/llm/embedder';

/** The embedder's cache over the EmbeddingCache table (float32 little-endian vectors keyed by model + text hash). */
export function createPrismaEmbeddingCache(db: Db = getDb()): EmbeddingCache {
  return {
    async getMany(keys) {
      const out = new Map<string, Float32Array>();
      for (let i = 0; i < keys.length; i += 500) {
        const rows = await db.embeddingCache.findMany({ where: { key: { in: keys.slice(i, i + 500) } } });
        for (const row of rows) {
          const bytes = row.vector;
          const copy = new Uint8Array(bytes.byteLength);
          copy.set(bytes);
          out.set(row.key, new Float32Array(copy.buffer));
        }
      }
      return out;
    },
    async setMany(entries) {
      for (const entry of entries) {
        const vector = new Uint8Array(entry.vector.byteLength);
        vector.set(new Uint8Array(entry.vector.buffer, entry.vector.byteOffset, entry.vector.byteLength));
        await db.embeddingCache.upsert({
          where: { key: entry.key },
          create: { key: entry.key, model: entry.model, vector },
          update: { vector },
        });
      }
    },
  };
}
