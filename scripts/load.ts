/**
 * `npm run load`: the production build under load on loopback, with the deterministic fake model server
 * (test/support/llm/fake-ollama.ts, started and stopped here). By default 50 concurrent agent streams
 * (POST /api/agent/stream, NDJSON) and 10 concurrent uploaders for 2 minutes, then every upload is waited for
 * until it is INDEXED or FAILED. Prints requests completed, errors, p50/p95/p99 time to first event and to
 * completion, upload latency, the server's resident memory, and the final state of every upload.
 *
 *   npm run load
 *   npm run load -- --streams 50 --uploaders 10 --duration 120 --token-delay 20 --max-requests 20000
 *   NEXT_DIST_DIR=.next-lead npm run load        # another build folder (default .next-rel, built when missing)
 *
 * Bounded: stops starting requests after --duration seconds or --max-requests requests, whichever comes first;
 * in-flight requests get 120 s, uploads 10 min to finish. Its own data folder in the system temp dir, removed
 * at the end; its own ports on 127.0.0.1.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { percentile } from '@/test/reliability/api-client';
import { ensureBuild, migrateData, type ServerOptions, signUp, startServer } from '@/test/reliability/server-process';
import { buildTextPdf } from '@/test/support/ingest/minimal-pdf';
import { startFakeOllama } from '@/test/support/llm/fake-ollama';

const { values: args } = parseArgs({
  options: {
    streams: { type: 'string', default: '50' },
    uploaders: { type: 'string', default: '10' },
    duration: { type: 'string', default: '120' },
    'token-delay': { type: 'string', default: '20' },
    'max-requests': { type: 'string', default: '20000' },
    port: { type: 'string', default: '3297' },
    json: { type: 'string' },
  },
});
const STREAMS = Number(args.streams);
const UPLOADERS = Number(args.uploaders);
const DURATION_S = Number(args.duration);
const MAX_REQUESTS = Number(args['max-requests']);
const distDir = process.env.NEXT_DIST_DIR || '.next-rel';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const TOPICS = [
  'turbine inspection',
  'pump maintenance',
  'valve testing',
  'boiler pressure',
  'fan bearings',
  'crane certification',
  'forklift batteries',
  'chiller refrigerant',
  'generator fuel',
  'compressor oil',
];

function docFor(i: number): string {
  const t = TOPICS[i % TOPICS.length] ?? 'equipment';
  return `# ${t} handbook ${i}\n\nThe ${t} interval for site ${i} is ${100 + i} operating hours. Record each ${t} in the maintenance log.\n\n## Safety\n\nLock out the ${t} equipment before any work and wear protective gloves.\n`;
}

interface StreamSample {
  firstEventMs: number;
  totalMs: number;
  ok: boolean;
  detail: string;
}

async function main(): Promise<void> {
  ensureBuild(distDir);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-load-'));
  const fake = await startFakeOllama({ tokenDelayMs: Number(args['token-delay']) });
  const options: ServerOptions = {
    port: Number(args.port),
    dataDir,
    distDir,
    env: {
      OLLAMA_BASE_URL: fake.url,
      RATE_LIMIT_AGENT_RUNS_PER_MINUTE: '1000000',
      RATE_LIMIT_UPLOADS_PER_MINUTE: '1000000',
      RATE_LIMIT_SIGN_UP_PER_MINUTE: '1000000',
      INGEST_CONCURRENCY: '2',
    },
    log: (line) => {
      if (/\berror\b/i.test(line)) process.stdout.write(`  [server] ${line.trim().slice(0, 240)}\n`);
    },
  };
  migrateData(options);
  const server = await startServer(options);
  const rss: number[] = [];
  const sampler = setInterval(() => rss.push(server.rssMb()), 1000);
  try {
    const rssIdle = server.rssMb();
    console.log(
      `[load] server ${server.url} (build ${distDir}), fake model ${fake.url}; RSS idle ${rssIdle.toFixed(0)} MB`,
    );
    // users: one per stream (each with one indexed document) and one per uploader
    const users = await Promise.all(
      Array.from({ length: STREAMS + UPLOADERS }, (_, i) =>
        signUp(
          server.url,
          `load-${i}-${randomBytes(3).toString('hex')}@example.test`,
          `10.9.${Math.floor(i / 250)}.${(i % 250) + 1}`,
        ),
      ),
    );
    const streamUsers = users.slice(0, STREAMS);
    const uploadUsers = users.slice(STREAMS);
    const call = (cookie: string, pathname: string, init: RequestInit = {}) =>
      fetch(`${server.url}${pathname}`, {
        ...init,
        headers: { cookie, ...(init.headers ?? {}) },
        signal: init.signal ?? AbortSignal.timeout(300_000),
      });
    const seeded = await Promise.all(
      streamUsers.map(async (u, i) => {
        const r = await call(u.cookie, '/api/documents/upload', {
          method: 'POST',
          body: docFor(i),
          headers: { 'x-file-name': `handbook-${i}.md`, 'content-type': 'text/markdown' },
        });
        return ((await r.json()) as { document: { id: string } }).document.id;
      }),
    );
    const seedStart = Date.now();
    for (;;) {
      const states = await Promise.all(
        streamUsers.map(
          async (u, i) =>
            ((await (await call(u.cookie, `/api/documents/${seeded[i]}`)).json()) as { document: { status: string } })
              .document.status,
        ),
      );
      if (states.every((s) => s === 'INDEXED')) break;
      if (Date.now() - seedStart > 300_000) throw new Error(`seed documents not indexed: ${states.join(',')}`);
      await sleep(500);
    }
    console.log(
      `[load] ${users.length} users, ${STREAMS} seed documents indexed in ${((Date.now() - seedStart) / 1000).toFixed(1)} s; running ${STREAMS} streams + ${UPLOADERS} uploaders for ${DURATION_S} s`,
    );

    const samples: StreamSample[] = [];
    const uploadMs: number[] = [];
    const uploadErrors: string[] = [];
    const uploaded: { user: string; id: string }[] = [];
    let started = 0;
    const t0 = Date.now();
    const running = () => Date.now() - t0 < DURATION_S * 1000 && started < MAX_REQUESTS;

    const streamLoop = async (u: { cookie: string }, i: number) => {
      let n = 0;
      while (running()) {
        started++;
        const topic = TOPICS[i % TOPICS.length] ?? 'equipment';
        const q = `What is the ${topic} interval for site ${i}? (${n++})`;
        const begin = performance.now();
        let first = -1;
        let ok = false;
        let detail = '';
        try {
          const r = await call(u.cookie, '/api/agent/stream', {
            method: 'POST',
            body: JSON.stringify({ question: q }),
            headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
          });
          if (r.status !== 200 || !r.body) detail = `HTTP ${r.status}`;
          else {
            const reader = r.body.getReader();
            let text = '';
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              if (first < 0) first = performance.now() - begin;
              text += Buffer.from(value).toString('utf8');
            }
            const lines = text
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l) as { event: string; data: { status?: string; message?: string } });
            const last = lines[lines.length - 1];
            ok = last?.event === 'complete' && last.data.status === 'complete';
            detail = ok ? '' : `${last?.event}: ${last?.data.status ?? last?.data.message ?? ''}`;
          }
        } catch (error) {
          detail = error instanceof Error ? error.message : String(error);
        }
        samples.push({ firstEventMs: first, totalMs: performance.now() - begin, ok, detail });
      }
    };

    const uploadLoop = async (u: { cookie: string; id: string }, i: number) => {
      let n = 0;
      while (running()) {
        started++;
        const kind = n % 3;
        const tag = `${i}-${n++}-${randomBytes(4).toString('hex')}`;
        const body =
          kind === 0
            ? Buffer.from(
                buildTextPdf(
                  Array.from({ length: 20 }, (_, p) => [`Report ${tag} page ${p + 1}.`, `Throughput ${p * 13} units.`]),
                ),
              )
            : kind === 1
              ? Buffer.from(`# Notes ${tag}\n\n${'The inspection of the north wing found no defects. '.repeat(400)}\n`)
              : Buffer.from(
                  `id,item,count\n${Array.from({ length: 500 }, (_, r) => `${r},item-${tag}-${r},${r * 3}`).join('\n')}\n`,
                );
        const name = kind === 0 ? `report-${tag}.pdf` : kind === 1 ? `notes-${tag}.md` : `stock-${tag}.csv`;
        const type = kind === 0 ? 'application/pdf' : kind === 1 ? 'text/markdown' : 'text/csv';
        const begin = performance.now();
        try {
          const r = await call(u.cookie, '/api/documents/upload', {
            method: 'POST',
            body,
            headers: { 'x-file-name': name, 'content-type': type },
          });
          uploadMs.push(performance.now() - begin);
          if (r.status !== 201) uploadErrors.push(`HTTP ${r.status}: ${(await r.text()).slice(0, 120)}`);
          else uploaded.push({ user: u.cookie, id: ((await r.json()) as { document: { id: string } }).document.id });
        } catch (error) {
          uploadErrors.push(error instanceof Error ? error.message : String(error));
        }
      }
    };

    const progress = setInterval(() => {
      const done = samples.length;
      console.log(
        `[load] t=${((Date.now() - t0) / 1000).toFixed(0)} s: ${done} runs done (${samples.filter((s) => !s.ok).length} errors), ${uploaded.length} uploads, RSS ${server.rssMb().toFixed(0)} MB`,
      );
    }, 15_000);
    await Promise.race([
      Promise.all([...streamUsers.map((u, i) => streamLoop(u, i)), ...uploadUsers.map((u, i) => uploadLoop(u, i))]),
      sleep(DURATION_S * 1000 + 120_000),
    ]);
    clearInterval(progress);
    const loadSeconds = (Date.now() - t0) / 1000;

    // every upload must reach a final state
    const finalStart = Date.now();
    const finals = new Map<string, { status: string; error: string | null }>();
    while (finals.size < uploaded.length && Date.now() - finalStart < 600_000) {
      for (const u of uploaded) {
        if (finals.has(u.id)) continue;
        const d = (await (await call(u.user, `/api/documents/${u.id}`)).json()) as {
          document: { status: string; error: string | null };
        };
        if (d.document.status === 'INDEXED' || d.document.status === 'FAILED') finals.set(u.id, d.document);
      }
      if (finals.size < uploaded.length) await sleep(1000);
    }
    const drainSeconds = (Date.now() - finalStart) / 1000;
    const byStatus = new Map<string, number>();
    for (const f of finals.values()) byStatus.set(f.status, (byStatus.get(f.status) ?? 0) + 1);
    const failedReasons = [
      ...new Set([...finals.values()].filter((f) => f.status === 'FAILED').map((f) => f.error ?? '')),
    ];

    const ok = samples.filter((s) => s.ok);
    const errors = samples.filter((s) => !s.ok);
    const first = ok.map((s) => s.firstEventMs);
    const total = ok.map((s) => s.totalMs);
    const ms = (v: number) => `${v.toFixed(0)} ms`;
    const report = {
      config: {
        streams: STREAMS,
        uploaders: UPLOADERS,
        durationS: DURATION_S,
        tokenDelayMs: Number(args['token-delay']),
        cpus: os.cpus().length,
        build: distDir,
      },
      agentRuns: {
        completed: ok.length,
        errors: errors.length,
        perSecond: ok.length / loadSeconds,
        errorSamples: [...new Set(errors.map((e) => e.detail))].slice(0, 5),
      },
      timeToFirstEventMs: {
        p50: percentile(first, 50),
        p95: percentile(first, 95),
        p99: percentile(first, 99),
        max: Math.max(0, ...first),
      },
      timeToCompletionMs: {
        p50: percentile(total, 50),
        p95: percentile(total, 95),
        p99: percentile(total, 99),
        max: Math.max(0, ...total),
      },
      uploads: {
        accepted: uploaded.length,
        errors: uploadErrors.length,
        errorSamples: uploadErrors.slice(0, 5),
        latencyMs: { p50: percentile(uploadMs, 50), p95: percentile(uploadMs, 95), p99: percentile(uploadMs, 99) },
        final: Object.fromEntries(byStatus),
        notFinal: uploaded.length - finals.size,
        failedReasons,
        drainSeconds,
      },
      serverRssMb: { idle: rssIdle, max: Math.max(0, ...rss), end: server.rssMb() },
      modelCalls: fake.counts,
      loadSeconds,
    };
    console.log('\n[load] results');
    console.log(
      `  agent streams: ${ok.length} completed, ${errors.length} errors (${(ok.length / loadSeconds).toFixed(1)}/s)${errors.length ? ` e.g. ${report.agentRuns.errorSamples.join(' | ')}` : ''}`,
    );
    console.log(
      `  time to first event: p50 ${ms(report.timeToFirstEventMs.p50)}, p95 ${ms(report.timeToFirstEventMs.p95)}, p99 ${ms(report.timeToFirstEventMs.p99)}, max ${ms(report.timeToFirstEventMs.max)}`,
    );
    console.log(
      `  time to completion:  p50 ${ms(report.timeToCompletionMs.p50)}, p95 ${ms(report.timeToCompletionMs.p95)}, p99 ${ms(report.timeToCompletionMs.p99)}, max ${ms(report.timeToCompletionMs.max)}`,
    );
    console.log(
      `  uploads: ${uploaded.length} accepted, ${uploadErrors.length} errors; latency p50 ${ms(report.uploads.latencyMs.p50)}, p95 ${ms(report.uploads.latencyMs.p95)}, p99 ${ms(report.uploads.latencyMs.p99)}`,
    );
    console.log(
      `  uploads final: ${JSON.stringify(report.uploads.final)}, not final: ${report.uploads.notFinal} (drained in ${drainSeconds.toFixed(0)} s)${failedReasons.length ? `; failures: ${failedReasons.join(' | ')}` : ''}`,
    );
    console.log(
      `  server RSS: idle ${rssIdle.toFixed(0)} MB, max ${report.serverRssMb.max.toFixed(0)} MB, end ${report.serverRssMb.end.toFixed(0)} MB`,
    );
    console.log(`  model calls: ${JSON.stringify(fake.counts)}`);
    if (args.json) fs.writeFileSync(args.json, `${JSON.stringify(report, null, 2)}\n`);
    process.exitCode = errors.length + uploadErrors.length + report.uploads.notFinal > 0 ? 1 : 0;
  } finally {
    clearInterval(sampler);
    await server.kill('SIGTERM');
    await fake.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
