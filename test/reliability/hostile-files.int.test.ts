import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getConfig } from '@/lib/config';
import { getDb } from '@/lib/db/client';
import { shutdownParseWorkers } from '@/lib/ingest/sandbox';
import { storedFilePath } from '@/lib/ingest/storage';
import { createTestUser } from '@/test/factories';
import { percentile } from './api-client';
import { HOSTILE_FILES, HOSTILE_NAMES } from './hostile-files';
import { createHarness, type Harness, type IngestOutcome, ingest } from './ingest-harness';

/**
 * Issue 8, hostile uploads through the real pipeline (stream to disk → intake → parse sandbox → chunk → index):
 * every file ends INDEXED, FAILED with a reason, or is refused at upload with a reason, within a bounded time
 * and memory; meanwhile another user's searches and reads keep being answered (their latency is measured).
 */

const PARSE_TIMEOUT_MS = 60_000;
const PARSE_MAX_MEMORY_MB = 512;
/** Wall-clock bound per file: the parse limit plus intake, chunking and indexing. */
const BOUND_MS = PARSE_TIMEOUT_MS + 30_000;
/**
 * Resident memory growth allowed while one file is processed. The parse worker's heap is capped
 * (PARSE_MAX_MEMORY_MB), but the chunks, page texts and index batches it hands back live on the main thread:
 * a 50 MB single-line text measured 0.5-1.0 GB of growth (docs/reliability.md). The bound is 1.5 GB.
 */
const RSS_BOUND_MB = 1536;

let h: Harness;
let owner: { id: string };
let neighbour: { id: string };

beforeAll(async () => {
  h = await createHarness({ limits: { parseTimeoutMs: PARSE_TIMEOUT_MS, parseMaxMemoryMb: PARSE_MAX_MEMORY_MB } });
  owner = await createTestUser('hostile');
  neighbour = await createTestUser('neighbour');
  const out = await ingest(
    h,
    neighbour.id,
    'neighbour.md',
    Buffer.from('# Neighbour\n\nThe neighbour keeps bees and sells honey on Saturdays.\n'),
    'text/markdown',
  );
  expect(out).toMatchObject({ status: 'INDEXED' });
});

afterAll(async () => {
  await shutdownParseWorkers();
  await h.close();
});

interface Row {
  file: string;
  what: string;
  bytes: number;
  outcome: string;
  reason: string;
  seconds: number;
  rssGrowthMb: number;
  neighbourP50Ms: number;
  neighbourMaxMs: number;
  neighbourRequests: number;
  loopDelayMaxMs: number;
}

/** Runs `work` while another user searches and reads every 50 ms and memory is sampled every 20 ms. */
async function underLoad<T>(work: () => Promise<T>) {
  const latencies: number[] = [];
  let stop = false;
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const neighbourLoop = (async () => {
    while (!stop) {
      const t = performance.now();
      const hits = await h.index.search({ ownerId: neighbour.id, query: 'honey bees', mode: 'keyword', topK: 5 });
      await getDb().document.findMany({ where: { ownerId: neighbour.id }, take: 10 });
      latencies.push(performance.now() - t);
      expect(hits.length).toBeGreaterThan(0);
      await new Promise((r) => setTimeout(r, 50));
    }
  })();
  const started = performance.now();
  try {
    const value = await work();
    return {
      value,
      ms: performance.now() - started,
      rssGrowthMb: (peak - baseline) / 1024 / 1024,
      latencies,
      loopDelayMaxMs: loop.max / 1e6,
    };
  } finally {
    stop = true;
    clearInterval(sampler);
    loop.disable();
    await neighbourLoop;
  }
}

function describeOutcome(o: IngestOutcome): { outcome: string; reason: string } {
  if (o.stage === 'upload') return { outcome: `REFUSED (${o.status})`, reason: o.reason };
  return {
    outcome: o.status,
    reason: o.status === 'INDEXED' ? `${o.pageCount ?? '–'} pages, ${o.chunkCount} chunks` : (o.reason ?? ''),
  };
}

describe('hostile uploads end INDEXED or FAILED with a reason, bounded, without starving other users', () => {
  const rows: Row[] = [];

  afterAll(() => {
    const table = [
      '| file | what | size | outcome | reason | time (s) | RSS growth (MB) | neighbour p50 / max (ms), n |',
      '| --- | --- | ---: | --- | --- | ---: | ---: | --- |',
      ...rows.map(
        (r) =>
          `| ${r.file} | ${r.what} | ${(r.bytes / 1024 / 1024).toFixed(2)} MB | ${r.outcome} | ${r.reason.replace(/\|/g, '/').slice(0, 140)} | ${r.seconds.toFixed(1)} | ${r.rssGrowthMb.toFixed(0)} | ${r.neighbourP50Ms.toFixed(0)} / ${r.neighbourMaxMs.toFixed(0)}, ${r.neighbourRequests} |`,
      ),
    ].join('\n');
    console.log(`\n[hostile] results\n${table}\n`);
  });

  for (const file of HOSTILE_FILES) {
    it(
      `${file.name}: ${file.what}`,
      async () => {
        const data = file.build();
        const run = await underLoad(() => ingest(h, owner.id, file.name, data, file.mime));
        const o = run.value;
        const { outcome, reason } = describeOutcome(o);
        rows.push({
          file: file.name,
          what: file.what,
          bytes: data.length,
          outcome,
          reason,
          seconds: run.ms / 1000,
          rssGrowthMb: run.rssGrowthMb,
          neighbourP50Ms: percentile(run.latencies, 50),
          neighbourMaxMs: Math.max(0, ...run.latencies),
          neighbourRequests: run.latencies.length,
          loopDelayMaxMs: run.loopDelayMaxMs,
        });
        const final = o.stage === 'upload' ? 'REFUSED' : o.status;
        expect(file.expect, `${file.name} ended ${final}: ${reason}`).toContain(final);
        if (final !== 'INDEXED') expect(reason.length, 'a reason a person can read').toBeGreaterThan(10);
        expect(run.ms).toBeLessThan(BOUND_MS);
        expect(run.rssGrowthMb).toBeLessThan(RSS_BOUND_MB);
        // the other user was served throughout: at least one answer per second of processing, none slow
        expect(run.latencies.length).toBeGreaterThanOrEqual(Math.floor(run.ms / 1000));
        expect(percentile(run.latencies, 50)).toBeLessThan(250);
        expect(Math.max(0, ...run.latencies)).toBeLessThan(2000);
        if (o.stage === 'job') {
          // a failed job leaves no chunks and no searchable text; an indexed one has no duplicate chunks
          const chunks = await getDb().chunk.findMany({ where: { documentId: o.documentId }, select: { index: true } });
          if (final === 'FAILED') expect(chunks).toEqual([]);
          expect(new Set(chunks.map((c) => c.index)).size).toBe(chunks.length);
          if (final === 'FAILED')
            expect(
              await h.index.search({
                ownerId: owner.id,
                query: 'page text',
                mode: 'keyword',
                topK: 50,
                filters: { documentIds: [o.documentId] },
              }),
            ).toEqual([]);
        }
      },
      BOUND_MS + 60_000,
    );
  }

  it('hostile file names are stored as display text only, cleaned, and never reach the file system', async () => {
    const seen: string[] = [];
    for (const { name, what } of HOSTILE_NAMES) {
      const o = await ingest(
        h,
        owner.id,
        name,
        Buffer.from(`Notes for the ${what} case ${Math.random()}.\n`),
        'text/plain',
      );
      expect(o.stage, what).toBe('job');
      if (o.stage !== 'job') continue;
      expect(o.status, what).toBe('INDEXED');
      const row = await getDb().document.findUniqueOrThrow({ where: { id: o.documentId } });
      seen.push(`${what}: ${JSON.stringify(row.filename.slice(0, 60))}`);
      expect(row.filename, what).not.toMatch(/[/\\\u0000-\u001f\u007f\u202a-\u202e\u2066-\u2069]/);
      expect(row.filename.length, what).toBeLessThanOrEqual(255);
      expect(row.filename.length, what).toBeGreaterThan(0);
      expect(row.storedName).toMatch(/^[0-9a-f]{32}$/);
      expect(storedFilePath(row.storedName).startsWith(`${getConfig().uploadsDir}${path.sep}`)).toBe(true);
    }
    console.log(`[hostile] names stored as:\n  ${seen.join('\n  ')}`);
  });
});
