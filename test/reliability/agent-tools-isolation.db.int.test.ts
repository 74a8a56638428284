import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeConstraints } from '@/lib/agent/constraints';
import type { AgentEvent } from '@/lib/agent/events';
import { resolveLimits } from '@/lib/agent/limits';
import { defaultPlan } from '@/lib/agent/plan';
import { runAgent } from '@/lib/agent/run-agent';
import { createAgentState } from '@/lib/agent/state';
import { createTools } from '@/lib/agent/tools/registry';
import type { ToolCall, ToolOutcome } from '@/lib/agent/tools/types';
import { createPrismaCatalog } from '@/lib/db/catalog';
import { getDb } from '@/lib/db/client';
import { createTestUser } from '@/test/factories';
import { scriptedModel } from '@/test/support/agent/mock-models';
import { NO_CONSTRAINTS, qaPlan } from '@/test/support/agent/script-steps';
import { createHarness, type Harness, ingest } from './ingest-harness';

/**
 * Issue 8, isolation at the agent's tools: user B's run is handed user A's document and chunk ids (and A's
 * file name, title and words) by a scripted model. Every tool answers exactly as it does for an id that does
 * not exist, and nothing of A's reaches the tool results, the events or the prompts sent to the model.
 * Real pipeline, real database (SQLite and PostgreSQL: the file name matches `db.int`), embedded index.
 */

let h: Harness;
const canary = `quokka${randomUUID().slice(0, 6)}`;
let a: { id: string; email: string };
let b: { id: string; email: string };
let aDoc = '';
let aChunks: string[] = [];
let secrets: string[] = [];
const aFilename = `zanzibar-${canary}.md`;

beforeAll(async () => {
  h = await createHarness();
  a = await createTestUser('tools-a');
  b = await createTestUser('tools-b');
  const aText = `# Zanzibar treasury ${canary}\n\nThe zanzibar treasury code is ${canary}-48213977. It is rotated every quarter; see Section 4.2 and the Treasury Guide.\n\n## Section 4.2\n\nThe ${canary} audit trail lists every rotation.\n`;
  const outA = await ingest(h, a.id, aFilename, Buffer.from(aText), 'text/markdown');
  expect(outA).toMatchObject({ status: 'INDEXED' });
  aDoc = outA.documentId ?? '';
  aChunks = (await getDb().chunk.findMany({ where: { documentId: aDoc }, select: { id: true } })).map((c) => c.id);
  expect(aChunks.length).toBeGreaterThan(0);
  const outB = await ingest(
    h,
    b.id,
    'garden.md',
    Buffer.from(
      '# Garden notes\n\nThe garden treasury of tomatoes is watered every Tuesday. See the Treasury Guide.\n',
    ),
    'text/markdown',
  );
  expect(outB).toMatchObject({ status: 'INDEXED' });
  secrets = [canary, aDoc, ...aChunks, aFilename, a.email, 'zanzibar', '48213977'];
});

afterAll(async () => {
  await h.close();
});

function toolContext(ownerId: string) {
  const question = 'What is the treasury code?';
  const constraints = analyzeConstraints(question);
  const limits = resolveLimits();
  const state = createAgentState({
    ownerId,
    question,
    constraints,
    plan: defaultPlan(question, constraints, [], 'concise'),
    limits,
  });
  const tools = createTools({
    ownerId,
    index: h.index,
    catalog: createPrismaCatalog(getDb()),
    embedder: null,
    state,
    buckets: [],
    baseFilters: {},
    now: () => performance.now(),
    embedTimeoutMs: 1000,
  });
  return { state, tools };
}

const leaksIn = (text: string) => secrets.filter((s) => text.toLowerCase().includes(s.toLowerCase()));

/** What must not differ between A's id and a missing id: success, hits, and the text with the id masked. */
function shape(outcome: ToolOutcome, id: string): string {
  return JSON.stringify({
    ok: outcome.ok,
    hits: outcome.hits,
    text: outcome.forModel.split(id).join('<ID>'),
    code: outcome.ok ? null : outcome.error.code,
  });
}

describe("the agent's tools under B's session, given A's ids", () => {
  it('open, inspect, search and follow answer like for missing ids and reveal nothing', async () => {
    let probes = 0;
    const leaks: string[] = [];
    const differences: string[] = [];
    const ids = [aDoc, ...aChunks];
    for (const id of ids) {
      const missing = randomUUID();
      const calls = (x: string): ToolCall[] => [
        { tool: 'open_citation', handle: x },
        { tool: 'get_document_metadata', handle: x },
        { tool: 'search_docs', query: x },
        { tool: 'search_text', query: x },
        { tool: 'search_semantic', query: x },
        { tool: 'search_docs', query: 'treasury code', filters: { documents: [x] } },
        { tool: 'follow_reference', handle: x, reference: x },
        { tool: 'read_opening', query: x },
        { tool: 'read_opening', handle: x },
      ];
      const withA = calls(id);
      const withMissing = calls(missing);
      for (let i = 0; i < withA.length; i++) {
        const callA = withA[i];
        const callM = withMissing[i];
        if (!callA || !callM) continue;
        // a fresh run state for each call, as a new run would have
        const runA = toolContext(b.id);
        const runM = toolContext(b.id);
        const toolA = runA.tools.get(callA.tool);
        const toolM = runM.tools.get(callM.tool);
        if (!toolA || !toolM) throw new Error(`no tool ${callA.tool}`);
        const outA = await toolA.run(callA, `c${i}`);
        const outM = await toolM.run(callM, `c${i}`);
        probes++;
        const found = leaksIn(JSON.stringify(outA).split(id).join('<ID>'));
        if (found.length > 0)
          leaks.push(
            `${callA.tool}(${JSON.stringify(callA)}): ${found.join(', ')} in ${JSON.stringify(outA).slice(0, 300)}`,
          );
        if (shape(outA, id) !== shape(outM, missing))
          differences.push(`${callA.tool}: ${shape(outA, id)} vs ${shape(outM, missing)}`);
        expect(runA.state.opened).toEqual([]);
        expect([...runA.state.results.values()].filter((r) => r.hit.documentId === aDoc)).toEqual([]);
      }
    }
    // searches by A's words, file name and title find nothing of A's (B's own garden note may match "treasury")
    for (const query of [
      canary,
      aFilename,
      `zanzibar treasury ${canary}`,
      'zanzibar treasury code',
      'Section 4.2 audit trail',
    ]) {
      for (const tool of ['search_docs', 'search_text'] as const) {
        const run = toolContext(b.id);
        const outcome = await run.tools.get(tool)?.run({ tool, query }, 's');
        probes++;
        // the query itself is echoed ("No results for …"): mask it, then nothing of A's may remain
        const found = leaksIn(
          JSON.stringify(outcome ?? {})
            .split(query)
            .join('<Q>'),
        );
        if (found.length > 0) leaks.push(`${tool}("${query}"): ${found.join(', ')}`);
        expect([...run.state.results.values()].every((r) => r.hit.documentId !== aDoc)).toBe(true);
      }
    }
    // the layers under the tools
    const catalog = createPrismaCatalog(getDb());
    expect(await h.index.get(b.id, aChunks)).toEqual([]);
    expect(await h.index.search({ ownerId: b.id, query: `zanzibar ${canary}`, mode: 'keyword', topK: 10 })).toEqual([]);
    expect(
      await h.index.search({
        ownerId: b.id,
        query: 'treasury',
        mode: 'keyword',
        topK: 10,
        filters: { documentIds: [aDoc] },
      }),
    ).toEqual([]);
    expect(await catalog.getDocument(b.id, aDoc)).toBeNull();
    expect([...(await catalog.filterIndexed(b.id, [aDoc]))]).toEqual([]);
    expect(await catalog.findDocumentsByName(b.id, 'zanzibar', 10)).toEqual([]);
    expect(await catalog.documentOpenings(b.id, { documentIds: [aDoc], limit: 4, chunks: 2 })).toEqual({
      documents: [],
      total: 0,
    });
    // read_opening by A's file name, and over B's whole scope: only B's own document
    for (const query of [aFilename, 'zanzibar', '']) {
      const run = toolContext(b.id);
      const outcome = await run.tools.get('read_opening')?.run({ tool: 'read_opening', query }, 'o');
      probes++;
      const found = leaksIn(
        JSON.stringify(outcome ?? {})
          .split(query || '\u0000')
          .join('<Q>'),
      );
      if (found.length > 0) leaks.push(`read_opening("${query}"): ${found.join(', ')}`);
      expect([...run.state.results.values()].every((r) => r.hit.documentId !== aDoc)).toBe(true);
      if (query === '') expect([...run.state.results.values()].map((r) => r.hit.filename)).toEqual(['garden.md']);
    }
    probes += 7;
    // and the same calls as A do find A's data (so the probes could have failed)
    const own = toolContext(a.id);
    const ownSearch = await own.tools
      .get('search_text')
      ?.run({ tool: 'search_text', query: `zanzibar ${canary}` }, 's');
    expect(ownSearch?.ok).toBe(true);
    expect(JSON.stringify(ownSearch)).toContain(canary);
    const ownOpening = await toolContext(a.id)
      .tools.get('read_opening')
      ?.run({ tool: 'read_opening', query: 'zanzibar' }, 'o');
    expect(ownOpening?.ok).toBe(true);
    expect(JSON.stringify(ownOpening)).toContain(canary);
    console.log(
      `[isolation/tools] probes: ${probes}, leaks: ${leaks.length}, differences from missing ids: ${differences.length}`,
    );
    expect(leaks).toEqual([]);
    expect(differences).toEqual([]);
  });

  it("a scripted model that feeds A's ids to every tool gets nothing of A's, in events, answer or prompts", async () => {
    const CONSTRAINTS_NONE = NO_CONSTRAINTS;
    const PLAN = qaPlan(['treasury code'], ['search', 'open', 'answer']);
    const chunk = aChunks[0] ?? '';
    const json = [
      CONSTRAINTS_NONE,
      PLAN,
      // one legitimate search first, so that open/inspect/follow are offered at all
      { action: 'tool_call', calls: [{ tool: 'search_docs', query: 'garden treasury' }] },
      // raw ids as handles: longer than any handle, so the action is refused as malformed and retried
      {
        action: 'tool_call',
        calls: [
          { tool: 'open_citation', handle: chunk },
          { tool: 'get_document_metadata', handle: aDoc },
        ],
      },
      {
        action: 'tool_call',
        calls: [
          { tool: 'search_docs', query: `${canary} ${aDoc}`, filters: { documents: [aDoc] } },
          { tool: 'search_text', query: chunk },
        ],
      },
      {
        action: 'tool_call',
        calls: [
          { tool: 'follow_reference', handle: 'r1', reference: aFilename },
          { tool: 'get_document_metadata', handle: 'd2' },
        ],
      },
      { action: 'final', reason: 'done' },
    ];
    const model = scriptedModel({ json, texts: ['The documents do not say what the treasury code is.'] });
    const events: AgentEvent[] = [];
    const result = await runAgent(
      { question: 'What is the zanzibar treasury code?', ownerId: b.id, mode: 'agent', style: 'concise' },
      {
        index: h.index,
        catalog: createPrismaCatalog(getDb()),
        embedder: null,
        models: { decision: model, synthesis: null, names: { decision: 'scripted', synthesis: null, embedding: null } },
      },
      (e) => events.push(e),
    );
    expect(result.citations.every((c) => c.documentId !== aDoc)).toBe(true);
    const toolResults = events.filter((e) => e.type === 'tool_result');
    expect(toolResults.length).toBeGreaterThanOrEqual(4);
    // tool_call events echo what the model wrote (A's ids, A's file name); A's content must appear nowhere
    const everything = JSON.stringify({ events, result });
    // The ids the model itself wrote are echoed in tool_call events; none may appear in a tool result.
    // tool_result events repeat their call's input (the model's own words) for the trace card; only what the
    // tools produced counts here.
    const resultsText = JSON.stringify(toolResults.map((e) => ({ ...e, input: undefined })));
    const inResults = [canary, '48213977', aFilename, a.email].filter((s) => resultsText.includes(s));
    const prompts = model.prompts().join('\n');
    const inPrompts = ['48213977', 'audit trail lists', a.email].filter((s) => prompts.includes(s));
    console.log(
      `[isolation/agent] tool results: ${toolResults.length}, A's data in results: ${inResults.length}, in prompts: ${inPrompts.length}`,
    );
    expect(inResults).toEqual([]);
    expect(inPrompts).toEqual([]);
    expect(everything).not.toContain('48213977');
    expect(everything).not.toContain('audit trail lists');
    expect(result.answer).not.toContain('48213977');
  });
});
