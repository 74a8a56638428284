import { createQdrantChunkIndex } from '@/lib/retrieval/qdrant-chunk-index';
import { describeChunkIndexContract } from '@/test/support/retrieval/contract';
import { startFakeQdrant } from '@/test/support/retrieval/qdrant-fake-server';

/**
 * The shared ChunkIndex contract, run through the Qdrant adapter against the in-memory fake of Qdrant's REST
 * API (qdrant-fake-server.ts). It checks the adapter's requests and result mapping without a server; the
 * fake's scoring only approximates Qdrant. The real-server run is qdrant-chunk-index.contract.int.test.ts.
 */
describeChunkIndexContract(
  'qdrant adapter over the in-memory fake',
  async () => {
    const fake = await startFakeQdrant();
    const index = await createQdrantChunkIndex({
      url: fake.url,
      collectionPrefix: 'contract',
      dimensions: 8,
      embeddingModel: 'test-model',
    });
    return {
      index,
      cleanup: async () => {
        await index.close();
        await fake.close();
      },
    };
  },
  { semantic: true },
);
