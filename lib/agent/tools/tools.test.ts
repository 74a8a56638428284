import { describe, expect, it } from 'vitest';
import { buildFixture, OWNER } from '../../../test/support/agent/fixtures';
import { stateWith } from '../../../test/support/agent/state';
import { createTools } from './registry';
import type { ToolContext } from './types';

async function setup(embedder: ToolContext['embedder'] = null) {
  const f = await buildFixture();
  const state = stateWith({ question: 'How do I reindex the orders table?', opened: [] });
  state.ownerId = OWNER;
  state.searches.length = 0;
  const ctx: ToolContext = {
    ownerId: OWNER,
    index: f.index,
    catalog: f.catalog,
    embedder,
    state,
    buckets: [{ id: 'b-manuals', name: 'manuals' }],
    baseFilters: {},
    now: () => performance.now(),
    embedTimeoutMs: 1000,
  };
  return { f, state, ctx, tools: createTools(ctx) };
}

describe('tools', () => {
  it('search_semantic is offered only with an embedder', async () => {
    const without = await setup();
    expect(without.tools.get('search_semantic')?.isAvailable(without.state)).toBe(false);
    const withEmbedder = await setup({ model: 'm', embedQuery: async () => [1, 0] });
    expect(withEmbedder.tools.get('search_semantic')?.isAvailable(withEmbedder.state)).toBe(true);
    expect(without.tools.get('open_citation')?.isAvailable(without.state)).toBe(false);
  });

  it('search_semantic says there is no embedding model (not an outage), and a failing one is EMBEDDING_FAILED', async () => {
    const without = await setup();
    const none = await without.tools.get('search_semantic')?.run({ tool: 'search_semantic', query: 'reindex' }, 'c0');
    expect(none?.ok).toBe(false);
    expect(none?.forModel).toMatch(/^ERROR NO_EMBEDDING_MODEL: /);
    const failing = await setup({ model: 'm', embedQuery: async () => Promise.reject(new Error('ollama down')) });
    const down = await failing.tools.get('search_semantic')?.run({ tool: 'search_semantic', query: 'reindex' }, 'c0');
    expect(down?.forModel).toMatch(/^ERROR EMBEDDING_FAILED: .*ollama down/);
  });

  it('search_docs degrades to keyword when the embedder fails, and hands out handles', async () => {
    const { tools, state } = await setup({
      model: 'm',
      embedQuery: async () => Promise.reject(new Error('ollama down')),
    });
    const out = await tools.get('search_docs')?.run({ tool: 'search_docs', query: 'reindex orders' }, 'c1');
    expect(out?.ok).toBe(true);
    expect(out?.summary).toContain('keyword only');
    expect(out?.forModel).toMatch(/^r1 \(d1 "operations.md"/m);
    expect(out?.forModel).not.toMatch(/[0-9a-f]{8}-0000-4000/);
    expect(state.searches).toHaveLength(1);
  });

  it('recoverable errors carry a suggestion; unknown buckets name the valid ones', async () => {
    const { tools } = await setup();
    const missing = await tools.get('search_text')?.run({ tool: 'search_text' }, 'c1');
    expect(missing).toMatchObject({ ok: false, error: { code: 'MISSING_QUERY' } });
    const bucket = await tools
      .get('search_docs')
      ?.run({ tool: 'search_docs', query: 'reindex', filters: { buckets: ['hr'] } }, 'c2');
    expect(bucket?.ok === false && bucket.error.suggestion).toContain('manuals');
    const none = await tools.get('search_docs')?.run({ tool: 'search_docs', query: 'zeppelin hangar' }, 'c3');
    expect(none).toMatchObject({ ok: false, error: { code: 'NO_RESULTS' } });
  });

  it('says a Chinese query may be incomplete while the keyword index is rebuilt, and only then', async () => {
    const { tools, f, ctx } = await setup();
    const searched: string[] = [];
    let rebuilding = true;
    ctx.index = {
      ...f.index,
      keywordIndexState: async (ownerId: string) => {
        searched.push(ownerId);
        return { rebuilding };
      },
    };
    const zh = await tools.get('search_docs')?.run({ tool: 'search_docs', query: '营业收入 reindex' }, 'c1');
    expect(zh?.ok === false ? zh.error.message : zh?.summary).toContain('may be incomplete');
    expect(searched).toEqual([OWNER]);
    const en = await tools.get('search_docs')?.run({ tool: 'search_docs', query: 'reindex orders' }, 'c2');
    expect(en?.ok && en.summary).not.toContain('incomplete');
    rebuilding = false;
    const done = await tools.get('search_docs')?.run({ tool: 'search_docs', query: '营业收入 reindex' }, 'c3');
    expect(done?.ok === false ? done.error.message : done?.summary).not.toContain('incomplete');
  });

  it("relaxes the agent's own filters when they exclude everything, and says so", async () => {
    const { tools, state } = await setup();
    state.plan = { ...state.plan, filters: { bucketIds: ['b-api'] } };
    const out = await tools.get('search_docs')?.run({ tool: 'search_docs', query: 'reindex orders' }, 'c1');
    expect(out?.ok).toBe(true);
    expect(out?.summary).toContain('searched without');
    expect(state.searches[0]?.relaxed).toEqual(['bucketIds']);
  });

  it('open_citation refuses unknown handles and documents that are no longer INDEXED', async () => {
    const { tools, f, state } = await setup();
    await tools.get('search_docs')?.run({ tool: 'search_docs', query: 'reindex orders' }, 'c1');
    const unknown = await tools.get('open_citation')?.run({ tool: 'open_citation', handle: 'r99' }, 'c2');
    expect(unknown).toMatchObject({ ok: false, error: { code: 'UNKNOWN_HANDLE' } });
    f.catalog.add({ ...f.docs.ops, status: 'FAILED' });
    const gone = await tools.get('open_citation')?.run({ tool: 'open_citation', handle: 'r1' }, 'c3');
    expect(gone).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(state.opened).toHaveLength(0);
  });

  it('follow_reference resolves "Section 4.2" inside the same document and stops on revisits', async () => {
    const { tools, state } = await setup();
    await tools.get('search_docs')?.run({ tool: 'search_docs', query: 'delete order verification' }, 'c1');
    const handle = [...state.results.values()].find(
      (e) => e.hit.filename === 'delete-policy.md' && e.hit.index === 0,
    )?.handle;
    const out = await tools.get('follow_reference')?.run({ tool: 'follow_reference', handle }, 'c2');
    expect(out?.ok).toBe(true);
    expect(out?.summary).toContain('"delete-policy.md"');
    expect(out?.forModel).toContain('Audit trail');
    const again = await tools.get('follow_reference')?.run({ tool: 'follow_reference', handle }, 'c3');
    expect(again).toMatchObject({ ok: false, error: { code: 'ALREADY_FOLLOWED' } });
  });
});
