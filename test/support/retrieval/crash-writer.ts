/**
 * Child process of the crash test (lib/retrieval/embedded-crash.int.test.ts): writes batches through the embedded
 * index forever and prints one line per acknowledged write, until it is killed with SIGKILL.
 *   node --import tsx test/support/retrieval/crash-writer.ts <index dir> <first batch>
 * Batch b: document `doc-b` with CHUNKS chunks whose text holds the token `k<b>x`; every third batch also deletes
 * the previous batch's document.
 */

import { createEmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import { makeContractChunk } from '@/test/support/retrieval/contract';

export const CRASH_OWNER = 'crash-owner';
export const CHUNKS = 20;

const [dir, first] = process.argv.slice(2);
if (dir && first) {
  const index = await createEmbeddedChunkIndex({ dir });
  for (let batch = Number(first); ; batch++) {
    const chunks = Array.from({ length: CHUNKS }, (_, i) =>
      makeContractChunk({
        ownerId: CRASH_OWNER,
        documentId: `doc-${batch}`,
        chunkId: `b${batch}-c${i}`,
        text: `written k${batch}x chunk ${i} ${'padding words '.repeat(20)}`,
      }),
    );
    process.stdout.write(`START upsert ${batch}\n`);
    await index.upsert(chunks);
    process.stdout.write(`ACK upsert ${batch}\n`);
    if (batch % 3 === 0) {
      process.stdout.write(`START delete ${batch - 1}\n`);
      await index.deleteDocument(CRASH_OWNER, `doc-${batch - 1}`);
      process.stdout.write(`ACK delete ${batch - 1}\n`);
    }
  }
}
