import { runSearch } from './search-common';
import type { AgentTool, ToolContext } from './types';

/** search_docs: hybrid (keyword + dense, fused) search of the owner's documents; keyword-only without an embedder. */
export function createSearchDocsTool(ctx: ToolContext): AgentTool {
  return {
    name: 'search_docs',
    kind: 'search',
    description: 'search_docs {query, filters?} – hybrid keyword + semantic search; the default choice.',
    isAvailable: () => true,
    run: (call, callId) => runSearch(ctx, call, callId, 'search_docs', 'hybrid'),
  };
}
