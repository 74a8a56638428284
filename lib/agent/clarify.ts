import type { RunContext } from './context';
import { keyTerms, termCoverage } from './text';
import type { Clarification } from './types';

/**
 * Clarification requests: "no_results" says what was tried and relaxed, "overload" how to narrow.
 * A model's clarify is accepted only when the evidence supports it, so it cannot be used to dodge answering.
 */

/** What was tried, for a no_results request. */
export function noResultsDetails(rc: RunContext): string {
  const tried = rc.state.searches.map((s) => `"${s.query}"`).join(', ') || 'no search';
  const relaxed = [...new Set(rc.state.searches.flatMap((s) => s.relaxed))];
  return `Searched ${tried}${relaxed.length > 0 ? `; also without the ${relaxed.join(', ')} filter(s)` : ''}. Check the names and terms, or upload the missing documents.`;
}

/** True when no search found anything that covers the question's terms. */
export function nothingRelevant(rc: RunContext): boolean {
  const terms = keyTerms(rc.state.question);
  if (rc.state.opened.length > 0) return false;
  return ![...rc.state.results.values()].some((e) => termCoverage(terms, e.hit.text ?? e.hit.snippet) >= 0.5);
}

/** Accepts or refuses a model's clarification; the returned text explains a refusal to the model. */
export function reviewClarification(
  rc: RunContext,
  proposed: Clarification,
): { accept: Clarification } | { refuse: string } {
  if (rc.state.searches.length === 0) return { refuse: 'Search before asking the user for clarification.' };
  if (proposed.type === 'no_results') {
    if (!nothingRelevant(rc))
      return { refuse: 'Relevant results exist: open them and answer, listing what is missing as insufficiencies.' };
    return { accept: { ...proposed, details: `${proposed.details} ${noResultsDetails(rc)}`.trim() } };
  }
  if (proposed.type === 'overload' && rc.state.results.size < rc.limits.searchTopK) {
    return { refuse: 'Searches returned few results; answer from them instead of asking to narrow.' };
  }
  return { accept: proposed };
}

/**
 * For listing questions without filters: counts distinct matching documents with one wide keyword query
 * (not a tool call) and asks to narrow when there are more than limits.overloadDocuments.
 */
export async function checkOverload(rc: RunContext): Promise<Clarification | null> {
  const { state } = rc;
  if (
    state.plan.intent !== 'list' ||
    Object.keys(state.plan.filters).length > 0 ||
    Object.keys(rc.toolCtx.baseFilters).length > 0
  )
    return null;
  const total = await rc.deps.catalog.countIndexedDocuments(state.ownerId);
  if (total < rc.limits.overloadDocuments) return null;
  const hits = await rc.deps.index.search({
    ownerId: state.ownerId,
    query: state.plan.subQueries[0] ?? state.question,
    mode: 'keyword',
    topK: 100,
    candidates: 100,
  });
  const docs = new Set(hits.map((h) => h.documentId)).size;
  if (docs < rc.limits.overloadDocuments) return null;
  const buckets = rc.toolCtx.buckets.map((b) => b.name);
  return {
    type: 'overload',
    question: `I found ${docs}+ matching documents. Can you narrow the request?`,
    details: `Narrow by ${buckets.length > 0 ? `bucket (${buckets.slice(0, 6).join(', ')}), ` : ''}date range, tags or a more specific term.`,
  };
}
