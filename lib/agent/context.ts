import type { LanguageModel } from 'ai';
import type { EventSink, ToolName } from './events';
import type { AgentLimits } from './limits';
import type { AgentState } from './state';
import type { AgentTool, ToolContext } from './tools/types';
import type { AgentDeps, RunAgentInput } from './types';

/** Everything one run carries between stages (internal; not part of the public contract). */
export interface RunContext {
  input: RunAgentInput;
  deps: AgentDeps;
  limits: AgentLimits;
  sink: EventSink;
  state: AgentState;
  tools: Map<ToolName, AgentTool>;
  toolCtx: ToolContext;
  now: () => number;
  startedAt: number;
  /** The caller's signal combined with the wall-clock deadline. */
  signal: AbortSignal;
  /** Set to null after a decision-model failure: the rest of the run uses the extractive policy. */
  decisionModel: LanguageModel | null;
  synthesisModel: LanguageModel | null;
  /** True when no decision model was given (extractive mode). */
  extractive: boolean;
  timings: { modelMs: number; synthesisMs: number; validationMs: number; firstTokenAt: number | null };
}

/** True once the caller aborted (not the wall clock). */
export function userAborted(rc: RunContext): boolean {
  return rc.input.signal?.aborted ?? false;
}

/** True once the wall-clock limit has passed. */
export function wallClockExceeded(rc: RunContext): boolean {
  return rc.now() - rc.startedAt >= rc.limits.wallClockMs;
}

/** Milliseconds left before the wall clock bites (at least 1, so deadlines stay valid). */
export function wallClockLeft(rc: RunContext): number {
  return Math.max(1, rc.limits.wallClockMs - (rc.now() - rc.startedAt));
}
