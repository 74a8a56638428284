import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ChunkIndex, IndexedChunk } from '@/lib/retrieval/types';
import { makeChunk, makeDocument } from './fixtures';
import type { MemoryDocument } from './memory-catalog';
import { createMemoryChunkIndex } from './memory-chunk-index';

/**
 * Loaders for the evaluation corpora (ClapNQ, BIPIA) as chunks and catalog documents, ingested straight
 * through the ChunkIndex (no parsing), and the index the scripts use: the real embedded index when it loads.
 */

export interface ClapRow {
  id: string;
  question: string;
  answerable: boolean;
  passage_title: string;
  passage_text: string;
  passage_sentences: string[];
  gold_sentences: string[];
}

export function loadClapnq(path: string): ClapRow[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as ClapRow);
}

function idFrom(prefix: string, text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${prefix}-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export function documentFor(
  ownerId: string,
  key: string,
  filename: string,
  title: string | null,
  chunkCount: number,
): MemoryDocument {
  // Ids derived from the content (stable across runs), everything else as in the unit fixtures.
  return makeDocument({
    documentId: idFrom('d', `${ownerId}:${key}`),
    ownerId,
    filename,
    title,
    mime: 'text/plain',
    chunkCount,
    sha256: createHash('sha256').update(key).digest('hex'),
  });
}

export function chunkFor(doc: MemoryDocument, index: number, text: string, charStart = 0): IndexedChunk {
  return makeChunk(doc, index, text, {
    chunkId: idFrom('c', `${doc.documentId}:${index}`),
    charStart,
    charEnd: charStart + text.length,
  });
}

/** Splits long text into ~maxChars chunks at paragraph, then line boundaries. */
export function chunkText(text: string, maxChars = 1800): { text: string; start: number }[] {
  const out: { text: string; start: number }[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + maxChars);
    if (end < text.length) {
      const para = text.lastIndexOf('\n\n', end);
      const line = text.lastIndexOf('\n', end);
      const space = text.lastIndexOf(' ', end);
      end = para > start + maxChars / 2 ? para : line > start + maxChars / 2 ? line : space > start ? space : end;
    }
    const piece = text.slice(start, end);
    if (piece.trim().length > 0) out.push({ text: piece, start });
    start = end;
  }
  return out;
}

/** The ClapNQ passages as one document and chunk each (deduplicated by text), and each row's gold document. */
export function clapnqCorpus(
  rows: ClapRow[],
  ownerId: string,
): { docs: MemoryDocument[]; chunks: IndexedChunk[]; goldDoc: Map<string, string> } {
  const docs: MemoryDocument[] = [];
  const chunks: IndexedChunk[] = [];
  const byText = new Map<string, string>();
  const goldDoc = new Map<string, string>();
  for (const row of rows) {
    let docId = byText.get(row.passage_text);
    if (!docId) {
      const doc = documentFor(
        ownerId,
        row.passage_text,
        `${row.passage_title.replace(/[^\w.-]+/g, '_').slice(0, 80)}.txt`,
        row.passage_title,
        1,
      );
      docs.push(doc);
      chunks.push(chunkFor(doc, 0, row.passage_text));
      byText.set(row.passage_text, doc.documentId);
      docId = doc.documentId;
    }
    goldDoc.set(row.id, docId);
  }
  return { docs, chunks, goldDoc };
}

/** The embedded index when '@/lib/retrieval/embedded-chunk-index' loads, else the in-memory test index. */
export async function openEvalIndex(dir: string): Promise<{ index: ChunkIndex; engine: string }> {
  try {
    const mod = await import('@/lib/retrieval/embedded-chunk-index');
    const index = await mod.createEmbeddedChunkIndex({ dir });
    return { index, engine: index.engine };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { index: createMemoryChunkIndex(), engine: `memory (embedded index unavailable: ${reason.slice(0, 120)})` };
  }
}
