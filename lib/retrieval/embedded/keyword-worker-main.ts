import type { MessagePort } from 'node:worker_threads';
import {
  filterAcceptor,
  type LengthNormalisation,
  type ResolvedTerm,
  type ScoringGeneration,
  scoreTerms,
} from '@/lib/retrieval/embedded/keyword-scoring';
import { SegmentReader } from '@/lib/retrieval/embedded/keyword-segment';
import type { SearchFilters } from '@/lib/retrieval/types';

/**
 * The search worker's side of keyword-pool.ts (started by keyword-worker.mjs). It keeps the generations it is
 * sent (segment bytes, liveness and norms in shared memory: views, no copies) until told to release them, and
 * scores queries with the same functions the owner's thread uses (keyword-scoring.ts). One query at a time.
 */

/** A segment as sent to a worker: its .idx bytes in shared memory, under a key unique in the process. */
export interface SharedSegment {
  key: number;
  name: string;
  bytes: Uint8Array;
}

export type ToWorker =
  | {
      type: 'generation';
      id: number;
      segments: SharedSegment[];
      bases: number[];
      alive: Uint8Array;
      bodyInverse: Float32Array;
      contextFactor: Float32Array;
      k1: number;
      lengths: LengthNormalisation;
    }
  | {
      type: 'search';
      id: number;
      generation: number;
      terms: ResolvedTerm[];
      limit: number;
      filters: SearchFilters | undefined;
    }
  | { type: 'release'; generation: number };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'result'; id: number; slots: Int32Array<ArrayBuffer>; scores: Float64Array<ArrayBuffer> }
  | { type: 'failed'; id: number; reason: string };

/**
 * The message that hands a worker a generation: each segment's shared .idx bytes under `keyOf`'s key (a worker
 * keeps one reader per key across generations), and the generation's shared liveness and norms.
 */
export function generationMessage(
  generation: ScoringGeneration,
  keyOf: (reader: ScoringGeneration['readers'][number], index: number) => number,
): ToWorker {
  return {
    type: 'generation',
    id: generation.id,
    // Views of the shared bytes: posting them shares the memory, it does not copy it.
    segments: generation.readers.map((reader, i) => ({
      key: keyOf(reader, i),
      name: reader.name,
      bytes: reader.bytes,
    })),
    bases: [...generation.bases],
    alive: generation.alive,
    bodyInverse: generation.bodyInverse,
    contextFactor: generation.contextFactor,
    k1: generation.k1,
    lengths: generation.lengths,
  };
}

export function serveKeywordSearches(port: MessagePort): void {
  const segments = new Map<number, SegmentReader>();
  const generations = new Map<number, { generation: ScoringGeneration; keys: number[] }>();

  function adopt(message: Extract<ToWorker, { type: 'generation' }>): void {
    const readers = message.segments.map((segment) => {
      let reader = segments.get(segment.key);
      if (!reader) {
        reader = SegmentReader.shared(segment.name, segment.bytes);
        segments.set(segment.key, reader);
      }
      return reader;
    });
    generations.set(message.id, {
      generation: {
        id: message.id,
        readers,
        bases: message.bases,
        alive: message.alive,
        bodyInverse: message.bodyInverse,
        contextFactor: message.contextFactor,
        k1: message.k1,
        lengths: message.lengths,
      },
      keys: message.segments.map((segment) => segment.key),
    });
  }

  function release(id: number): void {
    if (!generations.delete(id)) return;
    const used = new Set<number>();
    for (const entry of generations.values()) for (const key of entry.keys) used.add(key);
    for (const key of segments.keys()) if (!used.has(key)) segments.delete(key);
  }

  function search(message: Extract<ToWorker, { type: 'search' }>): FromWorker {
    const entry = generations.get(message.generation);
    if (!entry) return { type: 'failed', id: message.id, reason: `unknown generation ${message.generation}` };
    const { generation } = entry;
    const hits = scoreTerms(generation, message.terms, message.limit, filterAcceptor(generation, message.filters));
    const slots = new Int32Array(new ArrayBuffer(hits.length * 4));
    const scores = new Float64Array(new ArrayBuffer(hits.length * 8));
    hits.forEach((hit, i) => {
      slots[i] = hit.slot;
      scores[i] = hit.score;
    });
    return { type: 'result', id: message.id, slots, scores };
  }

  port.on('message', (message: ToWorker) => {
    if (message.type === 'generation') adopt(message);
    else if (message.type === 'release') release(message.generation);
    else if (message.type === 'search') {
      let reply: FromWorker;
      try {
        reply = search(message);
      } catch (error) {
        reply = { type: 'failed', id: message.id, reason: error instanceof Error ? error.message : String(error) };
      }
      if (reply.type === 'result') port.postMessage(reply, [reply.slots.buffer, reply.scores.buffer]);
      else port.postMessage(reply);
    }
  });
  const ready: FromWorker = { type: 'ready' };
  port.postMessage(ready);
}
