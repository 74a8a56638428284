/**
 * TEST-ONLY: one "app instance" as a process of its own, for the two-instance test (test/cluster). It builds its
 * backends the way the server does (lib/services.ts: the chunk index from QDRANT_URL, the database from
 * DATABASE_URL, uploads under DATA_DIR), runs the real ingest worker (keyword-only: no embedder), and answers the
 * parent's IPC messages: which jobs it ran, a search, a document deletion, stop. Run with `node --import tsx`.
 */

import { z } from 'zod';
import { getConfig } from '@/lib/config';
import { disconnectDb, ensureDbReady } from '@/lib/db/lifecycle';
import { deleteDocument } from '@/lib/documents/manage';
import { startIngestWorker } from '@/lib/ingest/jobs';
import { shutdownParseWorkers } from '@/lib/ingest/sandbox';
import { getChunkIndex, getManageDeps } from '@/lib/services';

const messageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('jobs'), id: z.number() }),
  z.object({ type: z.literal('idle'), id: z.number() }),
  z.object({ type: z.literal('search'), id: z.number(), ownerId: z.string(), query: z.string(), topK: z.number() }),
  z.object({ type: z.literal('delete'), id: z.number(), ownerId: z.string(), documentId: z.string() }),
  z.object({ type: z.literal('stop'), id: z.number() }),
]);

const send = (message: unknown) => process.send?.(message);

await ensureDbReady();
const config = getConfig();
const index = await getChunkIndex();
/** Every job this instance ran to an end state, in order (a job run twice would appear twice across instances). */
const ran: { documentId: string; outcome: string }[] = [];
const worker = startIngestWorker({
  index,
  concurrency: 2,
  limits: { parseTimeoutMs: config.ingest.parseTimeoutMs, parseMaxMemoryMb: config.ingest.parseMaxMemoryMb },
  resolveEmbedder: async () => null,
  pollMs: 100,
  log: (line) => {
    const match = /^(indexed|failed) ([0-9a-f-]{36})/.exec(line);
    if (match?.[1] && match[2]) ran.push({ documentId: match[2], outcome: match[1] });
  },
});

process.on('message', async (raw: unknown) => {
  const parsed = messageSchema.safeParse(raw);
  if (!parsed.success) return;
  const message = parsed.data;
  try {
    switch (message.type) {
      case 'jobs':
        send({ id: message.id, ok: true, value: ran });
        break;
      case 'idle':
        await worker.idle();
        send({ id: message.id, ok: true, value: null });
        break;
      case 'search': {
        const hits = await index.search({
          ownerId: message.ownerId,
          query: message.query,
          mode: 'keyword',
          topK: message.topK,
        });
        send({ id: message.id, ok: true, value: hits });
        break;
      }
      case 'delete':
        await deleteDocument({ ownerId: message.ownerId, id: message.documentId }, await getManageDeps());
        send({ id: message.id, ok: true, value: null });
        break;
      case 'stop':
        await worker.stop();
        await shutdownParseWorkers();
        await index.close();
        await disconnectDb();
        send({ id: message.id, ok: true, value: null });
        process.exit(0);
    }
  } catch (error) {
    send({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) });
  }
});

send({ type: 'ready', pid: process.pid });
