import { describe, expect, it } from 'vitest';
import { buildFixture, OWNER } from '../../../test/support/agent/fixtures';
import { hangingModel, scriptedModel } from '../../../test/support/agent/mock-models';
import { FINAL_STEP, NO_CONSTRAINTS, qaPlan, searchStep, toolStep } from '../../../test/support/agent/script-steps';
import { stateWith } from '../../../test/support/agent/state';
import type { AgentEvent } from '../events';
import type { AgentLimits } from '../limits';
import { runAgent } from '../run-agent';
import type { AgentResult, RunAgentInput } from '../types';
import { trustIssues } from '../validate';

/** No path delivers text the gate did not pass: fallback, reprompt exhaustion, abort, timeout, quick mode. */

const NONE = NO_CONSTRAINTS;
const PLAN = qaPlan(['api rate limits']);
const SEARCH = searchStep('api rate limits');
const OPEN = toolStep('open_citation', 'r1');
const FINAL = FINAL_STEP;
const QUESTION = 'What are the API rate limits per token?';
const INVENTED =
  'The public API allows 900 requests per minute per token [1]. Premium tokens are never throttled and "retry at once" [1].';

async function run(args: {
  texts: string[];
  mode?: RunAgentInput['mode'];
  limits?: Partial<AgentLimits>;
  abortOn?: (e: AgentEvent) => boolean;
  decision?: ReturnType<typeof hangingModel>;
}): Promise<{ result: AgentResult; events: AgentEvent[] }> {
  const f = await buildFixture();
  const model = args.decision ?? scriptedModel({ json: [NONE, PLAN, SEARCH, OPEN, FINAL], texts: args.texts });
  const controller = new AbortController();
  const events: AgentEvent[] = [];
  const result = await runAgent(
    { question: QUESTION, ownerId: OWNER, mode: args.mode ?? 'agent', style: 'concise', signal: controller.signal },
    {
      index: f.index,
      catalog: f.catalog,
      embedder: null,
      models: { decision: model, synthesis: null, names: { decision: 'mock', synthesis: null, embedding: null } },
      limits: args.limits,
    },
    (e) => {
      events.push(e);
      if (args.abortOn?.(e)) controller.abort();
    },
  );
  return { result, events };
}

describe('every path delivers only gated text', () => {
  it('reprompts exhausted on an invented draft: the structured report, never the draft', async () => {
    const { result, events } = await run({ texts: [INVENTED] });
    expect(events.some((e) => e.type === 'limit' && e.limit === 'reprompts')).toBe(true);
    expect(result.answer).not.toContain('900');
    expect(result.answer).not.toContain('Premium');
    expect(result.answer).toContain('- Searched: "api rate limits"');
    expect(result.answer).toContain('- Found: 1 passage(s) opened: rate-limits.md');
    expect(result.answer).toContain('- Missing:');
    expect(result.citations).toEqual([]);
    expect(result.confidence).toBe('low');
  });

  it('a partly grounded draft is delivered as its repaired version, which passes the gate', async () => {
    const draft = `The public API allows 100 requests per minute per token [1]. ${INVENTED}`;
    const { result } = await run({ texts: [draft] });
    expect(result.answer).toBe('The public API allows 100 requests per minute per token [1].');
  });

  it('quick mode: a failing draft whose repair also fails ends in the report', async () => {
    const { result } = await run({ texts: [INVENTED], mode: 'quick' });
    expect(result.mode).toBe('quick');
    expect(result.answer).not.toContain('900');
    expect(result.answer).toContain('- Searched:');
  });

  it('stopped during synthesis: the saved message says it was stopped and carries no unchecked text', async () => {
    const { result } = await run({ texts: [INVENTED], abortOn: (e) => e.type === 'token' });
    expect(result.status).toBe('stopped');
    expect(result.answer).toMatch(/^The run was stopped before an answer could be checked/);
    expect(result.answer).not.toContain('900');
    expect(result.validated).toBe(false);
  });

  it('stopped after a grounded partial draft: the checked text with a note that the run was stopped', async () => {
    let tokens = 0;
    const { result } = await run({
      texts: ['The public API allows 100 requests per minute per token [1]. And more words follow here.'],
      abortOn: (e) => e.type === 'token' && ++tokens === 14,
    });
    expect(result.status).toBe('stopped');
    expect(result.answer).toMatch(/^The public API allows 100 requests per minute per token \[1\]\./);
    expect(result.answer).toContain('Stopped before the answer was finished');
  });

  it('a run cut by its deadlines still delivers only text that passes the gate', async () => {
    const { result } = await run({
      texts: [],
      decision: hangingModel(),
      limits: { planMs: 50, decisionMs: 50, synthesisMs: 50, wallClockMs: 400 },
    });
    const f = await buildFixture();
    const state = stateWith({ question: QUESTION, opened: [f.chunks.rateLimits] });
    expect(trustIssues(result.answer, state)).toEqual([]);
  });
});
