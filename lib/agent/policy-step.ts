import type { RunContext } from './context';
import type { DecisionAction } from './decision-action';
import { extractiveNextAction } from './policy-extractive';

/** One decision step as the loop receives it: an action (and who chose it), or the caller stopped the run. */
export type PolicyStep = { kind: 'action'; action: DecisionAction; by: 'model' | 'extractive' } | { kind: 'aborted' };

/** The extractive policy's step, in the shape the loop expects. */
export function policyStepFallback(rc: RunContext): PolicyStep {
  return { kind: 'action', action: extractiveNextAction(rc.state, rc.tools), by: 'extractive' };
}
