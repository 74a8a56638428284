import { describe, expect, it } from 'vitest';
import { buildFixture } from '../../../test/support/agent/fixtures';
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
