import { describe, expect, it } from 'vitest';
import { GATE_CASES, judgeGateCase, runGateCase } from '../../../test/support/agent/gate-cases';

describe('trust gate: adversarial drafts through runAgent', () => {
  it('has at least 40 cases covering every class, both ways', () => {
    expect(GATE_CASES.length).toBeGreaterThanOrEqual(40);
    expect(new Set(GATE_CASES.map((c) => c.id)).size).toBe(GATE_CASES.length);
    for (const kind of ['quote', 'number', 'code', 'admission', 'marker', 'normalisation', 'quick', 'extractive'])
      expect(GATE_CASES.some((c) => c.kind === kind)).toBe(true);
  });

  it.each(GATE_CASES.map((c) => [`${c.expect} ${c.id}`, c] as const))('%s', async (_name, c) => {
    const run = await runGateCase(c);
    const verdict = judgeGateCase(c, run);
    expect(verdict.why).toBe(c.expect === 'block' ? 'blocked' : 'accepted');
  });
});
