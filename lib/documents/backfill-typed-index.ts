import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pageDocumentsWithTypedValues } from '@/lib/db/typed-meta';
import { type ManageDeps, syncIndexedTypedValues } from './manage';

/**
 * Typed values have been copied into chunk rows and Qdrant payloads (so filters run inside the engine) since
 * 2026-11-24. Chunks indexed before then carry none, and a typed filter would not find them until their document
 * was written again. This copies the values of every indexed document that has some into the index, once per data
 * folder (a marker file records it); idempotent, so a second instance or a rerun only repeats the same writes.
 */

const MARKER = 'typed-index-backfill-v1';
const PAGE = 200;

export async function backfillTypedIndexOnce({
  dataDir,
  deps,
  log = console.log,
}: {
  dataDir: string;
  deps: Pick<ManageDeps, 'index'>;
  log?: (line: string) => void;
}): Promise<{ ran: boolean; documents: number; failed: number }> {
  const marker = path.join(dataDir, MARKER);
  if (existsSync(marker)) return { ran: false, documents: 0, failed: 0 };
  let documents = 0;
  let failed = 0;
  let after: string | null = null;
  do {
    const page = await pageDocumentsWithTypedValues({ after, take: PAGE });
    for (const document of page.documents) {
      try {
        await syncIndexedTypedValues({ ownerId: document.ownerId, documentId: document.id }, deps);
        documents++;
      } catch (error) {
        failed++;
        log(`[docuchat] typed values of document ${document.id} not copied to the index: ${String(error)}`);
      }
    }
    after = page.next;
  } while (after);
  // A failure leaves the marker unwritten, so the next start tries again.
  if (failed === 0) {
    await mkdir(dataDir, { recursive: true });
    await writeFile(marker, `${new Date().toISOString()} ${documents} documents\n`);
  }
  if (documents > 0 || failed > 0)
    log(`[docuchat] copied the typed values of ${documents} document(s) into the index (${failed} failed)`);
  return { ran: true, documents, failed };
}
