import { randomUUID } from 'node:crypto';
import { QdrantClient } from '@qdrant/js-client-rest';
import { describe, it } from 'vitest';
import { createQdrantChunkIndex } from '@/lib/retrieval/qdrant-chunk-index';
import { collectionNameFor } from '@/lib/retrieval/qdrant-requests';
import { describeChunkIndexContract } from '@/test/support/retrieval/contract';

/**
 * The shared ChunkIndex contract against a real Qdrant (>= 1.19: per-tenant IDF is on by default). Runs only when QDRANT_URL is set, e.g.
 *   docker run -p 6333:6333 qdrant/qdrant:v1.19.0
 *   QDRANT_URL=http://127.0.0.1:6333 npx vitest run --project integration lib/retrieval/qdrant-chunk-index
 * Each run uses its own collection (random prefix) and deletes it afterwards.
 */

const url = process.env.QDRANT_URL;
const apiKey = process.env.QDRANT_API_KEY || undefined;
const MODEL = 'test-model';

if (!url) {
  describe.skip('ChunkIndex contract: qdrant — skipped: set QDRANT_URL to run it against a real Qdrant', () => {
    it('needs QDRANT_URL (e.g. http://127.0.0.1:6333)', () => {});
  });
} else {
  describeChunkIndexContract(
    `qdrant at ${new URL(url).host}`,
    async () => {
      const prefix = `contract_${randomUUID().slice(0, 8)}`;
      const index = await createQdrantChunkIndex({
        url,
        ...(apiKey ? { apiKey } : {}),
        collectionPrefix: prefix,
        dimensions: 8,
        embeddingModel: MODEL,
      });
      return {
        index,
        cleanup: async () => {
          await index.close();
          const parsed = new URL(url);
          const client = new QdrantClient({
            url: parsed.origin,
            ...(parsed.pathname.length > 1 ? { prefix: parsed.pathname.replace(/\/+$/, '') } : {}),
            ...(apiKey ? { apiKey } : {}),
            checkCompatibility: false,
          });
          await client.deleteCollection(collectionNameFor(prefix, MODEL));
        },
      };
    },
    { semantic: true },
  );
}
