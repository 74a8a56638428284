// npm run ingest -- <folder> --user <email> [--bucket <name>] [--concurrency N] [--profile] [--json <file>]
// Bulk ingestion for large corpora: walks a folder tree, stores each file, skips content this user already has
// (sha256), and runs the same pipeline as the server with N parallel jobs. Interrupt it any time (Ctrl-C) and
// run it again to continue: finished files are skipped, unfinished ones resume.
// --profile prints where the processing time went (parse, chunk, database, index) and the slowest files;
// --json writes the run's numbers (pages, chunks, wall and CPU seconds, stage times, peak RSS) to a file.
// first: V8 flags for the parse workers' JIT, before any other module runs (see the module)
import '@/lib/ingest/jit-flags';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import cliProgress from 'cli-progress';
import { getConfig } from '@/lib/config';
import { ensureBucketNamed } from '@/lib/db/buckets';
import { countUnfinishedDocuments, findDocument, listDocumentOutcomes } from '@/lib/db/documents';
import { claimNextJob, heartbeatJob } from '@/lib/db/jobs';
import { disconnectDb, ensureDbReady } from '@/lib/db/lifecycle';
import { findUserIdByEmail } from '@/lib/db/users';
import { registerUpload } from '@/lib/ingest/intake';
import { HEARTBEAT_STALE_MS, recoverStaleJobs, runJob, type WorkerDeps } from '@/lib/ingest/jobs';
import { createIngestProfile, PROFILE_STAGES } from '@/lib/ingest/profile';
import { configureParseWorkerPool, countParseWorkersStarted, prestartParseWorkers } from '@/lib/ingest/sandbox';
import { saveUploadStream } from '@/lib/ingest/storage';
import { getChunkIndex, resolveDocumentEmbedder } from '@/lib/services';
import { migrateFirst } from './migrate-first';

const usage =
  'usage: npm run ingest -- <folder> --user <email> [--bucket <name>] [--concurrency N] [--profile] [--json <file>]';

function* walk(dir: string): Generator<string> {
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      user: { type: 'string' },
      bucket: { type: 'string' },
      concurrency: { type: 'string' },
      profile: { type: 'boolean' },
      json: { type: 'string' },
    },
  });
  const folder = positionals[0];
  if (!folder || !values.user) {
    console.error(usage);
    return 2;
  }
  if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) {
    console.error(`Not a folder: ${folder}`);
    return 2;
  }
  const concurrency = Math.max(1, Math.min(16, Number(values.concurrency ?? 2) || 2));
  migrateFirst();
  await ensureDbReady();
  const userId = await findUserIdByEmail(values.user.trim().toLowerCase());
  if (!userId) {
    console.error(`No user with the email ${values.user}. Create one with: npm run user -- create ${values.user}`);
    return 2;
  }
  let bucketId: string | null = null;
  if (values.bucket) {
    const name = values.bucket.trim();
    bucketId = await ensureBucketNamed({ ownerId: userId, name });
  }

  const config = getConfig();
  const files = [...walk(folder)];
  const stopping = { value: false };
  process.on('SIGINT', () => {
    if (stopping.value) process.exit(130);
    stopping.value = true;
    console.error(
      '\nStopping after the files in progress (Ctrl-C again to quit now). Run the same command to continue.',
    );
  });

  // The parse workers start (tsx, the parsers: 1-3 CPU-seconds each) while the files are stored.
  if (files.length > 0) {
    configureParseWorkerPool({ warmSpare: false, maxBusy: concurrency });
    prestartParseWorkers(concurrency, { maxMemoryMb: config.ingest.parseMaxMemoryMb });
  }

  // 1. store new files (duplicates of what this user already has are skipped by content hash)
  const bars = new cliProgress.MultiBar(
    {
      format: ' {phase} |{bar}| {value}/{total} files | {rate} | {detail}',
      hideCursor: true,
      clearOnComplete: false,
      noTTYOutput: true,
      notTTYSchedule: 5000,
    },
    cliProgress.Presets.shades_classic,
  );
  const storeBar = bars.create(files.length, 0, { phase: 'store  ', rate: '', detail: '' });
  let skipped = 0;
  let refused = 0;
  const refusals: { file: string; reason: string }[] = [];
  for (const file of files) {
    if (stopping.value) break;
    try {
      const stored = await saveUploadStream({
        body: fs.createReadStream(file),
        maxBytes: config.ingest.maxUploadBytes,
      });
      const result = await registerUpload({
        ownerId: userId,
        stored,
        filename: path.basename(file),
        declaredMime: null,
        bucketId,
      });
      if (result.duplicate) skipped++;
    } catch (error) {
      refused++;
      refusals.push({ file, reason: error instanceof Error ? error.message : String(error) });
    }
    storeBar.increment(1, { detail: `${skipped} already present, ${refused} refused` });
  }

  // 2. process every pending job of this user (new ones and those an interrupted run left)
  await recoverStaleJobs();
  // `concurrency` parse workers, no warm spare rotating among them, and twice as many jobs in flight: while one
  // job's database and index writes run on this thread, the next job already parses, so no worker waits for them.
  configureParseWorkerPool({ warmSpare: false, maxBusy: concurrency });
  const lanes = concurrency * 2;
  const index = await getChunkIndex();
  const profile = createIngestProfile();
  const perFile: { id: string; ms: number; pages: number; startMs: number }[] = [];
  const deps: WorkerDeps = {
    index,
    profile,
    concurrency,
    limits: {
      parseTimeoutMs: config.ingest.parseTimeoutMs,
      parseMaxMemoryMb: config.ingest.parseMaxMemoryMb,
      ocr: config.ingest.ocr,
      visualFlags: config.llm.vision !== null,
    },
    resolveEmbedder: resolveDocumentEmbedder,
  };
  const pending = await countUnfinishedDocuments({ ownerId: userId });
  const jobBar = bars.create(pending, 0, { phase: 'process', rate: '', detail: '' });
  const started = Date.now();
  const processingStarted = performance.now();
  const cpuStart = process.cpuUsage();
  // the process's CPU rate (cores busy, all threads) per 500 ms of processing, for --json: idle cores show here
  const coresBusy: number[] = [];
  let lastCpu = process.cpuUsage();
  const cpuSampler = setInterval(() => {
    const now = process.cpuUsage();
    coresBusy.push(Math.round((now.user + now.system - lastCpu.user - lastCpu.system) / 5e3) / 100);
    lastCpu = now;
  }, 500);
  cpuSampler.unref();
  let pages = 0;
  let chunks = 0;
  let done = 0;
  const workerId = `cli-${process.pid}`;
  const lane = async () => {
    while (!stopping.value) {
      // a bulk CLI run uses all its slots, still in fair owner order when other users' jobs wait too
      const id = await claimNextJob(workerId, { ownerCap: config.ingest.ownerConcurrency, overCapAllowed: true });
      if (!id) return;
      const jobStarted = performance.now();
      // the heartbeat keeps other workers (the server, another CLI) from taking a long job over
      const heartbeat = setInterval(() => void heartbeatJob(id).catch(() => {}), HEARTBEAT_STALE_MS / 4);
      try {
        await runJob(deps, id, () => stopping.value);
      } finally {
        clearInterval(heartbeat);
      }
      const row = await findDocument({ ownerId: userId, id });
      pages += row?.pageCount ?? 0;
      chunks += row?.chunkCount ?? 0;
      perFile.push({
        id: row?.filename ?? id,
        ms: performance.now() - jobStarted,
        pages: row?.pageCount ?? 0,
        startMs: jobStarted - processingStarted,
      });
      done++;
      const seconds = Math.max(0.001, (Date.now() - started) / 1000);
      jobBar.increment(1, {
        rate: `${(done / seconds).toFixed(1)} files/s, ${(pages / seconds).toFixed(1)} pages/s`,
        detail: '',
      });
    }
  };
  while (!stopping.value) {
    await Promise.all(Array.from({ length: lanes }, lane));
    // Jobs a killed run left PROCESSING (or another worker still runs) are not claimable yet: wait until they
    // finish or their heartbeat goes stale (HEARTBEAT_STALE_MS) and they are queued again, then take them.
    const unfinished = stopping.value ? 0 : await countUnfinishedDocuments({ ownerId: userId });
    if (unfinished === 0) break;
    jobBar.update({
      detail: `waiting for ${unfinished} file(s) an interrupted run left (up to ${HEARTBEAT_STALE_MS / 1000} s)`,
    });
    await new Promise((resolve) => setTimeout(resolve, 2000));
    await recoverStaleJobs();
  }
  bars.stop();
  clearInterval(cpuSampler);

  // 3. summary
  const docs = await listDocumentOutcomes({ ownerId: userId, bucketId });
  const indexed = docs.filter((d) => d.status === 'INDEXED');
  const failed = docs.filter((d) => d.status === 'FAILED');
  const unfinished = docs.filter((d) => d.status === 'PENDING' || d.status === 'PROCESSING');
  console.log(
    `\nIndexed: ${indexed.length} files, ${indexed.reduce((s, d) => s + (d.pageCount ?? 0), 0)} pages, ${indexed.reduce((s, d) => s + (d.chunkCount ?? 0), 0)} chunks`,
  );
  console.log(`Skipped as already present: ${skipped}`);
  if (failed.length + refusals.length > 0) {
    console.log(`Failed: ${failed.length + refusals.length}`);
    for (const f of failed) console.log(`  ${f.filename}: ${f.error ?? 'unknown reason'}`);
    for (const r of refusals) console.log(`  ${path.relative(folder, r.file)}: ${r.reason}`);
  }
  if (unfinished.length) console.log(`Not finished (run again to continue): ${unfinished.length}`);
  const seconds = (Date.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  console.log(`Processing took ${seconds.toFixed(1)} s (${(pages / Math.max(seconds, 0.001)).toFixed(1)} pages/s).`);
  if (values.profile) {
    const total = PROFILE_STAGES.reduce((sum, stage) => sum + profile[stage], 0) || 1;
    console.log(
      `CPU: ${cpuSeconds.toFixed(1)} s (main thread and parse workers), ${(pages / cpuSeconds).toFixed(1)} pages per CPU-second`,
    );
    console.log(`Parse workers started: ${countParseWorkersStarted()}`);
    console.log('Stage times, summed over jobs (parallel jobs overlap):');
    for (const stage of PROFILE_STAGES) {
      console.log(
        `  ${stage.padEnd(8)} ${(profile[stage] / 1000).toFixed(1).padStart(8)} s  ${((100 * profile[stage]) / total).toFixed(0).padStart(3)} %`,
      );
    }
    console.log('Slowest files:');
    for (const f of [...perFile].sort((a, b) => b.ms - a.ms).slice(0, 8)) {
      console.log(`  ${(f.ms / 1000).toFixed(1).padStart(6)} s  ${String(f.pages).padStart(5)} pages  ${f.id}`);
    }
  }
  if (values.json) {
    const summary = {
      files: done,
      pages,
      chunks,
      wallSeconds: seconds,
      cpuSeconds,
      concurrency,
      stagesMs: profile,
      parseWorkersStarted: countParseWorkersStarted(),
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      stopped: stopping.value,
      // the whole command, from this process's start: loading, migrations, storing the files, processing
      commandWallSeconds: performance.now() / 1000,
      commandCpuSeconds: ((total) => (total.user + total.system) / 1e6)(process.cpuUsage()),
      // when each file's job started and how long it took (ms from the start of processing), in finishing order
      timeline: perFile.map((f) => ({
        file: f.id,
        startMs: Math.round(f.startMs),
        ms: Math.round(f.ms),
        pages: f.pages,
      })),
      coresBusyPer500ms: coresBusy,
    };
    fs.writeFileSync(values.json, `${JSON.stringify(summary, null, 2)}\n`);
  }
  await index.close();
  return stopping.value ? 130 : 0;
}

main()
  .then(async (code) => {
    await disconnectDb();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    await disconnectDb();
    process.exit(1);
  });
