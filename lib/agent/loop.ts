import type { DecisionAction } from './actions';
import { checkOverload, noResultsDetails, nothingRelevant, reviewClarification } from './clarify';
import { type RunContext, userAborted, wallClockExceeded } from './context';
import { fitEvidence, markIrrelevant } from './evidence';
import { executeCalls } from './execute';
import { policyStepFallback } from './policy-fallback';
import { modelNextAction, type PolicyStep } from './policy-model';
import { bestGroundedVersion } from './repair';
import { remainingToolCalls } from './state';
import { type Draft, synthesizeDraft } from './synthesis';
import { citationMarkers } from './text';
import type { Clarification, Insufficiency } from './types';
import { type ValidationResult, validateDraft, validateProcess } from './validate';

/**
 * Stage 4 with stages 6-7 inside it: the bounded loop. Each step one action (model or extractive policy); a
 * "final" passes the process gate, then a draft is written and validated; a rejected draft goes back with its
 * errors and the remaining budget (at most maxReprompts times). When a bound bites, the best grounded version is
 * returned. Never throws for tool or model failures.
 */

export interface LoopOutcome {
  answer: string;
  validated: boolean;
  validation: ValidationResult | null;
  insufficiencies: Insufficiency[];
  clarification: Clarification | null;
  attempts: number;
  aborted: boolean;
  source: Draft['source'] | 'none';
  /** Citation numbers drafts used that matched no opened source (stripped or repaired away). */
  inventedMarkers: number[];
}

function reprompt(rc: RunContext, errors: ValidationResult['errors'], mustSearch: boolean): void {
  const { state } = rc;
  state.reprompts++;
  const remaining = remainingToolCalls(state);
  const message = [
    'VALIDATION FAILED - your answer does not meet the requirements.',
    ...errors.map((e) => `- ${e.message}`),
    `REMAINING TOOL BUDGET: ${remaining} call(s).`,
    mustSearch && remaining > 0
      ? 'You MUST output a tool_call to gather more information before finalizing.'
      : 'Fix the answer; use a tool_call first if you need more evidence.',
  ].join('\n');
  state.feedback.push(message);
  rc.sink.push({
    type: 'reprompt',
    attempt: state.reprompts,
    codes: errors.map((e) => e.code),
    remainingToolCalls: remaining,
    message,
  });
}

async function nextStep(rc: RunContext, lastStep: string[]): Promise<PolicyStep> {
  if (rc.decisionModel) return modelNextAction(rc, lastStep);
  return policyStepFallback(rc);
}

export async function runLoop(rc: RunContext): Promise<LoopOutcome> {
  const { state, sink, limits } = rc;
  let lastStep: string[] = [];
  let attempts = 0;
  let draftFeedback: string[] = [];
  type Judged = { draft: Draft; validation: ValidationResult };
  const track: { best: Judged | null; accepted: Judged | null } = { best: null, accepted: null };
  let clarification: Clarification | null = null;
  let aborted = false;
  let budgetNoted = false;
  let previousDraft: string | null = null;
  const invented: number[] = [];

  const overload = await checkOverload(rc).catch(() => null);
  if (overload) {
    sink.push({ type: 'clarify', clarification: overload });
    return {
      answer: overload.question,
      validated: false,
      validation: null,
      insufficiencies: [],
      clarification: overload,
      attempts: 0,
      aborted: false,
      source: 'none',
      inventedMarkers: invented,
    };
  }

  const draftAndValidate = async (): Promise<'accepted' | 'rejected' | 'aborted'> => {
    attempts++;
    const draft = await synthesizeDraft(rc, attempts, draftFeedback);
    if (userAborted(rc)) {
      if (draft.text.trim()) track.best = track.best ?? { draft, validation: { passed: false, errors: [] } };
      return 'aborted';
    }
    const started = rc.now();
    const skipProcess = remainingToolCalls(state) === 0 || state.reprompts >= limits.maxReprompts;
    const validation = validateDraft(draft.text, state, { skipProcess });
    for (const m of citationMarkers(draft.text))
      if (!state.opened.some((o) => o.n === m.n) && !invented.includes(m.n)) invented.push(m.n);
    rc.timings.validationMs += rc.now() - started;
    sink.push({
      type: 'validation',
      stage: 'draft',
      attempt: attempts,
      passed: validation.passed,
      errors: validation.errors,
    });
    if (!track.best || validation.errors.length <= track.best.validation.errors.length)
      track.best = { draft, validation };
    if (validation.passed) {
      track.accepted = { draft, validation };
      return 'accepted';
    }
    sink.push({ type: 'draft_rejected', attempt: attempts, errors: validation.errors });
    draftFeedback = validation.errors.map((e) => e.message);
    return 'rejected';
  };

  while (true) {
    if (userAborted(rc)) {
      aborted = true;
      break;
    }
    if (wallClockExceeded(rc)) {
      sink.push({
        type: 'limit',
        limit: 'wall_clock',
        value: limits.wallClockMs,
        detail: 'The run reached its time limit; answering with what it has.',
      });
      break;
    }
    if (state.iterations >= limits.maxIterations) {
      sink.push({
        type: 'limit',
        limit: 'iterations',
        value: limits.maxIterations,
        detail: 'The step limit was reached; answering with what the run has.',
      });
      break;
    }
    const pruned = fitEvidence(state);
    if (pruned) {
      sink.push({
        type: 'limit',
        limit: 'evidence_tokens',
        value: limits.evidenceTokenBudget,
        detail: `Evidence ${pruned.before} → ${pruned.after} tokens: ${pruned.prunedResults} result(s) pruned, ${pruned.shortenedSources} source(s) shortened.`,
      });
    }
    state.iterations++;
    const step = await nextStep(rc, lastStep);
    lastStep = [];
    if (step.kind === 'aborted') {
      aborted = true;
      break;
    }
    let action: DecisionAction = step.action;
    if (action.irrelevant && action.irrelevant.length > 0) markIrrelevant(state, action.irrelevant);

    if (action.action === 'tool_call') {
      if (remainingToolCalls(state) === 0) {
        if (!budgetNoted)
          sink.push({
            type: 'limit',
            limit: 'tool_calls',
            value: limits.maxToolCalls,
            detail: 'Tool budget used up; writing the answer from what was gathered.',
          });
        budgetNoted = true;
        action = { action: 'final', reason: 'tool budget used' };
      } else {
        lastStep = await executeCalls(rc, action.calls ?? []);
        continue;
      }
    }

    if (action.action === 'clarify' && action.clarification) {
      const review = reviewClarification(rc, action.clarification);
      if ('accept' in review) {
        clarification = review.accept;
        sink.push({ type: 'clarify', clarification });
        break;
      }
      state.feedback.push(review.refuse);
      continue;
    }

    // final: the process gate first, so a premature final costs no draft.
    const process = validateProcess(state);
    if (!process.passed && remainingToolCalls(state) > 0 && state.reprompts < limits.maxReprompts) {
      sink.push({
        type: 'validation',
        stage: 'process',
        attempt: state.reprompts + 1,
        passed: false,
        errors: process.errors,
      });
      reprompt(rc, process.errors, true);
      continue;
    }
    if (state.opened.length === 0 && state.searches.length > 0 && nothingRelevant(rc) && state.results.size === 0) {
      clarification = {
        type: 'no_results',
        question: 'I found nothing in your documents for this. Could you rephrase it or name the document?',
        details: noResultsDetails(rc),
      };
      sink.push({ type: 'clarify', clarification });
      break;
    }
    const verdict = await draftAndValidate();
    if (verdict === 'accepted') break;
    if (verdict === 'aborted') {
      aborted = true;
      break;
    }
    const currentText: string = track.best?.draft.text ?? '';
    const noProgress = previousDraft !== null && previousDraft === currentText && !rc.decisionModel;
    previousDraft = currentText;
    if (state.reprompts >= limits.maxReprompts) {
      sink.push({
        type: 'limit',
        limit: 'reprompts',
        value: limits.maxReprompts,
        detail: 'The answer failed validation too often; returning its best grounded version.',
      });
      break;
    }
    if (noProgress) break;
    const mustSearch = track.best?.validation.errors.some((e) => /SEARCH|TOPIC|OPEN/.test(e.code)) ?? false;
    reprompt(rc, track.best?.validation.errors ?? [], mustSearch);
  }

  const insufficiencyOf = (d: Draft | undefined) => d?.insufficiencies ?? [];
  if (clarification) {
    return {
      answer: clarification.question,
      validated: false,
      validation: null,
      insufficiencies: [],
      clarification,
      attempts,
      aborted,
      source: 'none',
      inventedMarkers: invented,
    };
  }
  const done = track.accepted;
  if (done) {
    return {
      answer: done.draft.text,
      validated: true,
      validation: done.validation,
      insufficiencies: insufficiencyOf(done.draft),
      clarification: null,
      attempts,
      aborted,
      source: done.draft.source,
      inventedMarkers: invented,
    };
  }
  if (!aborted && attempts === 0) {
    // A bound bit before any draft: write one now (extractive when the clock is gone).
    if (wallClockExceeded(rc)) rc.synthesisModel = null;
    const verdict = await draftAndValidate();
    const first = track.accepted;
    if (verdict === 'accepted' && first) {
      return {
        answer: first.draft.text,
        validated: true,
        validation: first.validation,
        insufficiencies: insufficiencyOf(first.draft),
        clarification: null,
        attempts,
        aborted,
        source: first.draft.source,
        inventedMarkers: invented,
      };
    }
    if (verdict === 'aborted') aborted = true;
  }
  const fallback = track.best;
  if (!fallback)
    return {
      answer: '',
      validated: false,
      validation: null,
      insufficiencies: [],
      clarification: null,
      attempts,
      aborted,
      source: 'none',
      inventedMarkers: invented,
    };
  if (aborted) {
    return {
      answer: fallback.draft.text,
      validated: false,
      validation: fallback.validation,
      insufficiencies: insufficiencyOf(fallback.draft),
      clarification: null,
      attempts,
      aborted,
      source: fallback.draft.source,
      inventedMarkers: invented,
    };
  }
  const repaired = bestGroundedVersion(fallback.draft.text, state);
  const check = validateDraft(repaired.answer, state, { skipProcess: true });
  sink.push({ type: 'validation', stage: 'draft', attempt: attempts + 1, passed: check.passed, errors: check.errors });
  return {
    answer: repaired.answer,
    validated: check.passed,
    validation: check,
    insufficiencies: insufficiencyOf(fallback.draft),
    clarification: null,
    attempts,
    aborted,
    source: fallback.draft.source,
    inventedMarkers: invented,
  };
}
