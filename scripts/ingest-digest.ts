/**
 * What an ingestion run stored, one hash per document, so two versions of the code can be compared on the same files
 * (a change meant to make ingestion cheaper must not change what it reads). Reads the SQLite database of a run
 * (`npm run ingest` into a fresh DATA_DIR, as `npm run bench:ingest-cli -- --keep --work-dir <dir>` leaves it) and
 * hashes, per document (by file name): its status, error, title, page and chunk counts and warnings; every chunk
 * (text, page, sheet, rows, heading path, unit, offsets, tokens, OCR confidence); every page text (ordinal, part,
 * page, sheet); every section summary. `--compare` prints the documents whose hash differs and, for each, which
 * part differs and the first chunk or page text that does.
 *
 *   npx tsx scripts/ingest-digest.ts <DATA_DIR/app.db> --out a.json
 *   npx tsx scripts/ingest-digest.ts <DATA_DIR/app.db> --compare a.json
 */

import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import { z } from 'zod';

function arg(name: string): string | null {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? null) : null;
}

const partsSchema = z.object({ document: z.string(), chunks: z.string(), pages: z.string(), summaries: z.string() });
const digestSchema = z.record(
  z.string(),
  z.object({
    hash: z.string(),
    parts: partsSchema,
    chunkTexts: z.array(z.string()),
    pageTexts: z.array(z.string()),
  }),
);
type Digest = z.infer<typeof digestSchema>;

const hash = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);

function digest(file: string): Digest {
  const db = new Database(file, { readonly: true });
  try {
    const docs = db
      .prepare(
        'SELECT id, filename, status, error, title, pageCount, chunkCount, warnings FROM Document ORDER BY filename, id',
      )
      .all() as { id: string; filename: string }[];
    const chunks = db.prepare(
      'SELECT "index", text, page, sheet, rowStart, rowEnd, headingPath, unitOrdinal, charStart, charEnd, tokenCount, ocrConfidence FROM Chunk WHERE documentId = ? ORDER BY "index"',
    );
    const pages = db.prepare(
      'SELECT ordinal, part, page, sheet, text, ocrConfidence FROM DocumentPage WHERE documentId = ? ORDER BY ordinal, part',
    );
    const summaries = db.prepare(
      'SELECT ordinal, label, chunkStart, chunkEnd, pageStart, pageEnd, text, source, tokenCount FROM SectionSummary WHERE documentId = ? ORDER BY ordinal',
    );
    const out: Digest = {};
    for (const doc of docs) {
      const { id, ...fields } = doc;
      const chunkRows = chunks.all(id) as { text: string }[];
      const pageRows = pages.all(id) as { text: string }[];
      const parts = {
        document: hash(fields),
        chunks: hash(chunkRows),
        pages: hash(pageRows),
        summaries: hash(summaries.all(id)),
      };
      const key = out[doc.filename] ? `${doc.filename} (${id})` : doc.filename;
      out[key] = {
        hash: hash(parts),
        parts,
        chunkTexts: chunkRows.map((c) => c.text),
        pageTexts: pageRows.map((p) => p.text),
      };
    }
    return out;
  } finally {
    db.close();
  }
}

function firstDifference(a: readonly string[], b: readonly string[]): string {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] === b[i]) continue;
    const x = a[i] ?? '';
    const y = b[i] ?? '';
    let at = 0;
    while (at < x.length && x[at] === y[at]) at++;
    return `#${i}: …${JSON.stringify(x.slice(Math.max(0, at - 30), at + 50))} → …${JSON.stringify(y.slice(Math.max(0, at - 30), at + 50))}`;
  }
  return '(texts same; other fields differ)';
}

function main(): number {
  const file = process.argv[2];
  if (!file || file.startsWith('--')) {
    console.error('usage: npx tsx scripts/ingest-digest.ts <app.db> [--out digest.json] [--compare before.json]');
    return 2;
  }
  const now = digest(file);
  const out = arg('out');
  if (out) writeFileSync(out, JSON.stringify(now));
  const against = arg('compare');
  if (!against) {
    console.log(`${Object.keys(now).length} documents digested`);
    return 0;
  }
  const before = digestSchema.parse(JSON.parse(readFileSync(against, 'utf8')));
  let same = 0;
  let differ = 0;
  for (const name of new Set([...Object.keys(before), ...Object.keys(now)])) {
    const x = before[name];
    const y = now[name];
    if (!x || !y) {
      differ++;
      console.log(`${name}: ${x ? 'missing now' : 'new'}`);
      continue;
    }
    if (x.hash === y.hash) {
      same++;
      continue;
    }
    differ++;
    const parts = (Object.keys(x.parts) as (keyof typeof x.parts)[]).filter((k) => x.parts[k] !== y.parts[k]);
    console.log(`${name}: differs in ${parts.join(', ')}`);
    if (parts.includes('chunks')) console.log(`  chunk ${firstDifference(x.chunkTexts, y.chunkTexts)}`);
    if (parts.includes('pages')) console.log(`  page ${firstDifference(x.pageTexts, y.pageTexts)}`);
  }
  console.log(`${same} documents identical, ${differ} differ`);
  return differ === 0 ? 0 : 1;
}

process.exit(main());
