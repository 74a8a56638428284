import type { RunContext } from './context';
import type { PolicyStep } from './policy-model';
import { extractiveNextAction } from './policy-extractive';

/** The extractive policy's step, in the shape the loop expects. */
export function policyStepFallback(rc: RunContext): PolicyStep {
  return { kind: 'action', action: extractiveNextAction(rc.state, rc.tools), by: 'extractive' };
}
