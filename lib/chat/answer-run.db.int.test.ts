import { beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent, TraceEvent } from '@/lib/agent/events';
import type { AgentResult, RunAgentInput } from '@/lib/agent/types';
import { type RunAgentFn, runAnswer } from '@/lib/chat/answer-run';
import { markInterruptedAnswers } from '@/lib/db/answers';
import { createPrismaCatalog } from '@/lib/db/catalog';
import { ensureDbReady, getDb } from '@/lib/db/client';
import { createTestUser } from '@/test/factories';
import { createMemoryChunkIndex } from '@/test/support/agent/memory-chunk-index';

beforeAll(async () => {
  await ensureDbReady();
});

function fakeResult(over: Partial<AgentResult> = {}): AgentResult {
  return {
    answer: 'The job runs at 02:00 [1].',
    citations: [],
    insufficiencies: [],
    clarification: null,
    confidence: 'medium',
    safetyFlags: [],
    strippedMarkers: [],
    trace: [],
    timings: {
      totalMs: 5,
      firstTokenMs: 2,
      guardMs: 0,
      constraintsMs: 0,
      planMs: 0,
      loopMs: 0,
      synthesisMs: 0,
      validationMs: 0,
      modelMs: 0,
    },
    models: { decision: null, synthesis: null, embedding: null, extractive: true },
    mode: 'agent',
    recommendedMode: 'quick',
    validated: true,
    status: 'complete',
    ...over,
  };
}

/** A stand-in agent that emits a plan and a token, records its input, and honours the abort signal. */
function scriptedAgent(seen: RunAgentInput[], opts: { waitForAbort?: boolean } = {}): RunAgentFn {
  return async (input, _deps, emit) => {
    seen.push(input);
    const plan: TraceEvent = {
      type: 'plan',
      id: 'plan',
      steps: ['a', 'b'],
      intent: 'qa',
      subQueries: [],
      buckets: [],
      filters: {},
      outputFormat: 'text',
      source: 'default',
      constraints: {
        minSearches: 1,
        requiredTopics: [],
        minOpenCitations: 0,
        exactQuotes: [],
        conflictRule: null,
        requiredSections: [],
        insufficiencyPhrase: null,
        source: 'patterns',
      },
      recommendedMode: 'quick',
    };
    emit?.(plan);
    emit?.({ type: 'token', attempt: 1, text: 'The job' });
    if (opts.waitForAbort) {
      await new Promise<void>((resolve) => {
        if (input.signal?.aborted) resolve();
        else input.signal?.addEventListener('abort', () => resolve(), { once: true });
      });
      return fakeResult({ status: 'stopped', answer: 'The job', trace: [plan] });
    }
    return fakeResult({ trace: [plan] });
  };
}

function deps(runAgent: RunAgentFn) {
  return {
    runAgent,
    agentDeps: {
      index: createMemoryChunkIndex(),
      catalog: createPrismaCatalog(),
      embedder: null,
      models: { decision: null, synthesis: null, names: { decision: null, synthesis: null, embedding: null } },
    },
  };
}

describe('runAnswer', () => {
  it('persists the conversation, both messages, the answer and its trace; follow-ups get the history', async () => {
    const user = await createTestUser('chat');
    const seen: RunAgentInput[] = [];
    const events: AgentEvent[] = [];
    const first = await runAnswer(
      {
        ownerId: user.id,
        question: 'When does the job run?',
        conversationId: 'client-generated-id',
        options: { mode: 'agent', style: 'concise' },
        persistConversation: true,
      },
      deps(scriptedAgent(seen)),
      { onEvent: (e) => events.push(e) },
    );
    expect(events.map((e) => e.type)).toEqual(['plan', 'token']);
    const conversationId = first.session.conversationId ?? '';
    const answer = await getDb().answer.findUniqueOrThrow({ where: { id: first.session.answerId } });
    expect(answer).toMatchObject({
      ownerId: user.id,
      status: 'complete',
      text: 'The job runs at 02:00 [1].',
      conversationId,
    });
    expect(answer.trace).toEqual([expect.objectContaining({ type: 'plan' })]);
    const messages = await getDb().message.findMany({ where: { conversationId }, orderBy: { createdAt: 'asc' } });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[1]?.answerId).toBe(answer.id);

    await runAnswer(
      {
        ownerId: user.id,
        question: 'And how long does it take?',
        conversationId,
        options: { mode: 'quick', style: 'bullet' },
        persistConversation: true,
      },
      deps(scriptedAgent(seen)),
    );
    expect(seen[1]?.history).toEqual([
      { role: 'user', content: 'When does the job run?' },
      { role: 'assistant', content: 'The job runs at 02:00 [1].' },
    ]);
    expect(seen[1]?.mode).toBe('quick');
  });

  it("never continues another user's conversation", async () => {
    const alice = await createTestUser('alice');
    const bob = await createTestUser('bob');
    const seen: RunAgentInput[] = [];
    const a = await runAnswer(
      {
        ownerId: alice.id,
        question: 'Alice secret question here',
        options: { mode: 'agent', style: 'concise' },
        persistConversation: true,
      },
      deps(scriptedAgent(seen)),
    );
    const b = await runAnswer(
      {
        ownerId: bob.id,
        question: 'Bob asks in Alice conversation',
        conversationId: a.session.conversationId,
        options: { mode: 'agent', style: 'concise' },
        persistConversation: true,
      },
      deps(scriptedAgent(seen)),
    );
    // Bob gets a new conversation of his own (under the id he sent: ids are scoped by owner), without her history.
    expect(b.session.title).toBe('Bob asks in Alice conversation');
    expect(seen[1]?.history).toEqual([]);
    const count = (ownerId: string) =>
      getDb().message.count({ where: { ownerId, conversationId: a.session.conversationId ?? '' } });
    expect(await count(alice.id)).toBe(2);
    expect(await count(bob.id)).toBe(2);
  });

  it('starts a new conversation under the id the page proposed, so a Stop before the first byte can find it', async () => {
    const user = await createTestUser('proposed');
    const proposed = crypto.randomUUID();
    const out = await runAnswer(
      {
        ownerId: user.id,
        question: 'A question under a proposed id',
        conversationId: proposed,
        options: { mode: 'agent', style: 'concise' },
        persistConversation: true,
      },
      deps(scriptedAgent([])),
    );
    expect(out.session.conversationId).toBe(proposed);
    expect(await getDb().conversation.findFirst({ where: { id: proposed, ownerId: user.id } })).not.toBeNull();
  });

  it("proposing another user's conversation id answers exactly like proposing a missing one; theirs is untouched", async () => {
    const alice = await createTestUser('alice-p');
    const mallory = await createTestUser('mallory-p');
    const a = await runAnswer(
      {
        ownerId: alice.id,
        question: 'Alice asks first',
        options: { mode: 'agent', style: 'concise' },
        persistConversation: true,
      },
      deps(scriptedAgent([])),
    );
    const aliceId = a.session.conversationId ?? '';
    const db = getDb();
    const alicesBefore = await db.conversation.findUniqueOrThrow({
      where: { ownerId_id: { ownerId: alice.id, id: aliceId } },
      include: { messages: { orderBy: { createdAt: 'asc' } }, answers: true },
    });
    const propose = (conversationId: string) =>
      runAnswer(
        {
          ownerId: mallory.id,
          question: 'Mallory proposes a conversation id',
          conversationId,
          options: { mode: 'agent', style: 'concise' },
          persistConversation: true,
        },
        deps(scriptedAgent([])),
      );
    const missingId = crypto.randomUUID();
    const onMissing = await propose(missingId);
    const onAlices = await propose(aliceId);

    // Each keeps the id it proposed, and the two answers differ only in the proposed id and the fresh answer id.
    expect(onMissing.session.conversationId).toBe(missingId);
    expect(onAlices.session.conversationId).toBe(aliceId);
    const masked = (out: typeof onMissing, conversationId: string) =>
      JSON.parse(
        JSON.stringify(out)
          .replaceAll(conversationId, '<conversation>')
          .replaceAll(out.session.answerId, '<answer>')
          .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>'),
      );
    expect(masked(onAlices, aliceId)).toEqual(masked(onMissing, missingId));

    // Mallory's conversation under that id is hers alone, with her two messages; Alice's is exactly as it was.
    const mallorys = await db.conversation.findUniqueOrThrow({
      where: { ownerId_id: { ownerId: mallory.id, id: aliceId } },
      include: { messages: true },
    });
    expect(mallorys.title).toBe('Mallory proposes a conversation id');
    expect(mallorys.messages.map((m) => m.ownerId)).toEqual([mallory.id, mallory.id]);
    const alicesAfter = await db.conversation.findUniqueOrThrow({
      where: { ownerId_id: { ownerId: alice.id, id: aliceId } },
      include: { messages: { orderBy: { createdAt: 'asc' } }, answers: true },
    });
    expect(alicesAfter).toEqual(alicesBefore);
  });

  it('streams the validated answer of a run that streamed no text, sentence by sentence', async () => {
    const user = await createTestUser('replay');
    const answer = 'The job runs at 02:00 [1]. It takes ten minutes [1]. Logs go to the archive [2].';
    const silent: RunAgentFn = async () => fakeResult({ answer });
    const events: AgentEvent[] = [];
    await runAnswer(
      {
        ownerId: user.id,
        question: 'When does the job run?',
        options: { mode: 'agent', style: 'concise' },
        persistConversation: true,
      },
      deps(silent),
      { onEvent: (e) => events.push(e) },
    );
    const tokens = events.flatMap((e) => (e.type === 'token' ? [e.text] : []));
    expect(tokens.length).toBe(3);
    expect(tokens.join('')).toBe(answer);
    // A stopped run is never replayed (what it saved is shown as saved).
    const stoppedEvents: AgentEvent[] = [];
    await runAnswer(
      {
        ownerId: user.id,
        question: 'Stopped one',
        options: { mode: 'agent', style: 'concise' },
        persistConversation: true,
      },
      deps(async () => fakeResult({ answer, status: 'stopped' })),
      { onEvent: (e) => stoppedEvents.push(e) },
    );
    expect(stoppedEvents.filter((e) => e.type === 'token')).toEqual([]);
  });

  it('saves a stopped run with what it produced', async () => {
    const user = await createTestUser('stop');
    const controller = new AbortController();
    const running = runAnswer(
      {
        ownerId: user.id,
        question: 'A question that will be stopped',
        options: { mode: 'agent', style: 'concise' },
        persistConversation: true,
        signal: controller.signal,
      },
      deps(scriptedAgent([], { waitForAbort: true })),
    );
    await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    const out = await running;
    const row = await getDb().answer.findUniqueOrThrow({ where: { id: out.session.answerId } });
    expect(row.status).toBe('stopped');
    expect(row.text).toBe('The job');
  });

  it('marks answers left running by a killed server as interrupted', async () => {
    const user = await createTestUser('killed');
    const row = await getDb().answer.create({
      data: {
        ownerId: user.id,
        question: 'q',
        text: '',
        status: 'running',
        mode: 'agent',
        style: 'concise',
        citations: [],
        insufficiencies: [],
        trace: [{ type: 'plan' }],
        confidence: 'low',
        safetyFlags: [],
        models: {},
        timings: {},
      },
    });
    expect(await markInterruptedAnswers(0)).toBeGreaterThanOrEqual(1);
    const after = await getDb().answer.findUniqueOrThrow({ where: { id: row.id } });
    expect(after.status).toBe('interrupted');
    expect(after.trace).toEqual([{ type: 'plan' }]);
  });
});
