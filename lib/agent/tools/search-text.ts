import { runSearch } from './search-common';
import type { AgentTool, ToolContext } from './types';

/** search_text: BM25 keyword search, best for exact identifiers, error codes and names. */
export function createSearchTextTool(ctx: ToolContext): AgentTool {
  return {
    name: 'search_text',
    kind: 'search',
    description: 'search_text {query, filters?} – keyword (BM25) search for exact terms, identifiers, codes.',
    isAvailable: () => true,
    run: (call, callId) => runSearch(ctx, call, callId, 'search_text', 'keyword'),
  };
}
