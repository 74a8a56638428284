import { runSearch } from './search-common';
import type { AgentTool, ToolContext } from './types';

/** search_semantic: dense-vector search for conceptual questions; offered only when an embedder exists. */
export function createSearchSemanticTool(ctx: ToolContext): AgentTool {
  return {
    name: 'search_semantic',
    kind: 'search',
    description: 'search_semantic {query, filters?} – meaning-based search for conceptual questions and paraphrases.',
    isAvailable: () => ctx.embedder !== null,
    run: (call, callId) => runSearch(ctx, call, callId, 'search_semantic', 'semantic'),
  };
}
