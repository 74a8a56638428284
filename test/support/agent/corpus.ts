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

/** A set's documents and chunks, and each question's gold document. */
export interface EvalCorpus {
  docs: MemoryDocument[];
  chunks: IndexedChunk[];
  goldDoc: Map<string, string>;
}

/**
 * One document per distinct passage text (rows that share a passage share its document), split into chunks by
 * `split`, and each row's gold document.
 */
export function passageCorpus<R extends { id: string }>(
  rows: readonly R[],
  ownerId: string,
  passage: {
    text: (row: R) => string;
    fileName: (row: R, ordinal: number) => string;
    title: (row: R) => string | null;
    split: (text: string) => { text: string; start: number }[];
  },
): EvalCorpus {
  const docs: MemoryDocument[] = [];
  const chunks: IndexedChunk[] = [];
  const byText = new Map<string, string>();
  const goldDoc = new Map<string, string>();
  for (const row of rows) {
    const text = passage.text(row);
    let docId = byText.get(text);
    if (!docId) {
      const pieces = passage.split(text);
      const doc = documentFor(ownerId, text, passage.fileName(row, byText.size + 1), passage.title(row), pieces.length);
      docs.push(doc);
      pieces.forEach((p, i) => {
        chunks.push(chunkFor(doc, i, p.text, p.start));
      });
      byText.set(text, doc.documentId);
      docId = doc.documentId;
    }
    goldDoc.set(row.id, docId);
  }
  return { docs, chunks, goldDoc };
}

/** The ClapNQ passages as one document and chunk each (deduplicated by text), and each row's gold document. */
export function clapnqCorpus(rows: ClapRow[], ownerId: string): EvalCorpus {
  return passageCorpus(rows, ownerId, {
    text: (row) => row.passage_text,
    fileName: (row) => `${row.passage_title.replace(/[^\w.-]+/g, '_').slice(0, 80)}.txt`,
    title: (row) => row.passage_title,
    split: (text) => [{ text, start: 0 }],
  });
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
