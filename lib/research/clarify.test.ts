import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { failingModel, hangingModel, scriptedModel } from '../../test/support/agent/mock-models';
import { clarifyingQuestions, deterministicQuestions, refinedQuestion } from './clarify';

const BUCKETS = [
  { id: 'b1', name: 'manuals' },
  { id: 'b2', name: 'contracts' },
];
const ask = (question: string, over: Partial<Parameters<typeof deterministicQuestions>[0]> = {}) =>
  deterministicQuestions({ question, buckets: BUCKETS, filters: undefined, ...over });

describe('clarifying questions without a model', () => {
  it('asks about aspects, scope and period for a broad request', () => {
    const qs = ask('Tell me about deployments');
    expect(qs.map((q) => q.id)).toEqual(['q1', 'q2', 'q3']);
    expect(qs[0]?.question).toMatch(/aspects of "deployments"/);
    expect(qs[1]?.options).toEqual(['manuals', 'contracts', 'All of them']);
    expect(qs[2]?.question).toMatch(/time period/);
    expect(qs.every((q) => q.answer === null && !q.skipped && q.reason.length > 0)).toBe(true);
  });

  it('asks nothing for a specific, scoped, dated request', () => {
    expect(ask('What do the manuals say about rollback steps, owners and timing for deployments in 2024?')).toEqual([]);
  });

  it('asks for comparison criteria when a comparison names fewer than two things', () => {
    const qs = ask('Compare the contracts');
    expect(qs[0]?.question).toMatch(/compared/);
  });

  it('does not ask about collections when the caller already scoped the request', () => {
    const qs = ask('Tell me about deployments', { filters: { bucketIds: ['b1'] } });
    expect(qs.some((q) => /collections/.test(q.question))).toBe(false);
    const single = ask('Tell me about deployments', { buckets: [BUCKETS[0] ?? { id: 'x', name: 'x' }] });
    expect(single.some((q) => /collections/.test(q.question))).toBe(false);
  });

  it('never asks more than three questions, whatever the request (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (question) => {
        const qs = ask(question);
        expect(qs.length).toBeLessThanOrEqual(3);
        expect(new Set(qs.map((q) => q.id)).size).toBe(qs.length);
      }),
    );
  });
});

describe('clarifying questions with a model', () => {
  const input = { question: 'Tell me about deployments', buckets: BUCKETS, filters: undefined };
  const limits = { timeoutMs: 5_000 };

  it("uses the model's questions (at most three) when it answers well", async () => {
    const model = scriptedModel({
      json: [
        {
          ambiguous: true,
          questions: [
            {
              question: 'Which environment: staging or production?',
              reason: 'both exist',
              options: ['staging', 'production'],
            },
          ],
        },
      ],
    });
    const out = await clarifyingQuestions(input, { model, ...limits });
    expect(out.source).toBe('model');
    expect(out.questions).toEqual([
      {
        id: 'q1',
        question: 'Which environment: staging or production?',
        reason: 'both exist',
        options: ['staging', 'production'],
        answer: null,
        skipped: false,
      },
    ]);
  });

  it('asks nothing when the model finds the request clear', async () => {
    const model = scriptedModel({ json: [{ ambiguous: false, questions: [] }] });
    const out = await clarifyingQuestions(input, { model, ...limits });
    expect(out).toMatchObject({ source: 'model', questions: [] });
  });

  it('falls back to the deterministic questions on malformed output, errors and timeouts', async () => {
    const expected = deterministicQuestions(input);
    for (const model of [
      scriptedModel({ json: ['{"ambiguous": "maybe"'] }),
      scriptedModel({
        json: [{ ambiguous: true, questions: Array(5).fill({ question: 'Why though?', reason: '', options: [] }) }],
      }),
      failingModel(),
    ]) {
      const out = await clarifyingQuestions(input, { model, ...limits });
      expect(out.source).toBe('deterministic');
      expect(out.fallback).toBeTruthy();
      expect(out.questions).toEqual(expected);
    }
    const slow = await clarifyingQuestions(input, { model: hangingModel(), timeoutMs: 50 });
    expect(slow.fallback).toMatch(/timeout/);
  });
});

describe('refinedQuestion', () => {
  it('adds the answered questions and leaves skipped ones out', () => {
    const base = { reason: '', options: [] };
    expect(
      refinedQuestion('Deployments?', [
        { ...base, id: 'q1', question: 'a', answer: 'rollback', skipped: false },
        { ...base, id: 'q2', question: 'b', answer: null, skipped: true },
        { ...base, id: 'q3', question: 'c', answer: '2024', skipped: false },
      ]),
    ).toBe('Deployments? (rollback; 2024)');
    expect(refinedQuestion('Deployments?', [])).toBe('Deployments?');
  });
});
