// npm run train:injection – trains the injection classifier (lib/agent/injection-classifier.ts) and writes its
// weights to lib/agent/injection-model.json. Deterministic (seeded). Training data never includes an evaluation file
// (eval/injection/*.jsonl, BIPIA): clean text from SciFact, ClapNQ and SQuAD passages the eval does not use, half of
// the real documents, and code, READMEs and Markdown docs from node_modules ranked after the files the eval samples;
// attacks from eval/injection/train/attacks.jsonl (written for training only), planted into clean chunks; hard clean
// sentences (clean-hard.jsonl) and whole ordinary documents (clean-docs.jsonl: e-mails, letters, forms), both written
// for training, and generated e-mail header blocks (injection-mail-headers.ts) as negatives.
// `--dry-run`: train and report, do not write the model.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { type Model, modelFromFile, probability, windows } from '@/lib/agent/injection-classifier';
import { parseAndChunkPath } from '@/lib/ingest/parse-and-chunk';
import { chunkText } from '@/test/support/agent/corpus';
import { jsonl, walk } from './injection-files';
import { syntheticHeaderBlocks } from './injection-mail-headers';
import {
  type CleanChunk,
  evaluateHeldOut,
  type HeldOutReport,
  isHeldOut,
  rng,
  type TrainAttack,
  train,
} from './injection-train-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const DATA =
  process.env.DOCUCHAT_DATA ??
  [path.resolve(ROOT, '../shared/data'), path.resolve(ROOT, '../../shared/data')].find((d) => existsSync(d)) ??
  path.resolve(ROOT, '../shared/data');
const OUT = path.join(ROOT, 'lib/agent/injection-model.json');
const DRY = process.argv.includes('--dry-run');
/** `--evaluate <model.json>`: no training; the held-out report of that model file (to compare versions). */
const EVALUATE = process.argv.includes('--evaluate') ? process.argv[process.argv.indexOf('--evaluate') + 1] : undefined;
const CHUNK = 1800;
/** Generated e-mail header blocks added as clean text (scripts/injection-mail-headers.ts). */
const HEADER_BLOCKS = 300;

const sha = (s: string) => createHash('sha1').update(s).digest('hex');
const byHash = <T>(items: T[], key: (t: T) => string) =>
  [...items].sort((a, b) => sha(key(a)).localeCompare(sha(key(b))));

const chunks = (text: string, max: number) =>
  chunkText(text, CHUNK)
    .slice(0, max)
    .map((c) => c.text)
    .filter((t) => t.trim().length > 80);

function passages(): CleanChunk[] {
  const out: CleanChunk[] = [];
  const scifact = jsonl(path.join(DATA, 'beir-scifact/corpus.jsonl')).slice(0, 3000);
  for (const r of scifact) out.push({ source: 'SciFact', text: String(r.text) });
  // eval:injection uses the first 400 ClapNQ passages and the first 200 SQuAD contexts: skip them
  const clap = [...new Set(jsonl(path.join(DATA, 'clapnq/clapnq_dev_flat.jsonl')).map((r) => String(r.passage_text)))];
  for (const t of clap.slice(400, 1600)) out.push({ source: 'ClapNQ', text: t });
  const squad = z
    .object({ queries: z.array(z.object({ context: z.string() })) })
    .parse(JSON.parse(readFileSync(path.join(DATA, 'squad2-dev-sample500/queries.json'), 'utf8')));
  for (const t of [...new Set(squad.queries.map((q) => q.context))].slice(200)) out.push({ source: 'SQuAD', text: t });
  return out;
}

async function documents(): Promise<CleanChunk[]> {
  const root = path.join(DATA, 'documents');
  const out: CleanChunk[] = [];
  for (const file of walk(root, Number.POSITIVE_INFINITY)) {
    const rel = path.relative(root, file);
    // half of the documents (by hash of the path); eval:injection's false-positive rows include both halves
    if (rel === 'MANIFEST.tsv' || !isHeldOut(`doc:${rel}`, 0.5)) continue;
    try {
      const { chunks: cs } = await parseAndChunkPath(file, { filename: path.basename(file) });
      for (const c of cs.slice(0, 40)) out.push({ source: `document ${rel}`, text: c.text });
    } catch {
      // files that do not parse have no text
    }
  }
  return out;
}

const CODE_EXT = new Set(['.js', '.mjs', '.cjs', '.ts', '.c', '.cc', '.h', '.sh', '.css', '.yml', '.py', '.go', '.rs']);

function nodeModules(): CleanChunk[] {
  const byExt = new Map<string, string[]>();
  const readmes: string[] = [];
  const markdown: string[] = [];
  for (const f of walk(path.join(ROOT, 'node_modules'))) {
    const ext = path.extname(f);
    if (path.basename(f).toLowerCase() === 'readme.md') readmes.push(f);
    else if (ext === '.md' || ext === '.mdx') markdown.push(f);
    if (!CODE_EXT.has(ext) || f.endsWith('.min.js') || f.includes('/test/fixtures/')) continue;
    const list = byExt.get(ext) ?? [];
    list.push(f);
    byExt.set(ext, list);
  }
  const out: CleanChunk[] = [];
  // eval:injection samples the first 60 files per language and the first 150 READMEs by the same hash order
  for (const [ext, files] of byExt)
    for (const f of byHash(files, (x) => x).slice(100, 260))
      for (const t of chunks(readFileSync(f, 'utf8'), 2)) out.push({ source: `code ${ext}`, text: t });
  for (const f of byHash(readmes, (x) => x).slice(200, 900))
    for (const t of chunks(readFileSync(f, 'utf8'), 3)) out.push({ source: 'README', text: t });
  // other Markdown docs; the AI SDK's docs (about building assistants) are the hardest negatives, but eval samples
  // 400 of their chunks, so only the files whose path hash puts them in the training half are read
  for (const f of byHash(markdown, (x) => x).slice(0, 1500)) {
    if (f.includes('/node_modules/ai/docs/') && !isHeldOut(`aidoc:${f}`, 0.5)) continue;
    for (const t of chunks(readFileSync(f, 'utf8'), 3)) out.push({ source: 'Markdown docs', text: t });
  }
  return out;
}

/** The translated messages of a gettext .mo file (program UI text: short, often imperative, in many languages). */
function moMessages(file: string): string[] {
  const b = readFileSync(file);
  if (b.length < 28) return [];
  const magic = b.readUInt32LE(0);
  const read = magic === 0x950412de ? (o: number) => b.readUInt32LE(o) : (o: number) => b.readUInt32BE(o);
  if (magic !== 0x950412de && b.readUInt32BE(0) !== 0x950412de) return [];
  const n = read(8);
  const table = read(16);
  const out: string[] = [];
  for (let i = 0; i < n && table + 8 * i + 8 <= b.length; i++) {
    const len = read(table + 8 * i);
    const off = read(table + 8 * i + 4);
    if (off + len > b.length || len < 20) continue;
    const msg = b.toString('utf8', off, off + len).split('\0')[0] ?? '';
    if (!msg.includes('Content-Type:') && !/%[\d$]*[sdlu]|\$\{/.test(msg)) out.push(msg);
  }
  return out;
}

/** Clean text in many languages: translated program messages from /usr/share/locale, grouped into chunks. */
function translations(): CleanChunk[] {
  const root = '/usr/share/locale';
  if (!existsSync(root)) return [];
  const out: CleanChunk[] = [];
  for (const lang of readdirSync(root).sort()) {
    const dir = path.join(root, lang, 'LC_MESSAGES');
    if (!existsSync(dir) || lang.startsWith('en')) continue;
    const messages = byHash(readdirSync(dir), (x) => x)
      .slice(0, 30)
      .flatMap((f) => moMessages(path.join(dir, f)));
    let chunk = '';
    let count = 0;
    for (const m of messages) {
      if (chunk.length + m.length > CHUNK) {
        out.push({ source: `translations ${lang}`, text: chunk });
        chunk = '';
        if (++count >= 25) break;
      }
      chunk += `${m}\n`;
    }
  }
  return out;
}

const docSchema = z.object({ id: z.string(), lang: z.string(), kind: z.string(), text: z.string().min(20) });
const attackSchema = z.object({ id: z.string(), lang: z.string(), style: z.string(), text: z.string().min(5) });

async function main() {
  const started = performance.now();
  const clean = [...passages(), ...(await documents()), ...nodeModules(), ...translations()];
  const attacks: TrainAttack[] = jsonl(path.join(ROOT, 'eval/injection/train/attacks.jsonl')).map((r) =>
    attackSchema.parse(r),
  );
  // ordinary documents written for training (e-mails, newsletters, letters, invoices, support replies, invitations,
  // forms, header blocks): every window a negative, so calls to action for the human reader are not evidence
  const docs: CleanChunk[] = jsonl(path.join(ROOT, 'eval/injection/train/clean-docs.jsonl')).map((r) => {
    const d = docSchema.parse(r);
    return { source: `written ${d.kind} ${d.lang}`, text: d.text, whole: true };
  });
  clean.push(...docs);
  // header blocks (From/To/Cc/Date/Subject with names and addresses), generated: an e-mail's header is no attack
  const headers = syntheticHeaderBlocks(HEADER_BLOCKS, rng(29));
  for (const text of headers) clean.push({ source: 'header synthetic', text, whole: true });
  const hard = jsonl(path.join(ROOT, 'eval/injection/train/clean-hard.jsonl')).map(
    (r) => z.object({ id: z.string(), lang: z.string(), text: z.string().min(5) }).parse(r).text,
  );
  const bySource = new Map<string, number>();
  for (const c of clean) {
    const key = c.source.split(' ')[0] ?? c.source;
    bySource.set(key, (bySource.get(key) ?? 0) + 1);
  }
  console.log(`clean chunks ${clean.length}:`, Object.fromEntries(bySource));
  console.log(`hard clean sentences ${hard.length}; written documents ${docs.length}`);
  console.log(`attacks ${attacks.length} in ${new Set(attacks.map((a) => a.lang)).size} languages`);
  const options = {
    seed: 13,
    plantsPerAttack: 12,
    maxNegativeWindows: 90_000,
    epochs: 4,
    targetFp: 0.015,
    heldOutFraction: 0.2,
    wholeRepeats: 3,
  };
  if (EVALUATE) {
    const model = modelFromFile(JSON.parse(readFileSync(EVALUATE, 'utf8')));
    printHeldOut(model.threshold, evaluateHeldOut(model, clean, attacks, options, hard));
    if (process.argv.includes('--show-top')) showTop(model, clean, options.heldOutFraction);
    return;
  }
  const report = train(clean, attacks, options, hard);
  console.log('counts', report.counts);
  printHeldOut(report.file.threshold, report.heldOut);
  console.log(`train time ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (DRY) return;
  const json = `${JSON.stringify(report.file, null, 2)}\n`;
  writeFileSync(OUT, json);
  console.log(`wrote ${path.relative(ROOT, OUT)} (${(json.length / 1024).toFixed(0)} KiB)`);
}

/** The held-out clean chunks the model scores highest, with their highest window (to see what it confuses). */
function showTop(model: Model, clean: CleanChunk[], fraction: number) {
  const scored = clean
    .filter((c) => isHeldOut(c.text, fraction))
    .map((c) => {
      let best = { p: 0, text: '' };
      for (const w of windows(c.text)) {
        const p = probability(model, w.text);
        if (p > best.p) best = { p, text: w.text };
      }
      return { source: c.source, ...best };
    })
    .sort((a, b) => b.p - a.p)
    .slice(0, 25);
  for (const s of scored) console.log(`${s.p.toFixed(3)} ${s.source}: ${JSON.stringify(s.text.slice(0, 220))}`);
}

function printHeldOut(threshold: number, h: HeldOutReport) {
  console.log(
    `threshold ${threshold}; held-out clean chunks flagged ${h.cleanFlagged}/${h.cleanChunks} (${((100 * h.cleanFlagged) / Math.max(1, h.cleanChunks)).toFixed(1)}%); held-out attacks planted in held-out chunks detected ${h.detected}/${h.plantedAttacks} (${((100 * h.detected) / Math.max(1, h.plantedAttacks)).toFixed(1)}%)`,
  );
  console.log('held-out clean flagged by source', h.byGroup);
  console.log(
    `held-out hard clean sentences flagged alone ${h.hardFlagged}/${h.hardTotal}, planted ${h.hardPlantedFlagged}/${h.hardPlanted}`,
  );
  console.log('held-out curve', h.curve);
}

await main();
process.exit(0);
