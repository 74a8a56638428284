import { describe, expect, it } from 'vitest';
import { buildFixture, makeChunk, makeDocument, TEXT } from '../../../test/support/agent/fixtures';
import { stateWith } from '../../../test/support/agent/state';
import { trustIssues } from '../validate';
import { deliverable, insufficiencyReport, notice } from './deliver';

const QUESTION = 'What are the API rate limits per token?';
const INVENTED =
  'The public API allows 900 requests per minute per token [1]. Premium tokens are never throttled and "retry at once" [1].';

describe('deliverable', () => {
  it('passes a verified draft through, repairs a failing one, and reports when nothing passes', async () => {
    const f = await buildFixture();
    const state = stateWith({ question: QUESTION, opened: [f.chunks.rateLimits] });
    const base = {
      state,
      stopped: false,
      insufficiencies: [],
      trust: (t: string) => trustIssues(t, state),
      repair: () => 'Still 900 requests [1].',
    };
    const ok = 'The public API allows 100 requests per minute per token [1].';
    expect(deliverable({ ...base, draft: ok })).toMatchObject({ text: ok, kind: 'verified', stopped: false });
    const repaired = deliverable({ ...base, draft: INVENTED, repair: () => ok });
    expect(repaired).toMatchObject({ text: ok, kind: 'repaired' });
    const report = deliverable({ ...base, draft: INVENTED });
    expect(report.kind).toBe('report');
    expect(report.text).toBe(insufficiencyReport(state, [], false));
    expect(deliverable({ ...base, draft: '   ' }).kind).toBe('report');
    // A repair that keeps only admissions is no answer: the report says more.
    const admission = deliverable({ ...base, draft: INVENTED, repair: () => 'The documents do not say.' });
    expect(admission.kind).toBe('report');
    expect(admission.text).toBe(insufficiencyReport(state, [], false, 'The documents do not say.'));
    const honest = deliverable({ ...base, draft: 'The documents do not say.' });
    expect(honest).toMatchObject({
      kind: 'verified',
      text: insufficiencyReport(state, [], false, 'The documents do not say.'),
    });
    expect(notice('Which document?')).toMatchObject({ text: 'Which document?', kind: 'notice', stopped: false });
  });

  it('the report names the searches, the opened passages and what is missing', async () => {
    const f = await buildFixture();
    const state = stateWith({ question: QUESTION, opened: [f.chunks.reindex], queries: ['reindex', 'reindex'] });
    const text = insufficiencyReport(
      state,
      [
        { section: 'Answer', missing: 'No rate limit passage', queriesTried: [] },
        { section: 'Retries', missing: 'No retry policy', queriesTried: [] },
      ],
      false,
    );
    expect(text).toBe(
      [
        'Insufficient documentation: no answer could be verified against your documents.',
        '- Searched: "reindex".',
        '- Found: 1 passage(s) opened: operations.md (p. 3, Maintenance > Reindex).',
        '- Missing: No rate limit passage; Retries: No retry policy.',
      ].join('\n'),
    );
    const down = stateWith({ question: QUESTION, opened: [], queries: ['rate limits'] });
    down.safetyFlags.add('index_unavailable');
    expect(insufficiencyReport(down, [], false).split('\n')[0]).toBe(
      'The search index is not reachable right now, so your documents could not be searched. Please try again in a moment.',
    );
    const delivered = deliverable({
      state: down,
      draft: 'The documents do not say.',
      stopped: false,
      insufficiencies: [],
      trust: () => [],
      repair: (d) => d,
    });
    expect(delivered).toMatchObject({ kind: 'report', text: insufficiencyReport(down, [], false) });
    const empty = stateWith({ question: QUESTION, opened: [], queries: [] });
    expect(insufficiencyReport(empty, [], true)).toBe(
      [
        'The run was stopped before an answer could be checked against your documents, so no answer is given.',
        '- Searched: no search was run.',
        '- Found: no passage was opened.',
        '- Missing: a passage that states an answer to the question, quoted and cited.',
      ].join('\n'),
    );
  });
});

describe('deliverable, branch by branch', () => {
  const rate = makeChunk(makeDocument({ filename: 'rate-limits.md' }), 0, TEXT.rateLimits);
  const CITED = 'The public API allows 100 requests per minute per token [1].';
  const HONEST = 'The documents do not say how long tokens last.';
  const NOTE = '(Stopped before the answer was finished; the text above is what had been checked against the sources.)';
  const setup = (opened = [rate]) => {
    const state = stateWith({ question: QUESTION, opened });
    return {
      state,
      stopped: false,
      insufficiencies: [],
      trust: (t: string) => trustIssues(t, state),
      repair: (d: string) => d,
    };
  };

  it('a stopped run delivers checked text with a note saying it was stopped, or the report saying so', () => {
    const base = { ...setup(), stopped: true };
    expect(deliverable({ ...base, draft: CITED })).toEqual({
      text: `${CITED}\n\n${NOTE}`,
      kind: 'verified',
      stopped: true,
    });
    expect(deliverable({ ...base, draft: INVENTED, repair: () => CITED })).toEqual({
      text: `${CITED}\n\n${NOTE}`,
      kind: 'repaired',
      stopped: true,
    });
    const report = { text: insufficiencyReport(base.state, [], true), kind: 'report', stopped: true };
    expect(deliverable({ ...base, draft: INVENTED })).toEqual(report);
    // An honest admission does not lead a stopped run's report: the run did not finish looking.
    expect(deliverable({ ...base, draft: HONEST })).toEqual(report);
  });

  it('an answer is only what states something cited: a cited heading over an admission is no answer', () => {
    const base = setup();
    const headed = `## Rate limits [1]\n\n${HONEST}`;
    expect(deliverable({ ...base, draft: headed })).toEqual({
      text: insufficiencyReport(base.state, [], false, headed),
      kind: 'verified',
      stopped: false,
    });
    const mixed = `${CITED} ${HONEST}`;
    expect(deliverable({ ...base, draft: mixed })).toEqual({ text: mixed, kind: 'verified', stopped: false });
  });

  it('with nothing opened, an honest draft is the answer; an unreachable index is said even when the draft passes', () => {
    const none = setup([]);
    expect(deliverable({ ...none, draft: HONEST })).toEqual({ text: HONEST, kind: 'verified', stopped: false });
    expect(deliverable({ ...none, draft: HONEST, stopped: true }).kind).toBe('report');
    // The index failed after a passage was opened: what was opened still answers.
    const late = setup();
    late.state.safetyFlags.add('index_unavailable');
    expect(deliverable({ ...late, draft: CITED })).toEqual({ text: CITED, kind: 'verified', stopped: false });
    // Its report (had nothing passed) lists what was opened under the usual head, not "the index is unreachable".
    expect(insufficiencyReport(late.state, [], false).split('\n')[0]).toBe(
      'Insufficient documentation: no answer could be verified against your documents.',
    );
    const down = setup([]);
    down.state.safetyFlags.add('index_unavailable');
    expect(deliverable({ ...down, draft: HONEST, trust: () => [] }).text.split('\n')[0]).toBe(
      'The search index is not reachable right now, so your documents could not be searched. Please try again in a moment.',
    );
  });

  it('an empty draft is never repaired into an answer; a repaired text is trimmed', () => {
    const base = setup();
    const empty = deliverable({ ...base, draft: '  ', trust: () => [], repair: () => CITED });
    expect(empty).toEqual({ text: insufficiencyReport(base.state, [], false), kind: 'report', stopped: false });
    expect(deliverable({ ...base, draft: INVENTED, repair: () => `  ${CITED}\n` })).toEqual({
      text: CITED,
      kind: 'repaired',
      stopped: false,
    });
  });

  it('the report heads with the insufficiency phrase when nothing was opened and the index is up', () => {
    const none = setup([]);
    expect(insufficiencyReport(none.state, [], false).split('\n')[0]).toBe(
      'Insufficient documentation: no answer could be verified against your documents.',
    );
  });

  it('the report names each passage by file and only the locations it has', () => {
    const sheet = makeChunk(makeDocument({ filename: 'budget.xlsx' }), 0, 'Region | Sales', { sheet: 'Q3' });
    const state = stateWith({ question: QUESTION, opened: [rate, sheet], queries: ['limits', 'budget'] });
    expect(insufficiencyReport(state, [], false).split('\n').slice(1, 3)).toEqual([
      '- Searched: "limits", "budget".',
      '- Found: 2 passage(s) opened: rate-limits.md; budget.xlsx (sheet Q3).',
    ]);
  });
});
