import { isIndexUnavailable } from '@/lib/retrieval/errors';
import type { SearchMode } from '@/lib/retrieval/types';
import { summaryRoute } from '@/lib/summaries/route';
import { deadlineSignal } from '../model-call';
import { flagRetrievedText } from '../retrieved-flags';
import { recordInjection, registerHit } from '../state';
import { describeEntry, filtersWithMetaDocuments, mergeFilters, resolveModelFilters } from './search-common';
import { type AgentTool, type ToolContext, toolError } from './types';

/**
 * search_sections: the summary → segment route (lib/summaries/route.ts) for conceptual questions over long,
 * manual-like documents. Offered only when section summaries are wired in (ToolContext.summaries). Filters are
 * resolved like the other searches; hits are re-checked against the owner's INDEXED documents and registered
 * under the same r# handles, each labelled with the section it lies in.
 */
export function createSearchSectionsTool(ctx: ToolContext): AgentTool {
  return {
    name: 'search_sections',
    kind: 'search',
    description:
      'search_sections {query, filters?} – for conceptual questions about long documents (manuals, reports): finds the best sections by their summaries, then the best passages inside them.',
    isAvailable: () => ctx.summaries != null,
    async run(call, callId) {
      const source = ctx.summaries;
      if (!source) return toolError('UNAVAILABLE', 'Section search is not available.', 'Use search_docs.');
      const query = (call.query ?? '').replace(/\s+/g, ' ').trim();
      if (query.length < 2)
        return toolError(
          'MISSING_QUERY',
          'search_sections needs a "query".',
          'Describe the topic, e.g. {"tool":"search_sections","query":"how is the dose planned"}.',
        );
      const resolved = resolveModelFilters(ctx, call.filters);
      if (!resolved.ok) return resolved.outcome;
      const filters = mergeFilters(ctx.baseFilters, { ...ctx.state.plan.filters, ...resolved.filters });
      let mode: SearchMode = 'keyword';
      let queryVector: number[] | null = null;
      if (ctx.embedder) {
        const { signal } = deadlineSignal(ctx.signal, ctx.embedTimeoutMs);
        queryVector = await ctx.embedder.embedQuery(query, signal).catch(() => null);
        if (queryVector) mode = 'hybrid';
      }
      let route: Awaited<ReturnType<typeof summaryRoute>>;
      try {
        const engine = await filtersWithMetaDocuments(ctx, filters);
        if (engine.documentIds?.length === 0)
          return toolError('NO_RESULTS', `No documents match the filters for "${query}".`, 'Relax the filters.');
        route = await summaryRoute({
          index: ctx.index,
          source,
          ownerId: ctx.ownerId,
          query,
          mode,
          queryVector,
          filters: engine,
          topK: ctx.state.limits.searchTopK,
        });
      } catch (error) {
        if (isIndexUnavailable(error)) ctx.state.safetyFlags.add('index_unavailable');
        return toolError(
          isIndexUnavailable(error) ? 'INDEX_UNAVAILABLE' : 'SEARCH_FAILED',
          `Section search failed: ${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'}.`,
          'Use search_docs instead.',
        );
      }
      const allowed = await ctx.catalog.filterIndexed(ctx.ownerId, [...new Set(route.hits.map((h) => h.documentId))]);
      const hits = route.hits.filter((h) => allowed.has(h.documentId));
      await ctx.turn?.(callId);
      ctx.state.searches.push({
        callId,
        tool: 'search_sections',
        query,
        mode,
        filters,
        hits: hits.length,
        relaxed: [],
        ok: hits.length > 0,
      });
      if (hits.length === 0)
        return toolError(
          'NO_RESULTS',
          route.sections.length === 0
            ? `No section summary matches "${query}" (${route.scanned} summaries of long documents searched).`
            : `The best sections for "${query}" hold no matching passage.`,
          'Use search_docs or search_text, which search every passage.',
        );
      const lines = hits.map((hit) => {
        const flags = flagRetrievedText(hit.text ?? hit.snippet);
        recordInjection(ctx.state, flags);
        const entry = registerHit(ctx.state, hit, query, flags);
        return `${describeEntry(entry)} [section: ${hit.section}]`;
      });
      const sections = route.sections.map((s) => `"${s.label}"`).join(', ');
      const summary = `${hits.length} hits for "${query}" in sections ${sections}`;
      return { ok: true, hits: hits.length, summary, forModel: `${summary}.\n${lines.join('\n')}` };
    },
  };
}
