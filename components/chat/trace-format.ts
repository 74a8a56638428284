import type { LimitName, ToolName } from '@/lib/agent/events';
import type { Confidence } from '@/lib/agent/types';

/** Plain-language labels for the trace timeline and the answer's badges. */

const TOOL_LABELS: Record<ToolName, string> = {
  search_docs: 'Search',
  search_text: 'Keyword search',
  search_semantic: 'Semantic search',
  open_citation: 'Open source',
  get_document_metadata: 'Read document details',
  follow_reference: 'Follow reference',
};

/** A short human label for a tool. */
export function toolLabel(tool: ToolName): string {
  return TOOL_LABELS[tool];
}

/** Whether a tool searches (its card shows a query and a hit count). */
export function isSearchTool(tool: ToolName): boolean {
  return tool === 'search_docs' || tool === 'search_text' || tool === 'search_semantic' || tool === 'follow_reference';
}

const LIMIT_LABELS: Record<LimitName, string> = {
  tool_calls: 'Tool call budget reached',
  iterations: 'Step limit reached',
  reprompts: 'Rewrite limit reached',
  wall_clock: 'Time limit reached',
  evidence_tokens: 'Evidence trimmed to fit',
  context_citations: 'Source limit reached',
  follow_depth: 'Reference depth limit reached',
  follow_tokens: 'Reference budget reached',
  follow_convergence: 'Reference following converged',
  malformed_actions: 'Model output unusable',
};

/** A short human label for a limit that bit. */
export function limitLabel(limit: LimitName): string {
  return LIMIT_LABELS[limit];
}

const FALLBACK_STAGES: Record<string, string> = {
  constraints: 'Reading the requirements without a model',
  plan: 'Default plan used',
  decision: 'Extractive policy took over the steps',
  synthesis: 'No model answered: extractive mode',
  quality: 'Quality check skipped',
  embedding: 'Semantic search unavailable: keyword search used',
};

/** The headline of a fallback event. */
export function fallbackLabel(stage: string): string {
  return FALLBACK_STAGES[stage] ?? `Fallback (${stage})`;
}

const CONFIDENCE_TEXT: Record<Confidence, string> = {
  high: 'High: the answer passed every check, cites its sources, and at least 80% of its sentences are backed by the quoted passages. Nothing asked for was missing.',
  medium:
    'Medium: the answer passed the checks and cites its sources, but some sentences are less directly backed, part of the question was not covered, or a document contained planted instructions.',
  low: 'Low: the answer could not be fully validated, cites nothing, or fewer than half of its sentences are backed by the sources. Read the sources before relying on it.',
};

/** The tooltip text for a confidence badge. */
export function confidenceExplanation(confidence: Confidence): string {
  return CONFIDENCE_TEXT[confidence];
}

const FLAG_TEXT: Record<string, string> = {
  injection_in_context: 'A document contained instructions aimed at the assistant; they were ignored.',
  injection_attempt_blocked: 'The assistant tried to act on text planted in a document; that step was blocked.',
  prompt_injection: 'The question looked like an attempt to change the assistant’s rules, so it was not run.',
  empty_knowledge_base: 'You have no indexed documents yet, so there was nothing to search.',
  question_too_short: 'The question was too short to search for; add a few words.',
  question_too_long: 'The question was too long; shorten it and ask again.',
  empty_question: 'The question was empty.',
  extractive_mode: 'No language model answered, so the answer quotes sentences from your documents.',
};

/** A plain-words explanation of a safety flag (unknown flags are humanised, never dropped). */
export function safetyFlagExplanation(flag: string): string {
  return FLAG_TEXT[flag] ?? `${flag.replace(/_/g, ' ')}.`;
}

const CHECK_TEXT: Record<string, string> = {
  process: 'Process check',
  draft: 'Answer check',
};

/** "Answer check 2" / "Process check 1". */
export function validationLabel(stage: 'process' | 'draft', attempt: number): string {
  return `${CHECK_TEXT[stage] ?? 'Check'} ${attempt}`;
}

/** 12 → "12 ms", 1534 → "1.5 s". */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** The query of a search from its result summary (`12 hits for "x"`), for traces saved without the call. */
export function queryFromSummary(summary: string): string | null {
  const match = /(?:hits for|No results for|Followed) "([^"]*)"/.exec(summary);
  return match?.[1] ?? null;
}

/** "page 3" / "sheet Budget" / "Intro › Setup" / "" for a cited location. */
export function locationLabel(loc: { page: number | null; sheet: string | null; headingPath: string | null }): string {
  if (loc.page !== null) return `page ${loc.page}`;
  if (loc.sheet) return `sheet ${loc.sheet}`;
  if (loc.headingPath) return loc.headingPath;
  return '';
}
