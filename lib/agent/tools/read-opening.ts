import type { IndexedChunk, SearchHit } from '@/lib/retrieval/types';
import { MAX_DOCUMENTS } from '../document-answer';
import { flagRetrievedText } from '../retrieved-flags';
import { normalizeHandle, recordInjection, registerHit } from '../state';
import { describeEntry, intersect } from './search-common';
import { type AgentTool, type ToolContext, toolError } from './types';

/**
 * read_opening: the first passages of documents (title page, abstract, introduction), for questions about what a
 * document is ("What is this document about?", "Summarise report.pdf"). The documents are the ones a name matches
 * (file name or title), the one a d#/r# handle points to, or, with neither, the documents in scope (the caller's
 * document and bucket filters, then the plan's bucket), newest first. They are read from the catalog, not ranked by
 * a search, so a document's opening is found even when no word of the question is in it.
 */

/** Chunks read from the start of each document. */
export const OPENING_CHUNKS = 2;

function openingHit(chunk: IndexedChunk, rank: number): SearchHit {
  const {
    vector: _v,
    embeddingModel: _m,
    contextPrefix: _p,
    tokenCount: _t,
    ownerId: _o,
    language: _l,
    ...rest
  } = chunk;
  return { ...rest, snippet: chunk.text.slice(0, 280), text: chunk.text, score: 1 - rank / 1000, scores: {} };
}

export function createReadOpeningTool(ctx: ToolContext): AgentTool {
  const { state } = ctx;
  return {
    name: 'read_opening',
    kind: 'search',
    description:
      'read_opening {query?, handle?} – the first passages of documents (title, abstract, introduction): for "what is this document about" or "summarise X". query = a document name; handle = d2 or r3; neither = the documents in scope, newest first.',
    isAvailable: () => true,
    async run(call, callId) {
      const name = (call.query ?? '').replace(/\s+/g, ' ').trim();
      const d = normalizeHandle(call.handle, 'd');
      const r = normalizeHandle(call.handle, 'r');
      const handled = d ? state.docByHandle.get(d) : r ? state.results.get(r)?.hit.documentId : undefined;
      if (call.handle && !handled)
        return toolError(
          'UNKNOWN_HANDLE',
          `"${call.handle}" is not a document or result handle.`,
          'Use a d# or r# handle from the search results, or a document name as query.',
        );
      let named: string[] | undefined = handled ? [handled] : undefined;
      if (!named && name.length > 0) {
        const matches = await ctx.catalog.findDocumentsByName(ctx.ownerId, name, MAX_DOCUMENTS);
        named = matches.map((m) => m.documentId);
      }
      const documentIds = intersect(ctx.baseFilters.documentIds, named);
      const bucketIds = ctx.baseFilters.bucketIds ?? state.plan.filters.bucketIds;
      const { documents, total } =
        documentIds?.length === 0
          ? { documents: [], total: 0 }
          : await ctx.catalog.documentOpenings(ctx.ownerId, {
              ...(documentIds ? { documentIds } : {}),
              ...(bucketIds ? { bucketIds } : {}),
              limit: MAX_DOCUMENTS,
              chunks: OPENING_CHUNKS,
            });
      const chunks = await ctx.index.get(
        ctx.ownerId,
        documents.flatMap((doc) => doc.chunkIds),
      );
      const query = name || (handled ? `document ${call.handle}` : 'the documents in scope');
      await ctx.turn?.(callId);
      state.searches.push({
        callId,
        tool: 'read_opening',
        query,
        mode: 'keyword',
        filters: { ...(documentIds ? { documentIds } : {}), ...(bucketIds ? { bucketIds } : {}) },
        hits: chunks.length,
        relaxed: [],
        ok: chunks.length > 0,
      });
      state.documentsInScope = total;
      if (chunks.length === 0)
        return toolError(
          'NO_RESULTS',
          name ? `No indexed document is named like "${name}".` : 'No indexed document is in scope.',
          'Search the passages with search_docs instead.',
        );
      const lines = chunks.map((chunk, i) => {
        const hit = openingHit(chunk, i);
        const flags = flagRetrievedText(hit.text ?? hit.snippet);
        recordInjection(state, flags);
        return describeEntry(registerHit(state, hit, query, flags));
      });
      const more = total > documents.length ? ` (the newest ${documents.length} of ${total})` : '';
      const summary = `${chunks.length} opening passages of ${documents.length} documents${more}`;
      return { ok: true, hits: chunks.length, summary, forModel: `${summary}.\n${lines.join('\n')}` };
    },
  };
}
