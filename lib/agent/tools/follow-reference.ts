import type { SearchHit } from '@/lib/retrieval/types';
import { flagRetrievedText } from '../retrieved-flags';
import { normalizeHandle, recordInjection, registerHit } from '../state';
import { estimateTokens, keyTerms } from '../text';
import { type DetectedReference, detectReferences, parseReference } from './references';
import { describeEntry, engineFilters } from './search-common';
import { type AgentTool, type ToolContext, type ToolOutcome, toolError } from './types';

/** The words a section reference is searched by: its kind and label ("Appendix B", "section 4.2"). */
export function sectionWords(ref: DetectedReference): string {
  const kind =
    /\b(appendix|annex(?:e)?|anhang|chapter|kapitel|clause|part|abschnitt|section)\b/i.exec(ref.original)?.[1] ??
    'section';
  return `${kind} ${ref.target}`;
}

/**
 * A section reference resolves to the passages that carry the section's label (in their heading path, or in their
 * opening, where a section's heading stands), when the scope holds any: "Section 4.2" opens 4.2, not the
 * best-scoring 4.1 beside it. Other references, and sections no passage labels, keep every hit.
 */
export function namingSection(hits: SearchHit[], ref: DetectedReference): SearchHit[] {
  if (ref.type !== 'section') return hits;
  const label = ref.target.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`(?:^|[^\\p{L}\\p{N}.])${label}(?![\\p{L}\\p{N}]|\\.\\d)`, 'u');
  const naming = hits.filter((h) => re.test(h.headingPath ?? '') || re.test((h.text ?? h.snippet).slice(0, 120)));
  return naming.length > 0 ? naming : hits;
}

/**
 * follow_reference: resolves "see Section 4.2" / "as described in the Deployment Guide" found in a
 * result by a scoped search (same document for sections, the named document for document mentions, then broad).
 * Guards: depth limit, visited set, token budget, and a stop when the same document keeps coming back.
 */
export function createFollowReferenceTool(ctx: ToolContext): AgentTool {
  const { state } = ctx;
  const depthOf = new Map<string, number>();
  const limitError = (code: string, message: string, suggestion: string): ToolOutcome =>
    toolError(code, message, suggestion);

  async function scopedSearch(query: string, documentIds: string[] | undefined): Promise<SearchHit[]> {
    const hits = await ctx.index.search({
      ownerId: ctx.ownerId,
      query,
      mode: 'keyword',
      topK: 3,
      filters: engineFilters({ ...ctx.baseFilters, ...(documentIds ? { documentIds } : {}) }),
      includeText: true,
    });
    if (hits.length === 0) return hits;
    const allowed = await ctx.catalog.filterIndexed(ctx.ownerId, [...new Set(hits.map((h) => h.documentId))]);
    return hits.filter((h) => allowed.has(h.documentId));
  }

  return {
    name: 'follow_reference',
    kind: 'search',
    description:
      'follow_reference {handle, reference?} – follow a cross-reference ("see Section 4.2", "the Deployment Guide") found in result r#.',
    isAvailable: () =>
      [...state.results.values()].some((e) =>
        detectReferences(e.hit.text ?? e.hit.snippet).some((r) => r.type !== 'external'),
      ),
    async run(call, callId) {
      const handle = normalizeHandle(call.handle, 'r');
      const entry = handle ? state.results.get(handle) : undefined;
      if (!entry)
        return toolError(
          'UNKNOWN_HANDLE',
          `follow_reference needs the handle of the result that contains the reference (got "${call.handle ?? ''}").`,
          'Use an r# handle whose text mentions the reference.',
        );
      const sourceText = entry.hit.text ?? entry.hit.snippet;
      const detected = detectReferences(sourceText).filter((r) => r.type !== 'external');
      const ref: DetectedReference | undefined = call.reference ? parseReference(call.reference) : detected[0];
      if (!ref)
        return toolError(
          'NO_REFERENCE',
          `${entry.handle} contains no section or document reference.`,
          'Search instead, or give the reference text.',
        );

      const depth = (depthOf.get(entry.hit.chunkId) ?? 0) + 1;
      if (depth > state.limits.followDepth) {
        return limitError(
          'FOLLOW_DEPTH',
          `Reference depth limit (${state.limits.followDepth}) reached.`,
          'Use what you have; open the results already found.',
        );
      }
      if (state.follow.tokens >= state.limits.followTokenBudget) {
        return limitError(
          'FOLLOW_TOKENS',
          `Reference-following token budget (${state.limits.followTokenBudget}) used up.`,
          'Answer with the evidence you have.',
        );
      }
      const key = `${ref.type}:${ref.target.toLowerCase()}:${ref.type === 'section' ? entry.hit.documentId : ''}`;
      if (state.follow.visited.has(key))
        return toolError(
          'ALREADY_FOLLOWED',
          `"${ref.original}" was already followed.`,
          'Open one of its results instead.',
        );
      state.follow.visited.add(key);

      const context = keyTerms(sourceText).slice(0, 4).join(' ');
      let hits: SearchHit[] = [];
      let scope = 'all documents';
      try {
        const named = ref.inDocument ? await ctx.catalog.findDocumentsByName(ctx.ownerId, ref.inDocument, 3) : [];
        if (ref.type === 'section' && named.length > 0) {
          // "Section 4.2 of the Integration Guide": the section, in the named document.
          hits = await scopedSearch(
            `${sectionWords(ref)} ${context}`,
            named.map((d) => d.documentId),
          );
          scope = named.map((d) => `"${d.filename}"`).join(', ');
        } else if (ref.type === 'section') {
          hits = await scopedSearch(`${sectionWords(ref)} ${context}`, [entry.hit.documentId]);
          scope = `"${entry.hit.filename}"`;
        } else {
          const named = await ctx.catalog.findDocumentsByName(ctx.ownerId, ref.target, 3);
          if (named.length > 0) {
            hits = await scopedSearch(
              `${ref.target} ${context}`,
              named.map((d) => d.documentId),
            );
            scope = named.map((d) => `"${d.filename}"`).join(', ');
          }
        }
        if (hits.length === 0) {
          hits = await scopedSearch(`${ref.original} ${context}`, undefined);
          scope = 'all documents (scoped search found nothing)';
        }
      } catch (error) {
        return toolError(
          'SEARCH_FAILED',
          `Following failed: ${error instanceof Error ? error.message.slice(0, 160) : 'unknown error'}.`,
          'Search for the referenced section directly.',
        );
      }
      hits = namingSection(
        hits.filter((h) => h.chunkId !== entry.hit.chunkId),
        ref,
      );
      if (hits.length === 0)
        return toolError(
          'NO_RESULTS',
          `Nothing found for "${ref.original}".`,
          'Report it as missing, or search with other words.',
        );

      const lines: string[] = [];
      let converged = false;
      await ctx.turn?.(callId);
      for (const hit of hits) {
        const count = (state.follow.docCounts.get(hit.documentId) ?? 0) + 1;
        state.follow.docCounts.set(hit.documentId, count);
        state.follow.tokens += estimateTokens(hit.text ?? hit.snippet);
        const flags = flagRetrievedText(hit.text ?? hit.snippet);
        recordInjection(state, flags);
        const registered = registerHit(state, hit, ref.original, flags, 'follow');
        depthOf.set(hit.chunkId, depth);
        lines.push(describeEntry(registered));
        if (count >= state.limits.convergenceSameDoc) {
          converged = true;
          break;
        }
        if (state.follow.tokens >= state.limits.followTokenBudget) break;
      }
      const stop = converged ? ' Converged: the same document keeps coming back; stop following and answer.' : '';
      return {
        ok: true,
        hits: lines.length,
        summary: `Followed "${ref.original}" in ${scope}: ${lines.length} hits${converged ? ' (converged)' : ''}`,
        forModel: `Followed "${ref.original}" (depth ${depth}) in ${scope}.${stop}\n${lines.join('\n')}`,
      };
    },
  };
}
