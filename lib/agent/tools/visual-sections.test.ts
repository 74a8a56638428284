import { describe, expect, it } from 'vitest';
import type { SummaryRecord } from '@/lib/summaries/search';
import type { VisionPort } from '@/lib/visual/port';
import { buildFixture, OTHER_OWNER, OWNER } from '../../../test/support/agent/fixtures';
import { stateWith } from '../../../test/support/agent/state';
import { checkAnswer } from '../gate/check';
import { createTools } from './registry';
import type { ToolContext } from './types';

function fakeVision(reads: { ownerId: string; documentId: string; page: number | null }[] = []): VisionPort {
  return {
    model: 'fake-vl',
    flaggedPages: async (ownerId, ids) =>
      ownerId === OWNER
        ? ids.map((documentId) => ({
            documentId,
            page: 3,
            imageCount: 2,
            textChars: 120,
            reason: 'figures,little_text',
          }))
        : [],
    read: async (args) => {
      reads.push({ ownerId: args.ownerId, documentId: args.documentId, page: args.page });
      return {
        text: 'The bar chart shows reindex time rising from 4 to 9 minutes; the legend reads "orders table".',
        page: args.page,
        width: 724,
        height: 1024,
        renderMs: 12,
        modelMs: 30,
      };
    },
  };
}

async function setup(extra: Partial<ToolContext> = {}) {
  const f = await buildFixture();
  // The runbook as a PDF, so its page 3 has a page image.
  f.catalog.add({ ...f.docs.ops, mime: 'application/pdf' });
  const state = stateWith({ question: 'How long does reindexing the orders table take?', opened: [] });
  state.ownerId = OWNER;
  state.searches.length = 0;
  const ctx: ToolContext = {
    ownerId: OWNER,
    index: f.index,
    catalog: f.catalog,
    embedder: null,
    state,
    buckets: [{ id: 'b-manuals', name: 'manuals' }],
    baseFilters: {},
    now: () => performance.now(),
    embedTimeoutMs: 1000,
    ...extra,
  };
  return { f, state, ctx, tools: createTools(ctx) };
}

describe('visual_interpretation', () => {
  it('is not offered without a vision model, nor before there is a result to look at', async () => {
    const without = await setup();
    await without.tools.get('search_docs')?.run({ tool: 'search_docs', query: 'reindex orders' }, 'c1');
    expect(without.tools.get('visual_interpretation')?.isAvailable(without.state)).toBe(false);
    const withVision = await setup({ vision: fakeVision() });
    expect(withVision.tools.get('visual_interpretation')?.isAvailable(withVision.state)).toBe(false);
    await withVision.tools.get('search_docs')?.run({ tool: 'search_docs', query: 'reindex orders' }, 'c1');
    expect(withVision.tools.get('visual_interpretation')?.isAvailable(withVision.state)).toBe(true);
  });

  it('search results name the pages flagged as pictures only when a vision model is configured', async () => {
    const plain = await setup();
    const a = await plain.tools.get('search_docs')?.run({ tool: 'search_docs', query: 'reindex orders' }, 'c1');
    expect(a?.forModel).not.toContain('look like pictures');
    const seeing = await setup({ vision: fakeVision() });
    const b = await seeing.tools.get('search_docs')?.run({ tool: 'search_docs', query: 'reindex orders' }, 'c1');
    expect(b?.forModel).toMatch(/Pages that look like pictures: r\d+ p\.3 \(figures, little_text\)/);
  });

  it("reads the result's page for the run's owner and opens the reading as a non-verbatim source with its page", async () => {
    const reads: { ownerId: string; documentId: string; page: number | null }[] = [];
    const { tools, state, f } = await setup({ vision: fakeVision(reads) });
    await tools.get('search_docs')?.run({ tool: 'search_docs', query: 'reindex orders' }, 'c1');
    const handle = [...state.results.values()].find((e) => e.hit.documentId === f.docs.ops.documentId)?.handle;
    const out = await tools.get('visual_interpretation')?.run({ tool: 'visual_interpretation', handle }, 'c2');
    expect(out).toMatchObject({ ok: true, hits: 1 });
    expect(out?.forModel).toContain('never quote it');
    expect(reads).toEqual([{ ownerId: OWNER, documentId: f.docs.ops.documentId, page: 3 }]);
    const opened = state.opened[0];
    expect(opened).toMatchObject({ n: 1, verbatim: false, chunk: { page: 3, documentId: f.docs.ops.documentId } });
    expect(opened?.chunk.text).toMatch(/^\[a vision model's reading of the page image, not the document's words/);
    const again = await tools.get('visual_interpretation')?.run({ tool: 'visual_interpretation', handle }, 'c3');
    expect(again).toMatchObject({ ok: false, error: { code: 'ALREADY_OPEN' } });
  });

  it("refuses another owner's document handle like a missing one, and pages of documents without page images", async () => {
    const { tools, state, f } = await setup({ vision: fakeVision() });
    await tools.get('search_docs')?.run({ tool: 'search_docs', query: 'reindex orders' }, 'c1');
    state.docByHandle.set('d9', f.docs.secret.documentId);
    const foreign = await tools
      .get('visual_interpretation')
      ?.run({ tool: 'visual_interpretation', handle: 'd9', page: 1 }, 'c2');
    expect(foreign).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(f.docs.secret.ownerId).toBe(OTHER_OWNER);
    const unknown = await tools
      .get('visual_interpretation')
      ?.run({ tool: 'visual_interpretation', handle: 'r99' }, 'c3');
    expect(unknown).toMatchObject({ ok: false, error: { code: 'UNKNOWN_HANDLE' } });
    expect(state.opened).toHaveLength(0);
  });

  it('a reading grounds a cited number but never a quote', async () => {
    const { tools, state } = await setup({ vision: fakeVision() });
    await tools.get('search_docs')?.run({ tool: 'search_docs', query: 'reindex orders' }, 'c1');
    await tools.get('visual_interpretation')?.run({ tool: 'visual_interpretation', handle: 'r1' }, 'c2');
    const input = { question: state.question, opened: state.opened };
    expect(checkAnswer('The chart shows reindexing rising to 9 minutes [1].', input).issues).toEqual([]);
    const quoted = checkAnswer('The legend reads "orders table" [1].', input);
    expect(quoted.issues.map((i) => i.code)).toEqual(['QUOTE_NOT_FOUND']);
    // The same words in a text source are a verified quote: only the reading is refused.
    const asText = { question: state.question, opened: state.opened.map((o) => ({ ...o, verbatim: true })) };
    expect(checkAnswer('The legend reads "orders table" [1].', asText).issues).toEqual([]);
  });
});

describe('search_sections', () => {
  it('is offered only when section summaries are wired in', async () => {
    const without = await setup();
    expect(without.tools.get('search_sections')?.isAvailable(without.state)).toBe(false);
    const withSummaries = await setup({ summaries: { listSummaries: async () => [] } });
    expect(withSummaries.tools.get('search_sections')?.isAvailable(withSummaries.state)).toBe(true);
  });

  it('finds passages inside the section whose summary matches, and labels hits with it', async () => {
    let summaries: SummaryRecord[] = [];
    const asked: (readonly string[] | undefined)[] = [];
    const { tools, state, f } = await setup({
      summaries: {
        listSummaries: async (ownerId, ids) => {
          asked.push(ids);
          return ownerId === OWNER ? summaries : [];
        },
      },
    });
    summaries = [
      {
        documentId: f.docs.ops.documentId,
        ordinal: 0,
        label: 'Maintenance',
        chunkStart: 0,
        chunkEnd: 0,
        pageStart: 3,
        pageEnd: 3,
        text: 'Maintenance: reindex procedure for the orders table.',
      },
      {
        documentId: f.docs.del.documentId,
        ordinal: 0,
        label: 'Deletion',
        chunkStart: 0,
        chunkEnd: 1,
        pageStart: null,
        pageEnd: null,
        text: 'Deletion: how customer orders are removed and audited.',
      },
    ];
    const out = await tools.get('search_sections')?.run({ tool: 'search_sections', query: 'reindex orders' }, 'c1');
    expect(out?.ok).toBe(true);
    expect(out?.forModel).toContain('[section: Maintenance]');
    expect(out?.forModel).not.toContain('operations-2021.md');
    expect(asked).toEqual([undefined]);
    expect(state.searches[0]).toMatchObject({ tool: 'search_sections', ok: true });
    const none = await tools.get('search_sections')?.run({ tool: 'search_sections', query: 'zeppelin hangar' }, 'c2');
    expect(none).toMatchObject({ ok: false, error: { code: 'NO_RESULTS' } });
  });
});
