import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument, NO_MODELS, OWNER } from '../../test/support/agent/fixtures';
import { createMemoryCatalog } from '../../test/support/agent/memory-catalog';
import { createMemoryChunkIndex } from '../../test/support/agent/memory-chunk-index';
import { runAgent } from './run-agent';
import type { AgentResult } from './types';

/**
 * Explicit cross-references through the public run entry point, in extractive mode: a passage that points to
 * "Section 4.2 of the Integration Guide" or "Appendix B" is followed within the limits, and the answer cites and
 * quotes the referenced section, not only the passage that points to it.
 */

const TEXT = {
  webhooks:
    'Webhook deliveries. A delivery that fails is retried on the backoff schedule defined in Section 4.2 of the Integration Guide. Each delivery carries a signature header.',
  // Shares more of the question's words than 4.2 does: the label, not the score, picks the referenced section.
  guideAuth:
    'Section 4.1 Authentication. A webhook delivery that fails its signature check is not retried on any backoff schedule; every webhook delivery is signed with HMAC-SHA256.',
  guideRetry:
    'Section 4.2 Retry schedule. Failed webhook deliveries are retried after 1, 5 and 30 minutes; after the third retry the delivery is dropped and logged.',
  retention:
    'Log handling. Access logs are rotated daily. How long the rotated logs are kept is set out in Appendix B.',
  appendix: 'Appendix B Retention periods. Rotated access logs are kept for 90 days and then deleted.',
  unrelated: 'Office notes. The cafeteria opens at 8 and the retry of the coffee machine order is pending.',
};

async function corpus() {
  const docs = {
    webhooks: makeDocument({ filename: 'webhooks.md' }),
    guide: makeDocument({ filename: 'integration-guide.md', title: 'Integration Guide', chunkCount: 2 }),
    logs: makeDocument({ filename: 'logging-policy.md', chunkCount: 2 }),
    office: makeDocument({ filename: 'office-notes.md' }),
  };
  const index = createMemoryChunkIndex();
  await index.upsert([
    makeChunk(docs.webhooks, 0, TEXT.webhooks),
    makeChunk(docs.guide, 0, TEXT.guideAuth, { headingPath: 'Webhooks > 4.1 Authentication' }),
    makeChunk(docs.guide, 1, TEXT.guideRetry, { headingPath: 'Webhooks > 4.2 Retry schedule' }),
    makeChunk(docs.logs, 0, TEXT.retention),
    makeChunk(docs.logs, 7, TEXT.appendix, { headingPath: 'Appendix B' }),
    makeChunk(docs.office, 0, TEXT.unrelated),
  ]);
  return { index, catalog: createMemoryCatalog(Object.values(docs)) };
}

async function ask(question: string, limits: Record<string, number> = {}): Promise<AgentResult> {
  const { index, catalog } = await corpus();
  return runAgent(
    { question, ownerId: OWNER, mode: 'agent', style: 'concise' },
    { index, catalog, embedder: null, models: NO_MODELS, limits },
  );
}

const opened = (r: AgentResult) =>
  r.trace.flatMap((e) => (e.type === 'tool_result' && e.tool === 'open_citation' && e.ok ? [e.summary] : []));
const followed = (r: AgentResult) =>
  r.trace.filter((e) => e.type === 'tool_call' && e.tool === 'follow_reference').length;

describe('explicit cross-references, end to end (extractive mode)', () => {
  it('follows "Section 4.2 of the Integration Guide" into that guide and quotes the referenced section', async () => {
    const r = await ask('What backoff schedule is used when a webhook delivery fails?');
    expect(followed(r)).toBe(1);
    expect(opened(r).some((s) => s.includes('integration-guide.md'))).toBe(true);
    expect(r.validated).toBe(true);
    expect(r.answer).toContain('retried after 1, 5 and 30 minutes');
    expect(r.citations.map((c) => c.filename)).toContain('integration-guide.md');
    expect(r.answer).toMatch(
      /Referenced Section 4\.2: "Failed webhook deliveries are retried after 1, 5 and 30 minutes[^"]*" \[\d\]/,
    );
    expect(
      r.citations.some((c) => c.filename === 'integration-guide.md' && c.quote.includes('retried after 1, 5 and 30')),
    ).toBe(true);
  });

  it('follows "Appendix B" within the same document', async () => {
    const r = await ask('How long are rotated access logs kept?');
    expect(followed(r)).toBe(1);
    expect(r.answer).toContain('kept for 90 days');
    expect(r.citations.map((c) => c.filename)).toContain('logging-policy.md');
  });

  it('does not follow when the tool budget leaves no room, and still answers from what it opened', async () => {
    const r = await ask('What backoff schedule is used when a webhook delivery fails?', { maxToolCalls: 2 });
    expect(followed(r)).toBe(0);
    expect(r.trace.filter((e) => e.type === 'tool_call').length).toBeLessThanOrEqual(2);
    expect(r.validated).toBe(true);
  });

  it('follows nothing when no opened passage refers to another section', async () => {
    const r = await ask('When does the cafeteria open?');
    expect(followed(r)).toBe(0);
  });
});
