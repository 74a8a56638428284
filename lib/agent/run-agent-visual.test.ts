import { describe, expect, it } from 'vitest';
import type { VisionPort } from '@/lib/visual/port';
import { buildFixture, OWNER } from '../../test/support/agent/fixtures';
import { scriptedModel } from '../../test/support/agent/mock-models';
import { FINAL_STEP, NO_CONSTRAINTS, qaPlan, searchStep, toolStep } from '../../test/support/agent/script-steps';
import type { AgentEvent } from './events';
import { runAgent } from './run-agent';
import type { AgentResult } from './types';

/** A whole run with a (fake) vision model: read a page as a picture, cite it, never quote it. */

const CONSTRAINTS_NONE = NO_CONSTRAINTS;
const PLAN = qaPlan(
  ['reindex orders'],
  ['Search with search_docs', 'Read the page image with visual_interpretation', 'Answer with citations'],
);
const SEARCH = searchStep('reindex orders');
const LOOK = toolStep('visual_interpretation', 'r1');
const FINAL = FINAL_STEP;
const READING = 'The bar chart shows reindex time rising from 4 to 9 minutes over the year.';

async function run(vision: VisionPort | null, texts: string[]): Promise<{ result: AgentResult; events: AgentEvent[] }> {
  const f = await buildFixture();
  f.catalog.add({ ...f.docs.ops, mime: 'application/pdf' });
  const model = scriptedModel({ json: [CONSTRAINTS_NONE, PLAN, SEARCH, LOOK, FINAL, FINAL, FINAL], texts });
  const events: AgentEvent[] = [];
  const result = await runAgent(
    {
      question: 'How has the reindex time of the orders table changed?',
      ownerId: OWNER,
      mode: 'agent',
      style: 'concise',
    },
    {
      index: f.index,
      catalog: f.catalog,
      embedder: null,
      models: { decision: model, synthesis: null, names: { decision: 'mock', synthesis: null, embedding: null } },
      vision,
    },
    (e) => events.push(e),
  );
  return { result, events };
}

function fakeVision(calls: number[]): VisionPort {
  return {
    model: 'fake-vl',
    flaggedPages: async () => [],
    read: async ({ ownerId, page }) => {
      calls.push(page ?? 0);
      expect(ownerId).toBe(OWNER);
      return { text: READING, page, width: 724, height: 1024, renderMs: 5, modelMs: 9 };
    },
  };
}

describe('runAgent with a vision model', () => {
  it('reads the page, shows it in the trace, refuses a quote of the reading and accepts the rewrite citing its page', async () => {
    const calls: number[] = [];
    const { result, events } = await run(fakeVision(calls), [
      'The chart says "rising from 4 to 9 minutes" [1].',
      'The chart shows reindex time rising from 4 to 9 minutes [1].',
    ]);
    expect(calls).toEqual([3]);
    const results = events.filter((e) => e.type === 'tool_result' && e.tool === 'visual_interpretation');
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ ok: true, hits: 1 });
    expect(events.some((e) => e.type === 'tool_call' && e.tool === 'visual_interpretation')).toBe(true);
    const rejected = events.flatMap((e) => (e.type === 'validation' ? e.errors.map((x) => x.code) : []));
    expect(rejected).toContain('QUOTE_NOT_FOUND');
    expect(result.validated).toBe(true);
    expect(result.answer).not.toContain('"rising');
    expect(result.citations[0]).toMatchObject({ page: 3, headingPath: 'visual reading by fake-vl' });
    expect(result.citations[0]?.chunkId.startsWith('visual:')).toBe(true);
  });

  it('without a vision model the tool is not offered, and a call to it reads nothing', async () => {
    const { result, events } = await run(null, ['The documents do not show a chart.']);
    const ok = events.filter((e) => e.type === 'tool_result' && e.tool === 'visual_interpretation' && e.ok);
    expect(ok).toHaveLength(0);
    expect(result.citations.every((c) => !c.chunkId.startsWith('visual:'))).toBe(true);
  });
});
