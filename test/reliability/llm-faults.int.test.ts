import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '@/lib/agent/events';
import { runAgent } from '@/lib/agent/run-agent';
import type { AgentDeps } from '@/lib/agent/types';
import { runAnswer } from '@/lib/chat/answer-run';
import { createPrismaCatalog } from '@/lib/db/catalog';
import { getDb } from '@/lib/db/client';
import { shutdownParseWorkers } from '@/lib/ingest/sandbox';
import { createModelRegistry } from '@/lib/llm/registry';
import { createTestUser } from '@/test/factories';
import { type FakeFault, type FakeOllama, startFakeOllama } from '@/test/support/llm/fake-ollama';
import { createHarness, type Harness, ingest } from './ingest-harness';

/**
 * Issue 8, model faults: the language model is unreachable, slower than its timeout, drops the connection in the
 * middle of a stream, or answers garbage. Each run ends (no hang) with either a clear error event or a fallback
 * (the default plan, the extractive policy, the best grounded answer), its partial trace is saved in the Answer
 * row, and the row never stays `running`. Real HTTP through ollama-ai-provider-v2 to a fake Ollama server.
 */

const TIMEOUT_MS = 1500;
const WALL_MS = 20_000;

let h: Harness;
let fake: FakeOllama;
let user: { id: string };

beforeAll(async () => {
  h = await createHarness();
  fake = await startFakeOllama({ searchQuery: 'pump maintenance interval' });
  user = await createTestUser('llm-faults');
  const out = await ingest(
    h,
    user.id,
    'pumps.md',
    Buffer.from(
      '# Pump maintenance\n\nThe pump maintenance interval is 500 operating hours. Replace the seals every second interval.\n',
    ),
    'text/markdown',
  );
  expect(out).toMatchObject({ status: 'INDEXED' });
});

afterAll(async () => {
  await fake.close();
  await shutdownParseWorkers();
  await h.close();
});

function deps(baseURL: string): AgentDeps {
  const registry = createModelRegistry({
    provider: 'ollama',
    baseURL,
    decisionModel: 'qwen3:8b',
    synthesisModel: 'qwen3:8b',
    embeddingModel: 'nomic-embed-text',
    numCtx: 4096,
    timeouts: { planMs: TIMEOUT_MS, decisionMs: TIMEOUT_MS, synthesisMs: TIMEOUT_MS * 2, embedMs: TIMEOUT_MS },
  });
  return {
    index: h.index,
    catalog: createPrismaCatalog(getDb()),
    embedder: null,
    models: {
      decision: registry.decision,
      synthesis: registry.synthesis,
      names: { decision: 'qwen3:8b', synthesis: 'qwen3:8b', embedding: null },
    },
    limits: { planMs: TIMEOUT_MS, decisionMs: TIMEOUT_MS, synthesisMs: TIMEOUT_MS * 2, wallClockMs: WALL_MS },
  };
}

const outcomes: string[] = [];

async function ask(baseURL: string, label: string) {
  const events: AgentEvent[] = [];
  const started = performance.now();
  const { session, result } = await runAnswer(
    {
      ownerId: user.id,
      question: 'What is the pump maintenance interval?',
      options: { mode: 'agent', style: 'concise' },
      persistConversation: true,
    },
    { agentDeps: deps(baseURL), runAgent },
    { onEvent: (e) => events.push(e) },
  );
  const ms = performance.now() - started;
  const row = await getDb().answer.findUniqueOrThrow({ where: { id: session.answerId } });
  const trace = Array.isArray(row.trace) ? row.trace : [];
  const fallbacks = events.filter((e) => e.type === 'fallback').map((e) => (e.type === 'fallback' ? `${e.stage}` : ''));
  const errors = events.filter((e) => e.type === 'error');
  outcomes.push(
    `| ${label} | ${result.status} | ${(ms / 1000).toFixed(1)} | ${fallbacks.join(', ') || '–'} | ${errors.length} | ${result.citations.length} | ${row.status} | ${trace.length} | ${JSON.stringify(result.answer.slice(0, 70))} |`,
  );
  return { result, events, ms, row, trace, fallbacks, errors };
}

describe('language model faults: clear error or fallback, partial trace saved, nothing hangs', () => {
  afterAll(() => {
    console.log(
      `\n[llm-faults]\n| fault | run status | time (s) | fallbacks (stage) | error events | citations | Answer row | trace events saved | answer |\n| --- | --- | ---: | --- | ---: | ---: | --- | ---: | --- |\n${outcomes.join('\n')}\n`,
    );
  });

  it('control: a healthy model answers with a validated, cited answer', async () => {
    fake.setFault('none');
    const r = await ask(fake.url, 'none (control)');
    expect(r.result.status).toBe('complete');
    expect(r.result.citations.length).toBeGreaterThan(0);
    expect(r.result.answer).toContain('500 operating hours');
    expect(r.row.status).toBe('complete');
  });

  const cases: { fault: FakeFault | 'unreachable'; label: string; scope?: 'chat' | 'stream' | 'json' }[] = [
    { fault: 'unreachable', label: 'unreachable (connection refused)' },
    { fault: 'reset', label: 'connection reset on every call' },
    { fault: 'slow', label: 'slower than the timeout (every call)' },
    { fault: 'slow', label: 'synthesis slower than the timeout', scope: 'stream' },
    { fault: 'mid-stream', label: 'drops the connection mid-stream', scope: 'stream' },
    { fault: 'garbage-json', label: 'garbage instead of JSON actions', scope: 'json' },
    { fault: 'garbage-body', label: 'garbage HTTP bodies' },
    { fault: 'http-500', label: 'HTTP 500 on every call' },
  ];

  for (const c of cases) {
    it(
      `${c.label}: the run ends in time with a fallback or an error event, and its trace is saved`,
      async () => {
        let baseURL = fake.url;
        if (c.fault === 'unreachable') {
          baseURL = 'http://127.0.0.1:9';
          fake.setFault('none');
        } else fake.setFault(c.fault, { slowMs: 60_000, scope: c.scope ?? 'chat' });
        const r = await ask(baseURL, c.label);
        fake.setFault('none');
        // nothing hangs: bounded by the per-call timeouts and the wall clock
        expect(r.ms).toBeLessThan(WALL_MS + 5000);
        expect(['complete', 'error']).toContain(r.result.status);
        // the user is told: a fallback (plan / decision / synthesis) or an error event, and never a silent empty answer
        expect(r.fallbacks.length + r.errors.length, 'a fallback or an error event').toBeGreaterThan(0);
        expect(r.result.answer.trim().length).toBeGreaterThan(0);
        // the persisted row is final and keeps the trace
        expect(r.row.status).not.toBe('running');
        expect(r.row.status).toBe(r.result.status);
        expect(r.trace.length).toBeGreaterThan(0);
        // a fallback still answers from the documents (extractive policy): cited, or an honest "not found"
        if (r.result.status === 'complete')
          expect(r.result.citations.length + r.result.insufficiencies.length).toBeGreaterThan(0);
      },
      WALL_MS + 30_000,
    );
  }

  it('a healthy run whose per-call timeouts are cut by the wall clock completes (fractional ms left must not crash it)', async () => {
    // Regression: the remaining wall-clock time is fractional (performance.now); AbortSignal.timeout threw a
    // RangeError for it, so every run longer than wallClockMs - synthesisMs (120 s by default) ended in "error".
    fake.setFault('none');
    const { result } = await runAnswer(
      {
        ownerId: user.id,
        question: 'What is the pump maintenance interval?',
        options: { mode: 'agent', style: 'concise' },
        persistConversation: false,
      },
      {
        agentDeps: {
          ...deps(fake.url),
          limits: { planMs: 10_000, decisionMs: 10_000, synthesisMs: 60_000, wallClockMs: 60_000 },
        },
        runAgent,
      },
    );
    expect(result.trace.filter((e) => e.type === 'error')).toEqual([]);
    expect(result.status).toBe('complete');
    expect(result.answer).toContain('500 operating hours');
  });

  it('while the answer is being written, the saved trace holds the events so far (what a SIGKILL leaves)', async () => {
    // lib/chat/answer-run.ts throttles trace writes to one per second, with a trailing write for the last events.
    fake.setFault('slow', { slowMs: 60_000, scope: 'stream' });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    let answerId = '';
    let reachedSynthesis: () => void = () => {};
    const synthesis = new Promise<void>((resolve) => {
      reachedSynthesis = resolve;
    });
    const run = runAnswer(
      {
        ownerId: user.id,
        question: 'What is the pump maintenance interval?',
        options: { mode: 'agent', style: 'concise' },
        persistConversation: false,
        signal: controller.signal,
      },
      {
        agentDeps: {
          ...deps(fake.url),
          limits: { planMs: 10_000, decisionMs: 10_000, synthesisMs: 60_000, wallClockMs: 60_000 },
        },
        runAgent,
      },
      {
        onSession: (s) => {
          answerId = s.answerId;
        },
        onEvent: (e) => {
          events.push(e);
          if (e.type === 'tool_result' && e.tool === 'open_citation') reachedSynthesis();
        },
      },
    );
    try {
      await synthesis;
      await new Promise((r) => setTimeout(r, 2500)); // the model is "writing"; a kill now keeps what the row holds
      const row = await getDb().answer.findUniqueOrThrow({ where: { id: answerId } });
      const saved = Array.isArray(row.trace) ? row.trace.length : 0;
      const seen = events.filter((e) => e.type !== 'token').length;
      console.log(`[llm-faults] mid-answer: ${seen} trace events emitted, ${saved} saved in the running row`);
      expect(saved).toBeGreaterThanOrEqual(seen);
    } finally {
      controller.abort();
      await run;
      fake.setFault('none');
    }
  }, 30_000);

  it('a run aborted by its caller (client went away) is saved as stopped with its partial trace', async () => {
    fake.setFault('slow', { slowMs: 60_000, scope: 'stream' });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    const started = performance.now();
    const run = runAnswer(
      {
        ownerId: user.id,
        question: 'What is the pump maintenance interval?',
        options: { mode: 'agent', style: 'concise' },
        persistConversation: false,
        signal: controller.signal,
      },
      {
        agentDeps: {
          ...deps(fake.url),
          limits: { planMs: 10_000, decisionMs: 10_000, synthesisMs: 60_000, wallClockMs: 60_000 },
        },
        runAgent,
      },
      {
        onEvent: (e) => {
          events.push(e);
          if (e.type === 'tool_result') setTimeout(() => controller.abort(), 300);
        },
      },
    );
    const { session, result } = await run;
    fake.setFault('none');
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(result.status).toBe('stopped');
    const row = await getDb().answer.findUniqueOrThrow({ where: { id: session.answerId } });
    expect(row.status).toBe('stopped');
    expect(Array.isArray(row.trace) && row.trace.length).toBeGreaterThan(0);
    outcomes.push(
      `| client aborted mid-run | ${result.status} | ${((performance.now() - started) / 1000).toFixed(1)} | – | ${events.filter((e) => e.type === 'error').length} | ${result.citations.length} | ${row.status} | ${Array.isArray(row.trace) ? row.trace.length : 0} | ${JSON.stringify(result.answer.slice(0, 70))} |`,
    );
  }, 30_000);
});
