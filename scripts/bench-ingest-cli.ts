/**
 * End-to-end ingestion throughput through `npm run ingest` (store → parse → chunk → database → keyword/vector
 * index, keyword-only: no embedder), each set in a fresh DATA_DIR with its own SQLite database, as child processes:
 *
 *   1. the PDFs of the documents corpus (../shared/data/documents), OCR on as shipped (`corpus`), and again with
 *      OCR off (`corpus-text`, OCR_MAX_PAGES=0: text layers only);
 *   2. generated text PDFs (--pages, 50 pages per file);
 *   3. a bulk run (--bulk-pages) that is killed with SIGKILL part-way (--kill-at: once that share of the pages is
 *      INDEXED, so other files are PROCESSING and the rest not yet claimed), then started again: it must finish
 *      with every page and chunk exactly once (database and index). A sampler reads the CLI's process tree from
 *      /proc every 2 s (RSS, CPU) through both runs and prints a timeline (pages done, interval rate, RSS), so a
 *      rate that falls or RSS that grows with the documents already indexed shows. 100,000 bulk pages record
 *      the `ingest.bulk_100k_*` keys, any other count the `ingest.bulk_*` keys.
 *
 * Shared machines make wall clock unreliable, so each set also reports pages per CPU-second of the ingest process
 * (main thread and parse workers) times the lanes: the rate two idle cores would sustain. Figures record both.
 *
 *   npm run bench:ingest-cli -- [--pages 10000] [--bulk-pages 20000] [--concurrency 2] [--kill-at 0.3]
 *     [--sets corpus,corpus-text,generated,bulk] [--work-dir <dir> (default: a temp dir)] [--keep] [--no-record]
 */

import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { writeGeneratedPdfs } from '@/test/support/ingest/generated-pdfs';
import { recordFigures } from './figures';

function arg(name: string, fallback: string): string {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? (process.argv[at + 1] ?? fallback) : fallback;
}

const ROOT = path.resolve(import.meta.dirname, '..');
const CORPUS = arg('corpus', path.resolve(ROOT, '..', 'shared', 'data', 'documents'));
const PAGES = Number(arg('pages', '10000'));
const BULK_PAGES = Number(arg('bulk-pages', '20000'));
const CONCURRENCY = Number(arg('concurrency', '2'));
const KILL_AT = Number(arg('kill-at', '0.3'));
const RECORD = !process.argv.includes('--no-record');
const SETS = new Set(arg('sets', 'corpus,corpus-text,generated,bulk').split(','));
const WORK_DIR = arg('work-dir', '');
const KEEP = process.argv.includes('--keep');
const EMAIL = 'bench@example.com';
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

const summarySchema = z.object({
  files: z.number(),
  pages: z.number(),
  chunks: z.number(),
  wallSeconds: z.number(),
  cpuSeconds: z.number(),
  concurrency: z.number(),
  stagesMs: z.record(z.string(), z.number()),
  peakRssMb: z.number(),
  stopped: z.boolean(),
  /** From the CLI process's start (tsx, migrations, storing the files, then processing) to its summary. */
  commandWallSeconds: z.number().optional(),
  commandCpuSeconds: z.number().optional(),
});
type Summary = z.infer<typeof summarySchema>;

interface Env {
  dataDir: string;
  env: NodeJS.ProcessEnv;
}

function freshEnv(root: string, name: string): Env {
  const dataDir = path.join(root, `data-${name}`);
  mkdirSync(dataDir, { recursive: true });
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: `file:${path.join(dataDir, 'app.db')}` };
  const made = spawnSync(TSX, ['scripts/user.ts', 'create', EMAIL, '--password', 'bench-password'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(`user create failed: ${made.stderr}`);
  return { dataDir, env };
}

/** What the sampler saw of one CLI run's process tree (nice → tsx → node running the script, with its workers). */
interface TreeStats {
  /** Peak resident set of the largest process of the tree (the ingest process: main thread and parse workers). */
  peakRssMb: number;
  /** CPU seconds of the whole tree, as last read before it exited. */
  cpuSeconds: number;
}

interface RunOptions {
  /** Polled every 2 s while the run lasts; true kills the process tree with SIGKILL. */
  killWhen?: () => boolean;
  /** Called every 2 s with the tree's current numbers (for a timeline). */
  onSample?: (current: TreeStats & { rssMb: number }) => void;
}

/** Runs the ingest CLI; resolves with its summary (null when it was killed) and what the sampler saw. */
function ingest(
  folder: string,
  target: Env,
  jsonName: string,
  options: RunOptions = {},
): Promise<{ summary: Summary | null; tree: TreeStats }> {
  const json = path.join(target.dataDir, jsonName);
  const child = spawn(
    'nice',
    [
      '-n',
      '5',
      TSX,
      'scripts/ingest.ts',
      folder,
      '--user',
      EMAIL,
      '--concurrency',
      String(CONCURRENCY),
      '--profile',
      '--json',
      json,
    ],
    { cwd: ROOT, env: target.env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    output += d.toString();
  });
  const tree: TreeStats = { peakRssMb: 0, cpuSeconds: 0 };
  let killed = false;
  const sample = () => {
    const now = sampleTree(child.pid ?? 0);
    if (!now) return;
    tree.peakRssMb = Math.max(tree.peakRssMb, now.peakRssMb);
    tree.cpuSeconds = Math.max(tree.cpuSeconds, now.cpuSeconds);
    options.onSample?.({ ...tree, rssMb: now.rssMb });
    if (!killed && options.killWhen?.()) {
      killed = true;
      // tsx runs the script in a node process of its own: the kill goes to the whole process tree.
      killTree(child.pid ?? 0);
    }
  };
  const timer = setInterval(sample, 2000);
  return new Promise((resolve, reject) => {
    child.on('exit', (code, signal) => {
      clearInterval(timer);
      if (signal || code === 137 || (killed && !existsSync(json))) return resolve({ summary: null, tree });
      if (code !== 0) return reject(new Error(`ingest exited with ${code}:\n${output.slice(-2000)}`));
      const profile = output.slice(output.indexOf('Processing took'));
      console.log(profile.trim().replace(/^/gm, '    '));
      const summary = summarySchema.parse(JSON.parse(readFileSync(json, 'utf8')));
      tree.peakRssMb = Math.max(tree.peakRssMb, summary.peakRssMb);
      resolve({ summary, tree });
    });
    child.on('error', reject);
  });
}

function descendants(pid: number): number[] {
  const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map(Number);
  return children.flatMap((c) => [c, ...descendants(c)]);
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** RSS now, peak RSS (VmHWM) of the largest process, and CPU seconds of the tree, from /proc; null once gone. */
function sampleTree(pid: number): (TreeStats & { rssMb: number }) | null {
  let rssMb = 0;
  let peakRssMb = 0;
  let cpuSeconds = 0;
  let seen = 0;
  for (const p of [pid, ...descendants(pid)]) {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
      rssMb = Math.max(rssMb, kb('VmRSS') / 1024);
      peakRssMb = Math.max(peakRssMb, kb('VmHWM') / 1024);
      // fields after the command name (which may hold spaces): utime and stime are the 12th and 13th
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      cpuSeconds += (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
      seen++;
    } catch {
      // exited between the listing and the read
    }
  }
  return seen ? { rssMb, peakRssMb, cpuSeconds } : null;
}

/** SIGKILL to a process and all its descendants (nice → tsx → node running the script, plus its workers). */
function killTree(pid: number): void {
  const children = spawnSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .map(Number);
  for (const child of children) killTree(child);
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

interface Rates {
  wall: number;
  idleCores: number;
}

function rates(s: Summary): Rates {
  const lanes = Math.min(s.concurrency, os.availableParallelism());
  return { wall: s.pages / s.wallSeconds, idleCores: (s.pages / s.cpuSeconds) * lanes };
}

function row(label: string, s: Summary): string {
  const r = rates(s);
  const stage = (k: string) => ((s.stagesMs[k] ?? 0) / 1000).toFixed(1);
  return (
    `| ${label} | ${s.files} | ${s.pages} | ${s.chunks} | ${s.wallSeconds.toFixed(1)} | ${r.wall.toFixed(0)} | ` +
    `${s.cpuSeconds.toFixed(1)} | ${r.idleCores.toFixed(0)} | ${stage('parse')} / ${stage('chunk')} / ${stage('sandbox')} / ` +
    `${stage('db')} / ${stage('index')} | ${s.peakRssMb.toFixed(0)} | ${s.commandWallSeconds?.toFixed(1) ?? '?'} / ` +
    `${s.commandCpuSeconds?.toFixed(1) ?? '?'} |`
  );
}

/** Counts in the database and in the search index after the bulk run: nothing lost, nothing twice. */
async function verify(target: Env, expectedPages: number, expectedFiles: number): Promise<string[]> {
  const db = new Database(path.join(target.dataDir, 'app.db'), { readonly: true });
  try {
    const owner = db.prepare('SELECT id FROM user WHERE email = ?').get(EMAIL) as { id: string };
    const docs = db
      .prepare(
        "SELECT COUNT(*) AS n, SUM(pageCount) AS pages, SUM(chunkCount) AS chunks FROM Document WHERE ownerId = ? AND status = 'INDEXED'",
      )
      .get(owner.id) as { n: number; pages: number; chunks: number };
    const other = db
      .prepare("SELECT COUNT(*) AS n FROM Document WHERE ownerId = ? AND status != 'INDEXED'")
      .get(owner.id) as { n: number };
    const chunkRows = db.prepare('SELECT COUNT(*) AS n FROM Chunk WHERE ownerId = ?').get(owner.id) as { n: number };
    const duplicateChunks = db
      .prepare(
        'SELECT COUNT(*) AS n FROM (SELECT documentId, "index" FROM Chunk WHERE ownerId = ? GROUP BY documentId, "index" HAVING COUNT(*) > 1)',
      )
      .get(owner.id) as { n: number };
    const pageRows = db.prepare('SELECT COUNT(*) AS n FROM DocumentPage WHERE ownerId = ?').get(owner.id) as {
      n: number;
    };
    const { createEmbeddedChunkIndex } = await import('@/lib/retrieval/embedded-chunk-index');
    const index = await createEmbeddedChunkIndex({ dir: path.join(target.dataDir, 'index', 'embedded') });
    const indexed = await index.countChunks(owner.id);
    await index.close();
    const problems: string[] = [];
    if (docs.n !== expectedFiles) problems.push(`indexed documents ${docs.n}, expected ${expectedFiles}`);
    if (other.n !== 0) problems.push(`${other.n} documents not INDEXED`);
    if (docs.pages !== expectedPages) problems.push(`pages ${docs.pages}, expected ${expectedPages}`);
    if (pageRows.n !== expectedPages) problems.push(`page rows ${pageRows.n}, expected ${expectedPages}`);
    if (chunkRows.n !== docs.chunks) problems.push(`chunk rows ${chunkRows.n}, documents say ${docs.chunks}`);
    if (duplicateChunks.n !== 0) problems.push(`${duplicateChunks.n} duplicated chunk positions`);
    if (indexed !== chunkRows.n) problems.push(`index holds ${indexed} chunks, database ${chunkRows.n}`);
    console.log(
      `    after resume: ${docs.n} documents, ${docs.pages} pages (${pageRows.n} page rows), ${chunkRows.n} chunk rows, ${indexed} chunks in the index, ${duplicateChunks.n} duplicates`,
    );
    return problems;
  } finally {
    db.close();
  }
}

async function main(): Promise<void> {
  const load = () =>
    os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  console.log(
    `node ${process.version}, ${os.availableParallelism()} cores, concurrency ${CONCURRENCY}, load ${load()}`,
  );
  if (WORK_DIR) mkdirSync(WORK_DIR, { recursive: true });
  const root = mkdtempSync(path.join(WORK_DIR || os.tmpdir(), 'docuchat-bench-cli-'));
  const rows: string[] = [];
  const figures: Parameters<typeof recordFigures>[0] = {};
  const command = 'npm run bench:ingest-cli';
  try {
    // 1. the corpus PDFs, OCR on (as shipped) and off (text layers only)
    const corpusDir = path.join(root, 'corpus-pdf');
    mkdirSync(corpusDir);
    const walk = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)],
      );
    const pdfs = walk(CORPUS).filter((f) => f.toLowerCase().endsWith('.pdf'));
    for (const f of pdfs) copyFileSync(f, path.join(corpusDir, path.basename(f)));
    for (const [set, ocr, suffix] of [
      ['corpus', true, ''],
      ['corpus-text', false, '_text_layer'],
    ] as const) {
      if (!SETS.has(set)) continue;
      console.log(`corpus: ${pdfs.length} PDFs, OCR ${ocr ? 'on' : 'off'}`);
      const target = freshEnv(root, set);
      if (!ocr) target.env.OCR_MAX_PAGES = '0';
      const { summary: corpus } = await ingest(corpusDir, target, 'run.json');
      if (!corpus) throw new Error('corpus run was interrupted');
      rows.push(row(`documents corpus, ${pdfs.length} PDFs (OCR ${ocr ? 'on' : 'off'})`, corpus));
      figures[`ingest.corpus_pdf${suffix}_pages_per_s`] = {
        value: round(rates(corpus).wall),
        unit: 'pages/s (wall)',
        command,
      };
      figures[`ingest.corpus_pdf${suffix}_pages_per_cpu_s_x2`] = {
        value: round(rates(corpus).idleCores),
        unit: 'pages/s on 2 idle cores (pages per CPU-second x 2)',
        command,
      };
    }

    // 2. generated text PDFs
    if (SETS.has('generated')) {
      const genDir = path.join(root, 'generated');
      mkdirSync(genDir);
      writeGeneratedPdfs(genDir, PAGES, 50);
      console.log(`generated: ${PAGES} pages`);
      const { summary: generated } = await ingest(genDir, freshEnv(root, 'generated'), 'run.json');
      if (!generated) throw new Error('generated run was interrupted');
      rows.push(row(`generated text PDFs, ${PAGES} pages`, generated));
      rmSync(genDir, { recursive: true, force: true });
      figures['ingest.generated_pdf_pages_per_s'] = {
        value: round(rates(generated).wall),
        unit: 'pages/s (wall)',
        command,
      };
      figures['ingest.generated_pdf_pages_per_cpu_s_x2'] = {
        value: round(rates(generated).idleCores),
        unit: 'pages/s on 2 idle cores (pages per CPU-second x 2)',
        command,
      };
    }

    // 3. bulk, killed part-way and resumed
    if (SETS.has('bulk') && BULK_PAGES > 0) {
      const bulk = await bulkRun(root);
      rows.push(row(`bulk ${BULK_PAGES} pages, resumed part (after SIGKILL)`, bulk.second));
      const key = BULK_PAGES === 100_000 ? 'ingest.bulk_100k' : 'ingest.bulk';
      figures[`${key}_pages_per_s`] = {
        value: round(BULK_PAGES / bulk.totalSeconds),
        unit: `pages/s (wall, ${BULK_PAGES} pages incl. SIGKILL + resume)`,
        command: BULK_PAGES === 20_000 ? command : `${command} -- --sets bulk --bulk-pages ${BULK_PAGES}`,
      };
      figures[`${key}_peak_rss_mb`] = {
        value: round(bulk.peakRssMb),
        unit: 'MB',
        command: BULK_PAGES === 20_000 ? command : `${command} -- --sets bulk --bulk-pages ${BULK_PAGES}`,
      };
      figures[`${key}_resume_problems`] = {
        value: bulk.problems.length,
        unit: 'count',
        command: BULK_PAGES === 20_000 ? command : `${command} -- --sets bulk --bulk-pages ${BULK_PAGES}`,
      };
      if (key === 'ingest.bulk_100k') {
        figures[`${key}_pages_per_cpu_s`] = {
          value: round(BULK_PAGES / bulk.cpuSeconds),
          unit: 'pages per CPU-second (both runs, whole CLI process tree)',
          command: `${command} -- --sets bulk --bulk-pages ${BULK_PAGES}`,
        };
      }
    }
  } finally {
    if (KEEP) console.log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
  console.log(`\nload average at the end: ${load()}`);
  console.log(
    '\n| set | files | pages | chunks | wall s | pages/s (wall) | CPU s | pages/s on 2 idle cores | parse / chunk / sandbox / db / index s (summed over jobs) | peak RSS MB | whole command: wall / CPU s |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const r of rows) console.log(r);
  if (RECORD) recordFigures(figures);
}

interface BulkResult {
  second: Summary;
  totalSeconds: number;
  cpuSeconds: number;
  peakRssMb: number;
  problems: string[];
}

/** Pages of INDEXED documents and documents per status, read from the run's database (read-only, WAL). */
function progressOf(target: Env): { pages: number; byStatus: Record<string, number> } {
  const db = new Database(path.join(target.dataDir, 'app.db'), { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    const rows = db
      .prepare('SELECT status, COUNT(*) AS n, COALESCE(SUM(pageCount), 0) AS pages FROM Document GROUP BY status')
      .all() as { status: string; n: number; pages: number }[];
    return {
      pages: rows.find((r) => r.status === 'INDEXED')?.pages ?? 0,
      byStatus: Object.fromEntries(rows.map((r) => [r.status, r.n])),
    };
  } finally {
    db.close();
  }
}

/**
 * The bulk set: generated PDFs through the CLI, SIGKILL once KILL_AT of the pages are INDEXED, the same command
 * again, then the database and the index checked. Prints a timeline every 30 s of both runs.
 */
async function bulkRun(root: string): Promise<BulkResult> {
  const bulkDir = path.join(root, 'bulk');
  mkdirSync(bulkDir);
  const files = writeGeneratedPdfs(bulkDir, BULK_PAGES, 50);
  const target = freshEnv(root, 'bulk');
  const killAtPages = Math.round(BULK_PAGES * KILL_AT);
  console.log(
    `bulk: ${BULK_PAGES} pages in ${files.length} PDFs; SIGKILL once ${killAtPages} pages are INDEXED, then resume`,
  );
  console.log(
    '    timeline: s since start | run | pages INDEXED | pages/s (last 30 s) | CPU s (run) | RSS MB | load 1 min',
  );
  const started = performance.now();
  let last = { at: started, pages: 0 };
  let cpuBefore = 0;
  let indexed = 0;
  const timeline = (run: string) => (now: TreeStats & { rssMb: number }) => {
    const at = performance.now();
    if (at - last.at < 30_000) return;
    indexed = progressOf(target).pages;
    const rate = ((indexed - last.pages) * 1000) / (at - last.at);
    console.log(
      `    ${((at - started) / 1000).toFixed(0).padStart(5)} | ${run} | ${String(indexed).padStart(6)} | ${rate.toFixed(1).padStart(6)} | ${now.cpuSeconds.toFixed(0).padStart(5)} | ${now.rssMb.toFixed(0).padStart(5)} | ${os.loadavg()[0]?.toFixed(1)}`,
    );
    last = { at, pages: indexed };
  };
  let atKill: ReturnType<typeof progressOf> | null = null;
  const first = await ingest(bulkDir, target, 'first.json', {
    onSample: timeline('first '),
    killWhen: () => {
      const now = progressOf(target);
      if (now.pages < killAtPages) return false;
      atKill = now;
      return true;
    },
  });
  if (first.summary) console.log('    (the first run finished before the kill)');
  const firstSeconds = (performance.now() - started) / 1000;
  console.log(
    `    SIGKILL after ${firstSeconds.toFixed(0)} s; documents then: ${JSON.stringify(atKill ? (atKill as { byStatus: Record<string, number> }).byStatus : null)}; CPU ${first.tree.cpuSeconds.toFixed(0)} s, peak RSS ${first.tree.peakRssMb.toFixed(0)} MB`,
  );
  cpuBefore = first.tree.cpuSeconds;
  const second = await ingest(bulkDir, target, 'second.json', { onSample: timeline('resume') });
  if (!second.summary) throw new Error('resumed bulk run was interrupted');
  const totalSeconds = (performance.now() - started) / 1000;
  const problems = await verify(target, BULK_PAGES, files.length);
  const cpuSeconds = cpuBefore + second.tree.cpuSeconds;
  const peakRssMb = Math.max(first.tree.peakRssMb, second.tree.peakRssMb);
  console.log(
    `    the resumed run processed ${second.summary.pages} pages in ${second.summary.wallSeconds.toFixed(0)} s; in total ${BULK_PAGES} pages in ${totalSeconds.toFixed(0)} s (${(BULK_PAGES / totalSeconds).toFixed(1)} pages/s wall), ${cpuSeconds.toFixed(0)} CPU s (${(BULK_PAGES / cpuSeconds).toFixed(1)} pages per CPU-second), peak RSS ${peakRssMb.toFixed(0)} MB; ${problems.length ? `PROBLEMS: ${problems.join('; ')}` : 'nothing lost or duplicated'}`,
  );
  return { second: second.summary, totalSeconds, cpuSeconds, peakRssMb, problems };
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}

await main();
