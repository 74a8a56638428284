import { flagRetrievedText } from '../retrieved-flags';
import { normalizeHandle, recordInjection } from '../state';
import { type AgentTool, type ToolContext, toolError } from './types';

/**
 * open_citation: reads a search result's full chunk and makes it citable as [n]. Only the owner's INDEXED
 * documents open; another owner's chunk answers exactly like a missing one.
 */
export function createOpenCitationTool(ctx: ToolContext): AgentTool {
  const { state } = ctx;
  return {
    name: 'open_citation',
    kind: 'open',
    description:
      'open_citation {handle} – read the full text of a search result (e.g. "r3"); only opened sources can be cited as [n].',
    isAvailable: () => state.results.size > 0,
    async run(call) {
      const fromChunkId = call.handle ? state.chunkHandles.get(call.handle.trim()) : undefined;
      const handle = normalizeHandle(call.handle, 'r') ?? fromChunkId ?? null;
      if (!handle)
        return toolError(
          'MISSING_HANDLE',
          'open_citation needs a result "handle" such as r3.',
          'Copy a handle from the search results, e.g. {"tool":"open_citation","handle":"r1"}.',
        );
      const entry = state.results.get(handle);
      if (!entry)
        return toolError(
          'UNKNOWN_HANDLE',
          `No search result has the handle "${call.handle}".`,
          `Use one of: ${[...state.results.keys()].slice(0, 12).join(', ') || 'none yet (search first)'}.`,
        );
      const already = state.opened.find((o) => o.chunk.chunkId === entry.hit.chunkId);
      if (already)
        return toolError(
          'ALREADY_OPEN',
          `${handle} is already open as [${already.n}].`,
          `Cite it as [${already.n}]; open a different result if you need more.`,
        );
      if (state.opened.length >= state.limits.maxContextCitations) {
        return toolError(
          'CONTEXT_CITATIONS_FULL',
          `${state.limits.maxContextCitations} sources are already open (the limit).`,
          'Answer with the opened sources and list what is missing.',
        );
      }
      try {
        const [chunk] = await ctx.index.get(ctx.ownerId, [entry.hit.chunkId]);
        const allowed = chunk ? await ctx.catalog.filterIndexed(ctx.ownerId, [chunk.documentId]) : new Set<string>();
        if (!chunk || !allowed.has(chunk.documentId)) {
          return toolError('NOT_FOUND', `${handle} is no longer available.`, 'Open another result or search again.');
        }
        const { injected, suspect } = flagRetrievedText(chunk.text);
        recordInjection(state, { injected, suspect });
        const n = state.opened.length + 1;
        const modelChars = Math.min(chunk.text.length, state.limits.maxCitationCharsForModel);
        state.opened.push({ n, handle, chunk, score: entry.hit.score, injected, suspect, modelChars });
        const where = chunk.page !== null ? ` p.${chunk.page}` : chunk.sheet ? ` sheet ${chunk.sheet}` : '';
        const summary = `Opened ${handle} as [${n}]: ${chunk.filename}${where} (${(chunk.text.length / 1024).toFixed(1)} KB)`;
        return { ok: true, hits: 1, summary, forModel: `${summary}. Its text is under OPENED SOURCES as [${n}].` };
      } catch (error) {
        return toolError(
          'OPEN_FAILED',
          `Could not open ${handle}: ${error instanceof Error ? error.message.slice(0, 160) : 'unknown error'}.`,
          'Try another result.',
        );
      }
    },
  };
}
