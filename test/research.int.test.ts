import { beforeAll, describe, expect, it } from 'vitest';
import * as agentRunRoute from '@/app/api/agent/run/route';
import * as answersRoute from '@/app/api/research/[id]/answers/route';
import * as approveRoute from '@/app/api/research/[id]/approve/route';
import * as cancelRoute from '@/app/api/research/[id]/cancel/route';
import * as planRoute from '@/app/api/research/[id]/plan/route';
import * as runRoute from '@/app/api/research/[id]/route';
import * as startRoute from '@/app/api/research/route';
import { runAgent } from '@/lib/agent/run-agent';
import type { AgentDeps } from '@/lib/agent/types';
import { createApiKey } from '@/lib/auth/api-keys';
import type { RunAgentFn } from '@/lib/chat/answer-run';
import { getDb } from '@/lib/db/client';
import { ensureDbReady } from '@/lib/db/lifecycle';
import { findResearchRun, updateResearchRun } from '@/lib/db/research-runs';
import { createShare, findPublicSnapshot } from '@/lib/db/shares';
import { type ResearchEvent, researchEventSchema } from '@/lib/research/events';
import type { ResearchRunView } from '@/lib/research/schema';
import { createResearchService, type ResearchService } from '@/lib/research/service';
import { createTestUser } from '@/test/factories';
import { makeChunk, makeDocument, NO_MODELS, TEXT } from '@/test/support/agent/fixtures';
import { createMemoryCatalog } from '@/test/support/agent/memory-catalog';
import { createMemoryChunkIndex } from '@/test/support/agent/memory-chunk-index';
import { scriptedModel } from '@/test/support/agent/mock-models';

/**
 * Research mode through the real route handlers and database (agent over an in-memory corpus, no model):
 * clarify → plan edit → approve (streamed) → report saved as an answer; another user's probes answer exactly like
 * a missing id; a new service instance (a restarted server) reads a waiting run unchanged and resumes an
 * interrupted one with its finished tasks kept; cancel stops a run mid-task.
 */

const ORIGIN = 'http://localhost:3000';
let a = { id: '', key: '' };
let b = { id: '', key: '' };
let deps: AgentDeps;

function req(path: string, init: { method?: string; key: string; body?: unknown; accept?: string }) {
  return new Request(`${ORIGIN}${path}`, {
    method: init.method ?? 'GET',
    headers: {
      host: 'localhost:3000',
      authorization: `Bearer ${init.key}`,
      ...(init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(init.accept ? { accept: init.accept } : {}),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
  });
}
const ctx = (id: string) => ({ params: Promise.resolve({ id }) });
const none = { params: Promise.resolve({}) };

async function corpusFor(ownerId: string, otherOwner: string): Promise<AgentDeps> {
  const doc = (filename: string, over = {}) => makeDocument({ filename, ownerId, ...over });
  const ops = doc('operations.md', { title: 'Operations runbook', bucketId: 'b1', bucketName: 'manuals' });
  const guide = doc('deployment-guide.md', { title: 'Deployment Guide', bucketId: 'b2', bucketName: 'api' });
  const release = doc('release-checklist.md');
  const rate = doc('rate-limits.md');
  const secret = makeDocument({ filename: 'bob.md', ownerId: otherOwner });
  const index = createMemoryChunkIndex();
  await index.upsert([
    makeChunk(ops, 0, TEXT.reindex),
    makeChunk(guide, 0, TEXT.deployGuide),
    makeChunk(release, 0, TEXT.deployRef),
    makeChunk(rate, 0, TEXT.rateLimits),
    makeChunk(secret, 0, TEXT.secret),
  ]);
  const catalog = createMemoryCatalog(
    [ops, guide, release, rate, secret],
    [
      { id: 'b1', name: 'manuals', ownerId },
      { id: 'b2', name: 'api', ownerId },
    ],
  );
  return { index, catalog, embedder: null, models: NO_MODELS };
}

function service(over: Partial<Parameters<typeof createResearchService>[0]> = {}): ResearchService {
  return createResearchService({ agentDeps: async () => deps, runAgent, ...over });
}

async function readNdjson(res: Response): Promise<{ event: string; data: ResearchEvent }[]> {
  const text = await res.text();
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { event: string; data: ResearchEvent });
}

beforeAll(async () => {
  await ensureDbReady();
  const ua = await createTestUser('research-a');
  const ub = await createTestUser('research-b');
  a = { id: ua.id, key: (await createApiKey({ ownerId: ua.id, body: { name: 'a', scopes: ['read'] } })).key };
  b = { id: ub.id, key: (await createApiKey({ ownerId: ub.id, body: { name: 'b', scopes: ['read'] } })).key };
  deps = await corpusFor(a.id, b.id);
  // The routes use the process-wide service: give it this corpus (no model, in-memory index).
  (globalThis as unknown as { docuchatResearch?: ResearchService }).docuchatResearch = service();
});

describe('research mode through the routes', () => {
  it('asks, plans, takes an edited plan, streams the tasks and saves a report with sources per section', async () => {
    const started = await startRoute.POST(
      req('/api/research', { method: 'POST', key: a.key, body: { question: 'Tell me about deployments' } }),
      none,
    );
    expect(started.status).toBe(201);
    const { run } = (await started.json()) as { run: ResearchRunView };
    expect(run.status).toBe('clarifying');
    expect(run.clarifications.length).toBeGreaterThan(0);
    expect(run.clarifications.length).toBeLessThanOrEqual(3);
    // the two buckets are open: the scope question offers them
    expect(run.clarifications.some((q) => q.options.includes('manuals'))).toBe(true);

    const answered = await answersRoute.POST(
      req(`/api/research/${run.id}/answers`, {
        method: 'POST',
        key: a.key,
        body: { answers: [{ id: 'q1', answer: 'the release pipeline and smoke tests' }] },
      }),
      ctx(run.id),
    );
    expect(answered.status).toBe(200);
    const planned = ((await answered.json()) as { run: ResearchRunView }).run;
    expect(planned.status).toBe('awaiting_approval');
    expect(planned.clarifications.filter((q) => q.skipped).length).toBe(planned.clarifications.length - 1);
    expect(planned.tasks.length).toBeGreaterThanOrEqual(2);
    expect(planned.tasks.every((t) => t.query.includes('release pipeline'))).toBe(true);

    // Reorder (last first), delete the rest, edit one and add one.
    const [first, , last] = planned.tasks;
    const edited = await planRoute.PUT(
      req(`/api/research/${run.id}/plan`, {
        method: 'PUT',
        key: a.key,
        body: {
          tasks: [
            {
              id: last?.id ?? first?.id,
              title: 'Deployment steps',
              query: 'How do deployments run through the release pipeline?',
            },
            { title: 'Rate limits', query: 'How many requests per minute does the public API allow?' },
          ],
        },
      }),
      ctx(run.id),
    );
    expect(edited.status).toBe(200);
    const plan = ((await edited.json()) as { run: ResearchRunView }).run.tasks;
    expect(plan.map((t) => t.title)).toEqual(['Deployment steps', 'Rate limits']);
    expect(plan.map((t) => t.order)).toEqual([0, 1]);

    const stream = await approveRoute.POST(
      req(`/api/research/${run.id}/approve`, { method: 'POST', key: a.key, accept: 'application/x-ndjson' }),
      ctx(run.id),
    );
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = await readNdjson(stream);
    expect(new Set(lines.map((l) => l.event))).toEqual(new Set(['research']));
    // every streamed event is one of the typed research events
    const events = lines.map((l) => researchEventSchema.parse(l.data));
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'task_start')).toHaveLength(2);
    expect(types.filter((t) => t === 'task_done')).toHaveLength(2);
    expect(types).toContain('quality');
    expect(types).toContain('synthesis');
    expect(types).toContain('report');
    // every task's agent events carry its task id (its own trace)
    const taskIds = new Set(events.flatMap((e) => (e.type === 'task_event' ? [e.taskId] : [])));
    expect([...taskIds].sort()).toEqual(plan.map((t) => t.id).sort());
    expect(events.at(-1)?.type).toBe('run');

    const done = (
      (await (await runRoute.GET(req(`/api/research/${run.id}`, { key: a.key }), ctx(run.id))).json()) as {
        run: ResearchRunView;
      }
    ).run;
    expect(done.status).toBe('done');
    expect(done.report?.sections.map((s) => s.heading)).toEqual(['Deployment steps', 'Rate limits']);
    const rateSection = done.report?.sections[1];
    expect(rateSection?.text).toMatch(/100 requests per minute/);
    expect(rateSection?.sources.map((s) => s.filename)).toContain('rate-limits.md');
    // the numbering runs across the report: the second section's sources do not restart at [1] when the first cites
    const firstNs = done.report?.sections[0]?.sources.map((s) => s.n) ?? [];
    for (const s of rateSection?.sources ?? [])
      expect(firstNs.includes(s.n) || s.n > Math.max(0, ...firstNs)).toBe(true);
    expect(done.report?.extractive).toBe(true);
    expect(done.tasks.every((t) => t.trace.length > 0)).toBe(true);
    expect(done.answerId).toBeTruthy();
    // the research-level log, kept with the run, in order; what streamed as `log` is what was saved
    expect(done.events.map((e) => e.type)).toEqual([
      'questions',
      'answers',
      'plan',
      'plan_edited',
      'approved',
      'task_start',
      'task_done',
      'task_start',
      'task_done',
      'status',
      ...(done.report?.quality.remediatedTaskId ? ['quality', 'task_start', 'task_done'] : []),
      'quality',
      'synthesis',
      'report',
      'status',
    ]);
    expect(events.flatMap((e) => (e.type === 'log' ? [e.entry] : []))).toEqual(done.events.slice(4));
    expect(done.events.find((e) => e.type === 'answers')).toMatchObject({ answered: 1 });
    // the last task moved first, one edited, the others deleted, one added
    expect(done.events.find((e) => e.type === 'plan_edited')).toMatchObject({
      tasks: 2,
      edited: 1,
      added: 1,
      deleted: planned.tasks.length - 1,
    });
    expect(done.events.at(-2)).toMatchObject({ type: 'report', answerId: done.answerId, sections: 2 });
    const times = done.events.map((e) => Date.parse(e.at));
    expect(times).toEqual([...times].sort((x, y) => x - y));
    const answer = await getDb().answer.findFirst({ where: { id: done.answerId ?? '', ownerId: a.id } });
    expect(answer?.mode).toBe('research');
    expect(answer?.text).toContain('## Rate limits');
    expect(answer?.report).toBeTruthy();

    // shared, the report keeps its sections and each section's sources
    const share = await createShare({ ownerId: a.id, answerId: done.answerId ?? '' });
    const snapshot = await findPublicSnapshot(share.slug);
    expect(snapshot?.report?.sections.map((s) => s.heading)).toEqual(['Deployment steps', 'Rate limits']);
    expect(snapshot?.report?.sections[1]?.sources).toEqual(rateSection?.sources.map((s) => s.n));
    expect(snapshot?.answer).toContain('## Rate limits');
  });

  it('mode "research" on the agent API starts a research run', async () => {
    const res = await agentRunRoute.POST(
      req('/api/agent/run', {
        method: 'POST',
        key: a.key,
        body: { question: 'Tell me about deployments', mode: 'research' },
      }),
      none,
    );
    expect(res.status).toBe(201);
    const { run } = (await res.json()) as { run: ResearchRunView };
    expect(run.status).toBe('clarifying');
    expect((await findResearchRun({ ownerId: a.id, id: run.id }))?.question).toBe('Tell me about deployments');
  });

  it("answers another user's probes exactly like a missing id, on every research route", async () => {
    const run = await service().start(a.id, {
      question: 'How do deployments run through the release pipeline?',
      style: 'concise',
      skipClarification: true,
    });
    const missing = crypto.randomUUID();
    const probes = (id: string) => [
      () => runRoute.GET(req(`/api/research/${id}`, { key: b.key }), ctx(id)),
      () =>
        answersRoute.POST(
          req(`/api/research/${id}/answers`, { method: 'POST', key: b.key, body: { skip: true } }),
          ctx(id),
        ),
      () =>
        planRoute.PUT(
          req(`/api/research/${id}/plan`, { method: 'PUT', key: b.key, body: { tasks: [{ title: 'x' }] } }),
          ctx(id),
        ),
      () => approveRoute.POST(req(`/api/research/${id}/approve`, { method: 'POST', key: b.key }), ctx(id)),
      () => cancelRoute.POST(req(`/api/research/${id}/cancel`, { method: 'POST', key: b.key }), ctx(id)),
    ];
    const theirs = probes(run.id);
    const absent = probes(missing);
    for (let i = 0; i < theirs.length; i++) {
      const r1 = await theirs[i]?.();
      const r2 = await absent[i]?.();
      expect(r1?.status).toBe(404);
      expect(r2?.status).toBe(r1?.status);
      expect(await r1?.text()).toBe(await r2?.text());
    }
    // and nothing changed for the owner
    const still = await findResearchRun({ ownerId: a.id, id: run.id });
    expect(still?.status).toBe('awaiting_approval');
    expect(await findResearchRun({ ownerId: b.id, id: run.id })).toBeNull();
  });
});

describe('research with a (scripted) model', () => {
  it("asks the model's questions, plans the model's tasks and lets it choose the key findings", async () => {
    const model = scriptedModel({
      json: [
        {
          ambiguous: true,
          questions: [
            { question: 'Staging or production deployments?', reason: 'both exist', options: ['production'] },
          ],
        },
        {
          tasks: [
            { title: 'Pipeline', query: 'How do deployments run through the release pipeline?' },
            { title: 'Limits', query: 'How many requests per minute does the public API allow?' },
          ],
        },
      ],
    });
    const withModel: AgentDeps = {
      ...deps,
      models: { decision: model, synthesis: null, names: { decision: 'mock', synthesis: null, embedding: null } },
    };
    const calls: string[] = [];
    // The tasks' own agent runs are the agent's business (tested with scripted models in lib/agent): here they run
    // without the model, so the scripted model answers only the research steps.
    const agentWithoutModel: RunAgentFn = (input, d, emit) => {
      calls.push(input.question);
      return runAgent(input, { ...d, models: NO_MODELS }, emit);
    };
    const s = service({ agentDeps: async () => withModel, runAgent: agentWithoutModel });
    const run = await s.start(a.id, {
      question: 'Tell me about deployments',
      style: 'concise',
      skipClarification: false,
    });
    expect(run.clarifications.map((q) => q.question)).toEqual(['Staging or production deployments?']);
    const planned = await s.answer(a.id, run.id, { answers: [{ id: 'q1', answer: 'production' }] });
    expect(planned.tasks.map((t) => t.title)).toEqual(['Pipeline', 'Limits']);
    expect(planned.note).toBeNull();
    const { done } = await s.approve(a.id, run.id);
    const final = await done;
    expect(final.status).toBe('done');
    expect(calls.slice(0, 2)).toEqual(planned.tasks.map((t) => t.query));
    // the key-findings call got the last scripted output (the plan), which is not a pick list: extractive summary
    expect(final.report?.summarySource).toBe('extractive');
    expect(final.report?.extractive).toBe(false);
    expect(model.generateCount()).toBe(3);
  });
});

describe('research runs across a restart', () => {
  it('a run waiting for its owner reads the same from a new service instance and runs there', async () => {
    const before = await service().start(a.id, {
      question: 'Tell me about deployments',
      style: 'concise',
      skipClarification: false,
    });
    expect(before.status).toBe('clarifying');
    const restarted = service();
    const after = await restarted.get(a.id, before.id);
    expect(after.status).toBe('clarifying');
    expect(after.clarifications).toEqual(before.clarifications);
    const planned = await restarted.answer(a.id, before.id, { skip: true });
    expect(planned.status).toBe('awaiting_approval');
    expect(planned.clarifications.every((q) => q.skipped)).toBe(true);
  });

  it('a run whose process died mid-run is resumable: finished tasks are kept, the rest run on approval', async () => {
    const first = service();
    const run = await first.start(a.id, {
      question: 'Compare the deployment guide with the release checklist',
      style: 'concise',
      skipClarification: true,
    });
    expect(run.tasks.length).toBeGreaterThanOrEqual(2);
    // Simulate a dead process: task 1 finished, task 2 was running, the runner stopped reporting long ago.
    const tasks = run.tasks.map((t, i) =>
      i === 0
        ? { ...t, status: 'done' as const, answer: 'Kept answer.', confidence: 'low' as const }
        : i === 1
          ? { ...t, status: 'running' as const }
          : t,
    );
    await updateResearchRun({
      ownerId: a.id,
      id: run.id,
      patch: { status: 'running', tasks, runnerId: 'dead-runner', heartbeatAt: new Date(Date.now() - 3_600_000) },
    });
    const calls: string[] = [];
    const counting: RunAgentFn = (input, d, emit) => {
      calls.push(input.question);
      return runAgent(input, d, emit);
    };
    const restarted = service({ runAgent: counting });
    const resumed = await restarted.get(a.id, run.id);
    expect(resumed.status).toBe('awaiting_approval');
    expect(resumed.note).toMatch(/Interrupted.*1 of/);
    expect(resumed.tasks[0]?.status).toBe('done');
    expect(resumed.tasks[1]?.status).toBe('pending');
    expect(resumed.events.at(-1)).toMatchObject({ type: 'interrupted', done: 1, total: run.tasks.length });
    const { done } = await restarted.approve(a.id, run.id);
    const final = await done;
    expect(final.status).toBe('done');
    expect(calls.length).toBeGreaterThanOrEqual(run.tasks.length - 1);
    expect(calls).not.toContain(run.tasks[0]?.query);
    // The kept task's answer is the section, unless the quality check's one remediation pass re-ran exactly that
    // (weakest: no citation) section afterwards, which the report then says.
    const remediated = final.report?.quality.remediatedTaskId === run.tasks[0]?.id;
    if (remediated) expect(final.tasks[0]?.remediated).toBe(true);
    else expect(final.report?.sections[0]?.text).toBe('Kept answer.');
  });

  it('a fresh run in this process is not taken for a dead one', async () => {
    const s = service({ staleMs: 60_000 });
    const run = await s.start(a.id, { question: 'How do deployments run?', style: 'concise', skipClarification: true });
    await updateResearchRun({
      ownerId: a.id,
      id: run.id,
      patch: { status: 'running', runnerId: 'another-live-process', heartbeatAt: new Date() },
    });
    expect((await s.get(a.id, run.id)).status).toBe('running');
  });
});

describe('cancelling', () => {
  it('cancel stops a run in the middle of a task and nothing more is written', async () => {
    let release: () => void = () => {};
    const entered = new Promise<void>((resolve) => {
      release = resolve;
    });
    const blocking: RunAgentFn = (input, d, emit) =>
      new Promise((resolve) => {
        release();
        input.signal?.addEventListener('abort', () => resolve(runAgent(input, d, emit)), { once: true });
      });
    const s = service({ runAgent: blocking });
    const run = await s.start(a.id, { question: 'How do deployments run?', style: 'concise', skipClarification: true });
    const events: ResearchEvent[] = [];
    const { done } = await s.approve(a.id, run.id, (e) => events.push(e));
    await entered;
    const cancelled = await s.cancel(a.id, run.id);
    expect(cancelled.status).toBe('cancelled');
    const final = await done;
    expect(final.status).toBe('cancelled');
    expect(final.report).toBeNull();
    expect(events.some((e) => e.type === 'status' && e.status === 'cancelled')).toBe(true);
    // the log ends with the cancel; the task that was stopped is not logged as finished
    expect(final.events.map((e) => e.type)).toEqual(['plan', 'approved', 'task_start', 'status']);
    expect(final.events.at(-1)).toMatchObject({ status: 'cancelled', note: 'Cancelled by you.' });
    // a cancelled run cannot be approved again
    await expect(s.approve(a.id, run.id)).rejects.toMatchObject({ code: 'conflict:agent' });
  });

  it('cancel works while waiting for answers too', async () => {
    const s = service();
    const run = await s.start(a.id, {
      question: 'Tell me about deployments',
      style: 'concise',
      skipClarification: false,
    });
    expect((await s.cancel(a.id, run.id)).status).toBe('cancelled');
    await expect(s.answer(a.id, run.id, { skip: true })).rejects.toMatchObject({ code: 'conflict:agent' });
  });
});
