import { analyzeConstraints } from '@/lib/agent/constraints';
import { resolveLimits } from '@/lib/agent/limits';
import { defaultPlan } from '@/lib/agent/plan';
import { flagRetrievedText } from '@/lib/agent/retrieved-flags';
import { type AgentState, createAgentState, recordInjection, registerHit } from '@/lib/agent/state';
import type { IndexedChunk } from '@/lib/retrieval/types';

/** A run state with the given chunks already searched and opened as [1], [2]… (for stage tests). */
export function stateWith(args: { question: string; opened: IndexedChunk[]; queries?: string[] }): AgentState {
  const constraints = analyzeConstraints(args.question);
  const state = createAgentState({
    ownerId: args.opened[0]?.ownerId ?? 'owner',
    question: args.question,
    constraints,
    plan: defaultPlan(args.question, constraints, [], 'concise'),
    limits: resolveLimits(),
  });
  for (const q of args.queries ?? [args.question]) {
    state.searches.push({
      callId: `s${state.searches.length + 1}`,
      tool: 'search_docs',
      query: q,
      mode: 'keyword',
      filters: {},
      hits: args.opened.length,
      relaxed: [],
      ok: true,
    });
  }
  args.opened.forEach((chunk, i) => {
    const flags = flagRetrievedText(chunk.text);
    recordInjection(state, flags);
    const entry = registerHit(
      state,
      { ...chunk, snippet: chunk.text.slice(0, 120), text: chunk.text, score: 1 - i * 0.1, scores: { keyword: 1 } },
      args.question,
      flags,
    );
    state.opened.push({
      n: i + 1,
      handle: entry.handle,
      chunk,
      score: entry.hit.score,
      injected: flags.injected,
      suspect: flags.suspect,
      modelChars: chunk.text.length,
    });
  });
  return state;
}
