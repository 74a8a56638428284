import { describe, expect, it } from 'vitest';
import { failingModel, scriptedModel } from '../../test/support/agent/mock-models';
import { deterministicPlan, researchPlan, toTasks } from './plan';
import { MAX_TASKS } from './schema';

describe('the research plan without a model (the decomposition)', () => {
  it('gives one task per topic the request names', () => {
    const plan = deterministicPlan('Cover three topics: rollback, monitoring and owners of deployments.');
    expect(plan.length).toBeGreaterThanOrEqual(3);
    expect(plan.map((t) => t.title.toLowerCase()).join(' ')).toMatch(/rollback/);
  });

  it('splits a comparison into its two sides and their differences', () => {
    const plan = deterministicPlan('Compare the deployment guide and the release checklist');
    expect(plan.map((t) => t.title)).toEqual(['The deployment guide', 'The release checklist', 'Differences']);
  });

  it('gives overview, specifics and limits for a request with one subject, with the answers added to each query', () => {
    const plan = deterministicPlan('Tell me about deployments', 'production only');
    expect(plan.map((t) => t.title)).toEqual(['Overview', 'Specifics', 'Limits and exceptions']);
    expect(plan.every((t) => t.query.endsWith('(production only)'))).toBe(true);
  });

  it('never gives more than the task limit, nor duplicate queries', () => {
    const many = `Cover these topics: ${Array.from({ length: 12 }, (_, i) => `topic${i}`).join(', ')}.`;
    const plan = deterministicPlan(many);
    expect(plan.length).toBeLessThanOrEqual(MAX_TASKS);
    expect(new Set(plan.map((t) => t.query)).size).toBe(plan.length);
  });
});

describe('the research plan with a model', () => {
  it("uses the model's tasks when they parse", async () => {
    const model = scriptedModel({
      json: [{ tasks: [{ title: 'Pipeline', query: 'How does the release pipeline work?' }] }],
    });
    const out = await researchPlan('Tell me about deployments', '', { model, timeoutMs: 5_000 });
    expect(out).toMatchObject({ source: 'model', tasks: [{ title: 'Pipeline' }] });
  });

  it('falls back to the decomposition on a malformed plan or a failing model', async () => {
    for (const model of [scriptedModel({ json: [{ tasks: [] }] }), failingModel()]) {
      const out = await researchPlan('Tell me about deployments', '', { model, timeoutMs: 5_000 });
      expect(out.source).toBe('deterministic');
      expect(out.tasks).toEqual(deterministicPlan('Tell me about deployments'));
      expect(out.fallback).toBeTruthy();
    }
  });
});

describe('toTasks', () => {
  it('keeps given ids, gives fresh unique ids to new tasks and numbers the order', () => {
    const tasks = toTasks(
      [
        { title: 'a', query: 'a?' },
        { title: 'b', query: 'b?' },
        { title: 'c', query: 'c?' },
      ],
      [undefined, 't1', undefined],
    );
    expect(tasks.map((t) => t.id)).toEqual(['t2', 't1', 't3']);
    expect(tasks.map((t) => t.order)).toEqual([0, 1, 2]);
    expect(tasks.every((t) => t.status === 'pending' && t.trace.length === 0)).toBe(true);
  });
  it("never gives a new task a deleted task's id (the run's log names it)", () => {
    const tasks = toTasks(
      [
        { title: 'Kept', query: 'Kept?' },
        { title: 'New', query: 'New?' },
      ],
      ['t3', undefined],
      ['t1', 't2', 't3'],
    );
    expect(tasks.map((t) => t.id)).toEqual(['t3', 't4']);
  });
});
