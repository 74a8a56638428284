import { type RunContext, userAborted, wallClockLeft } from './context';
import { coerceAction, decisionActionSchema, parseAction } from './decision-action';
import { callStructured } from './model-call';
import { type PolicyStep, policyStepFallback } from './policy-step';
import { DECISION_INSTRUCTIONS, decisionPrompt } from './prompts';

/**
 * The model's decision step: one JSON action, constrained by the action's JSON schema at the model and validated
 * by zod. A malformed action is retried with the error (limits.maxMalformedRetries); after that the extractive
 * policy takes the step. A timeout or failed call hands the rest of the run to the extractive policy.
 */

export async function modelNextAction(rc: RunContext, lastStep: string[]): Promise<PolicyStep> {
  const model = rc.decisionModel;
  if (!model) return policyStepFallback(rc);
  const { state } = rc;
  const tools = [...rc.tools.values()].filter((t) => t.isAvailable(state));
  for (let attempt = 0; attempt <= rc.limits.maxMalformedRetries; attempt++) {
    const prompt = decisionPrompt({ state, tools, history: rc.input.history, lastStep });
    state.feedback = [];
    const outcome = await callStructured({
      model,
      instructions: DECISION_INSTRUCTIONS,
      prompt,
      schema: decisionActionSchema,
      name: 'agent_action',
      signal: rc.signal,
      timeoutMs: Math.min(rc.limits.decisionMs, wallClockLeft(rc)),
      now: rc.now,
      coerce: coerceAction,
    });
    rc.timings.modelMs += outcome.ms;
    if (userAborted(rc)) return { kind: 'aborted' };
    if (outcome.ok) {
      const checked = parseAction(outcome.value);
      if (checked.ok) return { kind: 'action', action: checked.action, by: 'model' };
      state.malformed++;
      state.feedback.push(`Your last output was not a valid action (${checked.message}). Output one JSON object.`);
      continue;
    }
    if (outcome.reason === 'malformed') {
      state.malformed++;
      state.feedback.push(`Your last output was not a valid action (${outcome.message}). Output one JSON object.`);
      continue;
    }
    rc.sink.push({
      type: 'fallback',
      stage: 'decision',
      reason: `${outcome.reason}: ${outcome.message}; the extractive policy decides the remaining steps`,
    });
    rc.decisionModel = null;
    return policyStepFallback(rc);
  }
  rc.sink.push({
    type: 'limit',
    limit: 'malformed_actions',
    value: rc.limits.maxMalformedRetries + 1,
    detail: 'The decision model returned no valid action; the extractive policy chose this step.',
  });
  rc.sink.push({
    type: 'fallback',
    stage: 'decision',
    reason: 'malformed action after retry; extractive policy used for this step',
  });
  return policyStepFallback(rc);
}
