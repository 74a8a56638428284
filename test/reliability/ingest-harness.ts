import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureDbReady, getDb } from '@/lib/db/client';
import { AppError } from '@/lib/errors';
import { registerUpload } from '@/lib/ingest/intake';
import { runJob, type WorkerDeps } from '@/lib/ingest/jobs';
import { saveUploadStream } from '@/lib/ingest/storage';
import { createEmbeddedChunkIndex, type EmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import type { ChunkIndex } from '@/lib/retrieval/types';

/**
 * Drives one file the way the app does (stream to disk → intake → one claimed job through the real pipeline and
 * parse sandbox) against the integration database and an embedded chunk index in a temporary folder.
 * Integration tests only.
 */

export interface Harness {
  index: EmbeddedChunkIndex;
  indexDir: string;
  deps: WorkerDeps;
  close(): Promise<void>;
}

export async function createHarness(
  options: { index?: ChunkIndex; limits?: Partial<WorkerDeps['limits']> } = {},
): Promise<Harness> {
  await ensureDbReady();
  const indexDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-rel-index-'));
  const index = await createEmbeddedChunkIndex({ dir: indexDir });
  const deps: WorkerDeps = {
    index: options.index ?? index,
    concurrency: 1,
    limits: { parseTimeoutMs: 60_000, parseMaxMemoryMb: 512, ...options.limits },
    resolveEmbedder: async () => null,
  };
  return {
    index,
    indexDir,
    deps,
    async close() {
      await index.close();
      fs.rmSync(indexDir, { recursive: true, force: true });
    },
  };
}

export type IngestOutcome =
  | { stage: 'upload'; status: number; code: string; reason: string; documentId: null }
  | {
      stage: 'job';
      status: 'INDEXED' | 'FAILED' | 'PENDING' | 'PROCESSING';
      reason: string | null;
      documentId: string;
      chunkCount: number;
      pageCount: number | null;
      result: 'indexed' | 'failed' | 'stopped';
    };

async function* chunksOf(data: Buffer | (() => AsyncIterable<Uint8Array>)): AsyncIterable<Uint8Array> {
  if (typeof data === 'function') {
    yield* data();
    return;
  }
  const step = 1 << 20;
  for (let i = 0; i < data.length; i += step) yield data.subarray(i, Math.min(data.length, i + step));
}

/** Stores and registers a file as `ownerId` (the upload route's steps); an AppError becomes an 'upload' outcome. */
export async function intake(
  ownerId: string,
  filename: string,
  data: Buffer | (() => AsyncIterable<Uint8Array>),
  declaredMime: string | null = null,
): Promise<{ documentId: string } | IngestOutcome> {
  try {
    const stored = await saveUploadStream({ body: chunksOf(data), maxBytes: 100 * 1024 * 1024 });
    const { document } = await registerUpload({ ownerId, stored, filename, declaredMime, bucketId: null });
    return { documentId: document.id };
  } catch (error) {
    if (error instanceof AppError)
      return { stage: 'upload', status: error.status, code: error.code, reason: error.message, documentId: null };
    throw error;
  }
}

/** Claims one specific document (as the worker would) and runs its job to the end. */
export async function processOne(h: Harness, documentId: string): Promise<IngestOutcome> {
  const db = getDb();
  await db.document.update({
    where: { id: documentId },
    data: {
      status: 'PROCESSING',
      stage: 'parsing',
      lockedBy: 'reliability-test',
      lockedAt: new Date(),
      attempts: { increment: 1 },
    },
  });
  const result = await runJob(h.deps, documentId, () => false);
  const row = await db.document.findUniqueOrThrow({ where: { id: documentId } });
  return {
    stage: 'job',
    status: row.status,
    reason: row.error,
    documentId,
    chunkCount: await db.chunk.count({ where: { documentId } }),
    pageCount: row.pageCount,
    result,
  };
}

/** intake + processOne. */
export async function ingest(
  h: Harness,
  ownerId: string,
  filename: string,
  data: Buffer | (() => AsyncIterable<Uint8Array>),
  declaredMime: string | null = null,
): Promise<IngestOutcome> {
  const taken = await intake(ownerId, filename, data, declaredMime);
  if ('stage' in taken) return taken;
  return processOne(h, taken.documentId);
}
