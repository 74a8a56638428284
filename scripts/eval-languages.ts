/**
 * German and French retrieval check (issue #16, Languages): keyword (BM25) search over ONE mixed library of
 * German, French and English chunks, run twice through the real embedded index:
 *   - english-only: every chunk analysed as English and every query analysed as English (the analyser before
 *     languages were detected);
 *   - per-language: each chunk analysed in its detected language, each query in the library's languages
 *     (what ingest and search do now).
 * Judgements: eval/languages/judgements.json (questions written from the documents; a chunk is relevant when
 * it contains one of the query's quotes). English control: SciFact test claims with their judged abstracts and
 * other abstracts in the same library, so an English question must still find English text.
 *
 *   npm run eval:languages
 *
 * Prints recall@10 and nDCG@10 per language and mode, and records `languages.*` keys in docs/figures.json.
 */
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { parseAndChunkPath } from '@/lib/ingest/parse-and-chunk';
import { createEmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import { detectLanguage } from '@/lib/retrieval/language';
import type { IndexedChunk } from '@/lib/retrieval/types';
import { recordFigures } from './figures';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCIFACT_QUERIES = 40;
const SCIFACT_DISTRACTORS = 800;
const TOP_K = 10;
const COMMAND = 'npm run eval:languages';

/** shared/data: $SHARED_DATA, else beside the project (a checkout) or two levels up (a worktree). */
function sharedData(): string {
  const candidates = [
    process.env.SHARED_DATA,
    path.resolve(ROOT, '..', 'shared', 'data'),
    path.resolve(ROOT, '..', '..', 'shared', 'data'),
  ];
  for (const candidate of candidates) if (candidate && existsSync(path.join(candidate, 'documents'))) return candidate;
  throw new Error('shared/data not found: set SHARED_DATA');
}

const judgementsSchema = z.object({
  documents: z.array(z.object({ path: z.string(), language: z.string() })),
  englishDistractors: z.array(z.string()),
  queries: z.array(
    z.object({ id: z.string(), language: z.string(), text: z.string(), quotes: z.array(z.string()).min(1) }),
  ),
});

interface Query {
  id: string;
  language: string;
  text: string;
  /** Each relevant passage: the chunk ids that hold it (a passage found once counts once). */
  passages: string[][];
}

const flat = (text: string) => text.replace(/\s+/g, ' ').trim();

function baseChunk(id: string, documentId: string, index: number, text: string, title: string): IndexedChunk {
  return {
    chunkId: id,
    documentId,
    ownerId: 'eval',
    index,
    text,
    contextPrefix: title,
    tokenCount: text.split(/\s+/).length,
    vector: null,
    embeddingModel: null,
    page: null,
    sheet: null,
    rowStart: null,
    rowEnd: null,
    headingPath: null,
    charStart: 0,
    charEnd: text.length,
    bucketId: null,
    mime: 'text/plain',
    filename: title,
    title,
    documentDate: null,
    tags: [],
    fields: {},
  };
}

async function documentChunks(dir: string, relative: string): Promise<IndexedChunk[]> {
  const file = path.join(dir, relative);
  const { chunks } = await parseAndChunkPath(file, { filename: path.basename(file) });
  return chunks.map((chunk) => ({
    ...baseChunk(`${relative}#${chunk.index}`, relative, chunk.index, chunk.text, path.basename(file)),
    contextPrefix: chunk.contextPrefix,
    page: chunk.page,
    headingPath: chunk.headingPath,
  }));
}

function readJsonl(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** SciFact: the first test claims, their judged abstracts, and the first other abstracts as distractors. */
function scifact(): { chunks: IndexedChunk[]; queries: Query[] } {
  const dir = path.join(sharedData(), 'beir-scifact');
  const qrels = new Map<string, string[]>();
  for (const line of readFileSync(path.join(dir, 'qrels', 'test.tsv'), 'utf8')
    .split('\n')
    .slice(1)) {
    const [queryId, docId, score] = line.split('\t');
    if (!queryId || !docId || Number(score) <= 0) continue;
    qrels.set(queryId, [...(qrels.get(queryId) ?? []), docId]);
  }
  const claims = new Map(readJsonl(path.join(dir, 'queries.jsonl')).map((row) => [String(row._id), String(row.text)]));
  const chosen = [...qrels.keys()].slice(0, SCIFACT_QUERIES);
  const wanted = new Set(chosen.flatMap((id) => qrels.get(id) ?? []));
  const corpus = readJsonl(path.join(dir, 'corpus.jsonl'));
  const chunks: IndexedChunk[] = [];
  let distractors = 0;
  for (const row of corpus) {
    const id = `scifact:${String(row._id)}`;
    const keep = wanted.has(String(row._id)) || distractors++ < SCIFACT_DISTRACTORS;
    if (keep) chunks.push(baseChunk(id, id, 0, String(row.text), String(row.title)));
  }
  const queries = chosen.map((id) => ({
    id: `en-${id}`,
    language: 'en',
    text: claims.get(id) ?? '',
    passages: (qrels.get(id) ?? []).map((docId) => [`scifact:${docId}`]),
  }));
  return { chunks, queries };
}

function metrics(ranked: string[], passages: string[][]): { recall: number; ndcg: number } {
  const found = new Set<number>();
  let dcg = 0;
  ranked.slice(0, TOP_K).forEach((chunkId, rank) => {
    const passage = passages.findIndex((ids, i) => !found.has(i) && ids.includes(chunkId));
    if (passage >= 0) {
      found.add(passage);
      dcg += 1 / Math.log2(rank + 2);
    }
  });
  let ideal = 0;
  for (let rank = 0; rank < Math.min(passages.length, TOP_K); rank++) ideal += 1 / Math.log2(rank + 2);
  return { recall: found.size / passages.length, ndcg: ideal > 0 ? dcg / ideal : 0 };
}

async function run(mode: 'english-only' | 'per-language', chunks: IndexedChunk[], queries: Query[]) {
  const dir = await mkdtemp(path.join(tmpdir(), `eval-languages-${mode}-`));
  const index = await createEmbeddedChunkIndex({ dir });
  try {
    const languageOf = (chunk: IndexedChunk) => (mode === 'english-only' ? 'en' : detectLanguage(chunk.text));
    await index.upsert(chunks.map((chunk) => ({ ...chunk, language: languageOf(chunk) })));
    const byLanguage = new Map<string, { recall: number; ndcg: number; n: number; misses: string[] }>();
    for (const query of queries) {
      const hits = await index.search({ ownerId: 'eval', query: query.text, mode: 'keyword', topK: TOP_K });
      const score = metrics(
        hits.map((hit) => hit.chunkId),
        query.passages,
      );
      const entry = byLanguage.get(query.language) ?? { recall: 0, ndcg: 0, n: 0, misses: [] };
      entry.recall += score.recall;
      entry.ndcg += score.ndcg;
      entry.n += 1;
      if (score.recall < 1) entry.misses.push(query.id);
      if (process.env.VERBOSE) {
        console.log(
          `${mode} ${query.id} nDCG ${score.ndcg.toFixed(3)} top: ${hits
            .slice(0, 3)
            .map((h) => h.chunkId)
            .join(', ')}`,
        );
      }
      byLanguage.set(query.language, entry);
    }
    return new Map(
      [...byLanguage].map(([language, e]) => [
        language,
        { recall: e.recall / e.n, ndcg: e.ndcg / e.n, n: e.n, misses: e.misses },
      ]),
    );
  } finally {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const dir = path.join(sharedData(), 'documents');
  const judgements = judgementsSchema.parse(
    JSON.parse(readFileSync(path.join(ROOT, 'eval', 'languages', 'judgements.json'), 'utf8')),
  );
  const chunks: IndexedChunk[] = [];
  for (const doc of judgements.documents) chunks.push(...(await documentChunks(dir, doc.path)));
  for (const relative of judgements.englishDistractors) chunks.push(...(await documentChunks(dir, relative)));
  const queries: Query[] = judgements.queries.map((query) => {
    const passages = query.quotes.map((quote) =>
      chunks.filter((chunk) => flat(chunk.text).includes(flat(quote))).map((chunk) => chunk.chunkId),
    );
    const missing = query.quotes.filter((_, i) => (passages[i] ?? []).length === 0);
    if (missing.length > 0) throw new Error(`${query.id}: quote not found in any chunk: ${missing.join(' | ')}`);
    return { id: query.id, language: query.language, text: query.text, passages };
  });
  const english = scifact();
  chunks.push(...english.chunks);
  queries.push(...english.queries);

  const detected = new Map<string, number>();
  for (const chunk of chunks) {
    const language = detectLanguage(chunk.text);
    detected.set(language, (detected.get(language) ?? 0) + 1);
  }
  console.log(`# Languages retrieval check (keyword search, top ${TOP_K})\n`);
  console.log(
    `Library: ${chunks.length} chunks; detected languages: ${[...detected].map(([l, n]) => `${l} ${n}`).join(', ')}`,
  );
  const before = await run('english-only', chunks, queries);
  const after = await run('per-language', chunks, queries);
  console.log(
    '\n| queries | n | English-only recall@10 | nDCG@10 | per-language recall@10 | nDCG@10 | misses (per-language) |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  const fmt = (value: number | undefined) => (value ?? Number.NaN).toFixed(3);
  for (const language of ['de', 'fr', 'en']) {
    const a = before.get(language);
    const b = after.get(language);
    console.log(
      `| ${language} | ${b?.n ?? 0} | ${fmt(a?.recall)} | ${fmt(a?.ndcg)} | ${fmt(b?.recall)} | ${fmt(b?.ndcg)} | ${(b?.misses ?? []).join(' ')} |`,
    );
  }
  const figures: Parameters<typeof recordFigures>[0] = {};
  for (const language of ['de', 'fr', 'en']) {
    const a = before.get(language);
    const b = after.get(language);
    if (!a || !b) continue;
    figures[`languages.${language}_recall10`] = { value: round(b.recall), unit: 'recall@10', command: COMMAND };
    figures[`languages.${language}_ndcg10`] = { value: round(b.ndcg), unit: 'nDCG@10', command: COMMAND };
    figures[`languages.${language}_recall10_english_only`] = {
      value: round(a.recall),
      unit: 'recall@10',
      command: COMMAND,
    };
    figures[`languages.${language}_ndcg10_english_only`] = { value: round(a.ndcg), unit: 'nDCG@10', command: COMMAND };
  }
  recordFigures(figures);
  console.log('\nRecorded languages.* in docs/figures.json');
}

const round = (value: number) => Math.round(value * 1000) / 1000;

await main();
