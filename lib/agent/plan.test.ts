import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../test/support/agent/mock-models';
import { analyzeConstraints } from './constraints';
import { defaultPlan, explicitDateFilter, parseStepList, planWithModel, reconcilePlan } from './plan';

const buckets = [
  { id: 'b1', name: 'contracts' },
  { id: 'b2', name: 'invoices' },
];

describe('plan', () => {
  it('default plan: topics become sub-queries, 2-5 steps, bucket named in the question becomes a filter', () => {
    const q = 'Use separate searches for each topic: termination notice, renewal terms. Look in contracts.';
    const plan = defaultPlan(q, analyzeConstraints(q), buckets, 'concise');
    expect(plan.subQueries).toEqual(['termination notice', 'renewal terms']);
    expect(plan.filters).toEqual({ bucketIds: ['b1'] });
    expect(plan.steps.length).toBeGreaterThanOrEqual(2);
    expect(plan.steps.length).toBeLessThanOrEqual(5);
    expect(plan.source).toBe('default');
  });

  it('reads explicit document-date ranges only', () => {
    expect(explicitDateFilter('Show invoices from 2023 over $1k')).toEqual({
      dateFrom: '2023-01-01',
      dateTo: '2023-12-31',
    });
    expect(explicitDateFilter('Why did revolutions break out in 1830?')).toEqual({});
  });

  it('reconciles a model plan: unknown buckets and bad dates dropped, required topics kept', () => {
    const q = 'Search separately for each topic: termination notice, renewal terms';
    const c = analyzeConstraints(q);
    const plan = reconcilePlan(
      {
        intent: 'qa',
        buckets: ['Contracts', 'secret-bucket'],
        dateFrom: '2023',
        dateTo: '2023-12-31',
        subQueries: ['termination'],
        outputFormat: 'list',
        steps: ['search', 'answer'],
      },
      defaultPlan(q, c, buckets, 'concise'),
      c,
      buckets,
    );
    expect(plan.filters).toEqual({ bucketIds: ['b1'], dateTo: '2023-12-31' });
    expect(plan.subQueries).toEqual(['termination', 'termination notice', 'renewal terms']);
  });

  it('plans typed filters for a named bucket with a schema, from the wording or from the model (checked)', () => {
    const typed = [
      {
        id: 'inv',
        name: 'invoices',
        metaSchema: {
          fields: [
            { name: 'total_amount', type: 'number' as const, required: true },
            { name: 'issued', type: 'date' as const, required: true },
          ],
        },
      },
    ];
    const q = 'invoices over 1000 issued in 2023';
    const c = analyzeConstraints(q);
    const fallback = defaultPlan(q, c, typed, 'concise');
    expect(fallback.filters.bucketIds).toEqual(['inv']);
    expect(fallback.filters.meta).toEqual([
      { field: 'total_amount', type: 'number', op: '>', values: [1000] },
      { field: 'issued', type: 'date', op: 'between', values: ['2023-01-01', '2023-12-31'] },
    ]);
    expect(fallback.filters.dateFrom).toBeUndefined();
    // Without the schema the same words make no typed filter.
    expect(defaultPlan(q, c, [{ id: 'inv', name: 'invoices' }], 'concise').filters.meta).toBeUndefined();

    const model = {
      intent: 'list' as const,
      buckets: ['invoices'],
      dateFrom: '',
      dateTo: '',
      subQueries: ['invoice total'],
      outputFormat: 'list' as const,
      steps: ['search', 'answer'],
    };
    const fromModel = reconcilePlan(
      {
        ...model,
        typedFilters: [
          { field: 'total_amount', op: 'between', value: '1000..5000' },
          { field: 'vendor', op: '=', value: 'ACME' },
          { field: 'issued', op: '>', value: 'last year' },
        ],
      },
      fallback,
      c,
      typed,
    );
    expect(fromModel.filters.meta).toEqual([
      { field: 'total_amount', type: 'number', op: 'between', values: [1000, 5000] },
    ]);
    // A model plan with no valid typed filter keeps the ones read from the wording.
    expect(reconcilePlan({ ...model, typedFilters: [] }, fallback, c, typed).filters.meta).toEqual(
      fallback.filters.meta,
    );
  });

  it('parses steps given as a JSON array, a numbered list or a bulleted list', () => {
    expect(parseStepList('["Search X", "Answer"]')).toEqual(['Search X', 'Answer']);
    expect(parseStepList('1. Search X\n2. Open r1\n3. Answer')).toEqual(['Search X', 'Open r1', 'Answer']);
    expect(parseStepList('- a\n- b')).toEqual(['a', 'b']);
    expect(parseStepList('no plan here')).toBeNull();
  });

  it('falls back to the default plan when the model output does not parse', async () => {
    const q = 'What is the notice period?';
    const c = analyzeConstraints(q);
    const fallback = defaultPlan(q, c, buckets, 'concise');
    const out = await planWithModel({
      model: scriptedModel({ json: ['I think you should search.'] }),
      question: q,
      constraints: c,
      buckets,
      fallback,
      timeoutMs: 1000,
      now: () => performance.now(),
    });
    expect(out.plan).toBe(fallback);
    expect(out.failure).toContain('malformed');
    const numbered = await planWithModel({
      model: scriptedModel({ json: ['1. search notice\n2. answer'] }),
      question: q,
      constraints: c,
      buckets,
      fallback,
      timeoutMs: 1000,
      now: () => performance.now(),
    });
    expect(numbered.plan.steps).toEqual(['search notice', 'answer']);
  });
});
