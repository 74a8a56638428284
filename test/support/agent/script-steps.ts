/**
 * The decision-model outputs a scripted agent run is made of: the constraint analysis, the plan and the loop's
 * actions, as the agent's zod schemas accept them. Tests compose them into `scriptedModel({ json: [...] })`.
 */

/** A constraint analysis that asks for nothing beyond the question. */
export const NO_CONSTRAINTS = {
  minSearches: 0,
  requiredTopics: [] as string[],
  minOpenCitations: 0,
  exactQuotes: [] as string[],
  conflictRule: 'none' as const,
  requiredSections: [] as string[],
  insufficiencyPhrase: '',
};

/** A plain question-answering plan searching `subQueries`. */
export function qaPlan(subQueries: string[], steps: string[] = ['Search', 'Open', 'Answer']) {
  return {
    intent: 'qa',
    buckets: [],
    dateFrom: '',
    dateTo: '',
    subQueries,
    outputFormat: 'natural_language',
    steps,
  };
}

export function searchStep(query: string) {
  return { action: 'tool_call', calls: [{ tool: 'search_docs', query }] };
}

export function toolStep(tool: string, handle: string) {
  return { action: 'tool_call', calls: [{ tool, handle }] };
}

export const FINAL_STEP = { action: 'final', reason: 'enough' } as const;
