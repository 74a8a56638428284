import { describe, expect, it } from 'vitest';
import { NO_CONSTRAINTS } from '../../test/support/agent/script-steps';
import { analyzeConstraints, capConstraints, hasDemands, mergeConstraints } from './constraints';

const RUNBOOK =
  'Produce an operational runbook with sections Reindex, Delete and Rate limits. Do separate tool searches for each topic: ' +
  'reindex SQL, delete order verification, rate limit retry policy. Use open_citation for at least two citations. ' +
  "Quote one exact SQL line. If documents conflict, the newest dated document wins. If anything is missing, explicitly say 'Insufficient documentation'.";

describe('analyzeConstraints (patterns)', () => {
  it('reads every demand of a multi-part runbook question', () => {
    const c = analyzeConstraints(RUNBOOK);
    expect(c.minSearches).toBe(3);
    expect(c.requiredTopics).toEqual(['reindex SQL', 'delete order verification', 'rate limit retry policy']);
    expect(c.minOpenCitations).toBe(2);
    expect(c.exactQuotes).toEqual(['SQL line']);
    expect(c.conflictRule).toBe('newest');
    expect(c.requiredSections).toEqual(['Reindex', 'Delete', 'Rate limits']);
    expect(c.insufficiencyPhrase).toBe('Insufficient documentation');
    expect(hasDemands(c)).toBe(true);
  });

  it('a simple prompt has minimal constraints', () => {
    const c = analyzeConstraints('What are the deployment steps?');
    expect(c).toMatchObject({
      minSearches: 1,
      requiredTopics: [],
      minOpenCitations: 0,
      exactQuotes: [],
      conflictRule: null,
      requiredSections: [],
      insufficiencyPhrase: null,
    });
    expect(hasDemands(c)).toBe(false);
  });

  it.each([
    ['Make at least 3 tool calls before answering about backups.', 3],
    ['Use separate searches for each of these: backups, restores', 2],
    ['Run two separate searches on the retention policy.', 2],
  ])('multiple searches: %s', (q, n) => {
    expect(analyzeConstraints(q).minSearches).toBe(n);
  });

  it.each([
    ['Open at least three sources about TLS.', 3],
    ['Read the full text of the source before answering about TLS.', 1],
    ['Cite at least two sources on retention.', 2],
  ])('open citations: %s', (q, n) => {
    expect(analyzeConstraints(q).minOpenCitations).toBe(n);
  });

  it.each([
    ['Quote the exact command to restart the worker.', 'command'],
    ['Give me the verbatim wording of the retention clause.', 'wording'],
    ['What does the policy say? Answer verbatim.', 'verbatim passage'],
  ])('exact quotes: %s', (q, what) => {
    expect(analyzeConstraints(q).exactQuotes).toEqual([what]);
  });

  it.each([
    ['Which timeout applies? Prefer the most recent document.', 'newest'],
    ['If the sources disagree, resolve conflicts by flagging them.', 'flag'],
    ['Use the oldest document if they differ.', 'oldest'],
  ])('conflict rule: %s', (q, rule) => {
    expect(analyzeConstraints(q).conflictRule).toBe(rule);
  });

  it('custom insufficiency phrase and "say so"', () => {
    expect(
      analyzeConstraints('Summarise backups; if the docs do not cover it, say "Not documented".').insufficiencyPhrase,
    ).toBe('Not documented');
    expect(analyzeConstraints('Explain restores. If anything is missing, say so.').insufficiencyPhrase).toBe(
      'Insufficient documentation',
    );
    // A quoted phrase that is not about missing information is not an insufficiency phrase.
    expect(analyzeConstraints('Should I say "hello" to the API?').insufficiencyPhrase).toBeNull();
  });

  it('sections with a colon list', () => {
    expect(
      analyzeConstraints('Write a report with the following sections: Scope, Risks, Next steps.').requiredSections,
    ).toEqual(['Scope', 'Risks', 'Next steps']);
  });
});

describe('mergeConstraints (model pass)', () => {
  const limits = { maxToolCalls: 5, maxContextCitations: 5 };
  it('raises minimums, keeps only grounded additions and phrases present in the question', () => {
    const q =
      'Compare the backup and restore procedures, each searched on its own, and list what is missing as "Not covered".';
    const base = analyzeConstraints(q);
    const merged = mergeConstraints(
      base,
      {
        minSearches: 2,
        requiredTopics: ['backup procedure', 'restore procedure', 'kubernetes operators'],
        minOpenCitations: 1,
        exactQuotes: [],
        conflictRule: 'none',
        requiredSections: [],
        insufficiencyPhrase: 'Not covered',
      },
      q,
      limits,
    );
    expect(merged.requiredTopics).toEqual(['backup procedure', 'restore procedure']);
    expect(merged.minSearches).toBe(2);
    expect(merged.minOpenCitations).toBe(1);
    expect(merged.insufficiencyPhrase).toBe('Not covered');
    expect(merged.source).toBe('patterns+model');

    const invented = mergeConstraints(
      base,
      {
        ...NO_CONSTRAINTS,
        insufficiencyPhrase: 'I am a teapot',
      },
      q,
      limits,
    );
    expect(invented.insufficiencyPhrase).toBe(base.insufficiencyPhrase);
  });

  it('caps minimums to the tool budget', () => {
    const c = capConstraints({ ...analyzeConstraints('x'), minSearches: 9, minOpenCitations: 9 }, limits);
    expect(c.minSearches).toBe(4);
    expect(c.minOpenCitations).toBe(1);
  });
});
