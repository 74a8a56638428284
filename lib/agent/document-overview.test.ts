import { describe, expect, it } from 'vitest';
import { buildFixture, makeChunk, makeDocument, NO_MODELS, OWNER } from '../../test/support/agent/fixtures';
import { readsAsProse } from './document-answer';
import type { AgentEvent } from './events';
import { runAgent } from './run-agent';
import type { AgentDeps, RunAgentInput } from './types';

/** "What is this document about?" and its kin, answered from the documents' openings (read_opening). */

type Fixture = Awaited<ReturnType<typeof buildFixture>>;

async function run(question: string, over: Partial<RunAgentInput> = {}, fixture?: Fixture) {
  const f = fixture ?? (await buildFixture());
  const events: AgentEvent[] = [];
  const deps: AgentDeps = { index: f.index, catalog: f.catalog, embedder: null, models: NO_MODELS };
  const result = await runAgent({ question, ownerId: OWNER, mode: 'agent', style: 'concise', ...over }, deps, (e) =>
    events.push(e),
  );
  const tools = result.trace.flatMap((e) => (e.type === 'tool_call' ? [e.tool] : []));
  return { result, events, f, tools };
}

describe('overview questions in extractive mode', () => {
  it('describes the one document in scope with the first sentences of its opening, quoted and cited', async () => {
    const f = await buildFixture();
    const { result, tools } = await run(
      'What is this document about?',
      { filters: { documentIds: [f.docs.del.documentId] } },
      f,
    );
    expect(tools[0]).toBe('read_opening');
    expect(tools).not.toContain('search_docs');
    expect(result.validated).toBe(true);
    expect(result.answer).toContain('- delete-policy.md: ');
    expect(result.answer).toContain(
      '"Before deleting an order, verify that its status is cancelled and that no invoice references it." [1]',
    );
    // A three-word heading is not what a document is about.
    expect(result.answer).not.toContain('"Delete order verification."');
    expect(result.citations.every((c) => c.documentId === f.docs.del.documentId)).toBe(true);
    // An opening describes a document without showing the description is complete: Medium, never High.
    expect(result.confidence).toBe('medium');
  });

  it('lists the newest documents of the library, says how many there are, and never shows another owner or an unindexed one', async () => {
    const { result } = await run('What are my documents about?');
    expect(result.validated).toBe(true);
    const lines = result.answer.split('\n').filter((l) => l.startsWith('- '));
    expect(lines.length).toBeGreaterThanOrEqual(2);
    expect(lines.length).toBeLessThanOrEqual(4);
    expect(result.answer).toContain('your older documents in scope are not described here, only the newest');
    expect(result.insufficiencies.map((i) => i.missing).join('\n')).toContain('of your 6 documents in scope');
    expect(result.answer).not.toContain('bob-runbook.md');
    expect(result.answer).not.toContain('hunter2');
    expect(result.answer).not.toContain('draft.md');
    // The answer passed the gate as written, not after a repair.
    expect(result.trace.some((e) => e.type === 'draft_rejected')).toBe(false);
  });

  it('reads the document a question names by its title', async () => {
    const { result, tools } = await run('What is the Deployment Guide about?');
    expect(tools[0]).toBe('read_opening');
    expect(result.answer).toContain(
      '"Deployments run through the release pipeline: build the image, run migrations, then switch traffic gradually." [1]',
    );
    expect(result.citations.map((c) => c.filename)).toEqual(['deployment-guide.md']);
  });

  it("treats a name no document has as an ordinary question, and another owner's file name like a missing one", async () => {
    const gdpr = await run('What is GDPR about?');
    expect(gdpr.tools).not.toContain('read_opening');
    expect(gdpr.tools).toContain('search_docs');
    const bob = await run('What is bob-runbook.md about?');
    expect(bob.tools).not.toContain('read_opening');
    expect(bob.result.answer).not.toContain('hunter2');
    expect(bob.result.citations.some((c) => c.filename === 'bob-runbook.md')).toBe(false);
  });

  it('quick mode reads the opening too', async () => {
    const f = await buildFixture();
    const { result, tools } = await run(
      'Summarize this document.',
      { mode: 'quick', filters: { documentIds: [f.docs.guide.documentId] } },
      f,
    );
    expect(tools[0]).toBe('read_opening');
    expect(result.validated).toBe(true);
    expect(result.answer).toContain('Deployments run through the release pipeline');
  });

  it('describes a table by its header row', async () => {
    const f = await buildFixture();
    const doc = makeDocument({ filename: 'stanley-cups.csv', mime: 'text/csv' });
    const chunk = makeChunk(doc, 0, 'Stanley Cups\nTeam | Location | Stanley Cups\nBlues | STL | 1\nFlyers | PHI | 2', {
      sheet: 'stanley-cups',
    });
    doc.chunkIds = [chunk.chunkId];
    f.catalog.add(doc);
    await f.index.upsert([chunk]);
    const { result } = await run('What is this document about?', { filters: { documentIds: [doc.documentId] } }, f);
    expect(result.validated).toBe(true);
    expect(result.answer).toBe('- stanley-cups.csv: a table with the columns "Team | Location | Stanley Cups" [1]');
  });

  it('never quotes planted instructions from an opening', async () => {
    const f = await buildFixture({ withPlanted: true });
    const { result } = await run(
      'What is this document about?',
      { filters: { documentIds: [f.docs.planted.documentId] } },
      f,
    );
    expect(result.answer).not.toMatch(/Ignore previous instructions|attacker@evil/);
    expect(result.answer).toContain('"The backup window is 02:00-04:00 UTC." [1]');
  });
});

describe('readsAsProse (what an overview may quote)', () => {
  it.each([
    'The Handbook establishes the position of the Program on the duties owed by a standing trustee.',
    'Die Stadt Chelsea hat einen Plan für den aktiven Transport beschlossen.',
    'Ce document présente le plan d’action du transport actif de la ville.',
    '本报告介绍了公司二零一八年第一季度的经营情况和主要财务数据。',
    '“Here’s to the crazy ones, the misfits, the rebels, the troublemakers.”',
  ])('accepts a sentence: %s', (text) => {
    expect(readsAsProse(text)).toBe(true);
  });

  it.each([
    '(Exact name of small business issuer as specified in its charter)',
    '305 – Las Vegas, NV 89118 (Address of principal executive offices)',
    'ANNUAL REPORT PURSUANT TO SECTION 13 OR 15(d) OF THE SECURITIES EXCHANGE ACT',
    'Team | Location | Stanley Cups',
    'Table of contents',
    'CIK 0001234567 SIC 7372 EIN 88-0123456 FY 2023 Q4',
  ])('rejects a line that is not prose: %s', (text) => {
    expect(readsAsProse(text)).toBe(false);
  });
});
