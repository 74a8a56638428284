import type { AgentState } from './state';
import { estimateTokens } from './text';
import { describeEntry } from './tools/search-common';

/**
 * Stage 5: keeps the evidence shown to the model inside its token budget. Order of sacrifice:
 * results the model marked irrelevant, then unopened results from the weakest hits, each summarised into a
 * one-line note; opened sources (which may be cited) are only shortened, never dropped.
 */

export function evidenceTokens(state: AgentState): number {
  let total = 0;
  for (const e of state.results.values()) if (!e.pruned) total += estimateTokens(describeEntry(e, 240));
  for (const o of state.opened) total += Math.ceil(o.modelChars / 4) + 20;
  return total;
}

/** Applies the model's irrelevant marks (handles it wrote); opened results are never marked out. */
export function markIrrelevant(state: AgentState, handles: readonly string[]): number {
  let marked = 0;
  const opened = new Set(state.opened.map((o) => o.handle));
  for (const raw of handles) {
    const h = raw.trim().toLowerCase();
    const entry = state.results.get(h);
    if (entry && !opened.has(h) && !entry.irrelevant) {
      entry.irrelevant = true;
      marked++;
    }
  }
  return marked;
}

export interface PruneReport {
  before: number;
  after: number;
  prunedResults: number;
  shortenedSources: number;
}

/** Prunes until the evidence fits the budget; null when it already fits. */
export function fitEvidence(state: AgentState): PruneReport | null {
  const budget = state.limits.evidenceTokenBudget;
  const before = evidenceTokens(state);
  if (before <= budget) return null;
  const opened = new Set(state.opened.map((o) => o.handle));
  const candidates = [...state.results.values()]
    .filter((e) => !e.pruned && !opened.has(e.handle))
    .sort((a, b) => Number(b.irrelevant) - Number(a.irrelevant) || a.hit.score - b.hit.score);
  const byDoc = new Map<string, string[]>();
  let total = before;
  let prunedResults = 0;
  for (const e of candidates) {
    if (total <= budget) break;
    e.pruned = true;
    prunedResults++;
    total -= estimateTokens(describeEntry(e, 240));
    const key = `${e.documentHandle} "${e.hit.filename}"`;
    byDoc.set(key, [...(byDoc.get(key) ?? []), e.handle]);
  }
  for (const [doc, handles] of byDoc) state.prunedNotes.push(`${doc}: ${handles.join(', ')}`);
  let shortenedSources = 0;
  // Still over: shorten the longest opened sources, down to 600 characters each.
  const longest = [...state.opened].sort((a, b) => b.modelChars - a.modelChars);
  for (const o of longest) {
    if (total <= budget) break;
    const target = Math.max(600, o.modelChars - (total - budget) * 4);
    if (target >= o.modelChars) continue;
    total -= Math.ceil((o.modelChars - target) / 4);
    o.modelChars = target;
    shortenedSources++;
  }
  return { before, after: evidenceTokens(state), prunedResults, shortenedSources };
}
