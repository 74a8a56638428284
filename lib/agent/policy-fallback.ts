import type { RunContext } from './context';
import { extractiveNextAction } from './policy-extractive';
import type { PolicyStep } from './policy-model';

/** The extractive policy's step, in the shape the loop expects. */
export function policyStepFallback(rc: RunContext): PolicyStep {
  return { kind: 'action', action: extractiveNextAction(rc.state, rc.tools), by: 'extractive' };
}
