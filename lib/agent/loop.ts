import { checkOverload, noResultsDetails, nothingRelevant, reviewClarification } from './clarify';
import { type RunContext, userAborted, wallClockExceeded } from './context';
import type { DecisionAction } from './decision-action';
import { fitEvidence, markIrrelevant } from './evidence';
import { executeCalls } from './execute';
import { modelNextAction } from './policy-model';
import { type PolicyStep, policyStepFallback } from './policy-step';
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
 *
 * Shape: `runLoop` = overload check → `stepUntilStop` (one `takeStep` per iteration) → `finish`, the one place
 * that decides what the run delivers (`chooseDelivery`) and builds the LoopOutcome.
 */

/**
 * How the delivered answer was decided (the only paths there are). clarification: a question back instead of an
 * answer. accepted: a draft that passed the gate. stopped: the caller aborted; the best draft so far, as it was
 * (not validated). repaired: the best grounded version of the best rejected draft, validated again (`validated`
 * says whether it passed). nothing: no draft was written.
 */
export type DeliveryPath = 'clarification' | 'accepted' | 'stopped' | 'repaired' | 'nothing';

export interface LoopOutcome {
  delivery: DeliveryPath;
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

type Judged = { draft: Draft; validation: ValidationResult };

/** The loop's own memory across steps (the evidence itself lives in rc.state). */
interface LoopRun {
  /** Drafts written so far. */
  attempts: number;
  /** The gate's messages on the last rejected draft, for the next rewrite. */
  draftFeedback: string[];
  /** The draft with the fewest gate errors so far (the fallback when none passes). */
  best: Judged | null;
  /** The draft that passed the gate. */
  accepted: Judged | null;
  /** Citation numbers drafts used that matched no opened source. */
  invented: number[];
  /** What the last tool step returned, shown to the decision model on the next step. */
  lastStep: string[];
  budgetNoted: boolean;
  previousDraft: string | null;
}

/** Why the loop stopped stepping. */
type Stop =
  | { kind: 'clarify'; clarification: Clarification }
  | { kind: 'accepted' }
  | { kind: 'aborted' }
  /** A bound bit (wall clock, iterations, reprompts) or drafts stopped changing. */
  | { kind: 'bound' };

/** What `chooseDelivery` decides: the answer and by which path; `finish` adds the run's counters. */
type Delivery = Pick<
  LoopOutcome,
  'delivery' | 'answer' | 'validated' | 'validation' | 'insufficiencies' | 'clarification' | 'source'
>;

export async function runLoop(rc: RunContext): Promise<LoopOutcome> {
  const run: LoopRun = {
    attempts: 0,
    draftFeedback: [],
    best: null,
    accepted: null,
    invented: [],
    lastStep: [],
    budgetNoted: false,
    previousDraft: null,
  };
  const overload = await handleOverload(rc);
  const stop: Stop = overload ? { kind: 'clarify', clarification: overload } : await stepUntilStop(rc, run);
  return finish(rc, run, stop);
}

/** A question too broad for the budget is answered with a clarification before any step. */
async function handleOverload(rc: RunContext): Promise<Clarification | null> {
  const overload = await checkOverload(rc).catch(() => null);
  if (overload) rc.sink.push({ type: 'clarify', clarification: overload });
  return overload;
}

async function stepUntilStop(rc: RunContext, run: LoopRun): Promise<Stop> {
  while (true) {
    const bound = boundBefore(rc);
    if (bound) return bound;
    fitEvidenceToBudget(rc);
    rc.state.iterations++;
    const stop = await takeStep(rc, run);
    if (stop) return stop;
  }
}

/** The caller's abort, the wall clock and the step limit, checked before each step. */
function boundBefore(rc: RunContext): Stop | null {
  const { state, sink, limits } = rc;
  if (userAborted(rc)) return { kind: 'aborted' };
  if (wallClockExceeded(rc)) {
    sink.push({
      type: 'limit',
      limit: 'wall_clock',
      value: limits.wallClockMs,
      detail: 'The run reached its time limit; answering with what it has.',
    });
    return { kind: 'bound' };
  }
  if (state.iterations >= limits.maxIterations) {
    sink.push({
      type: 'limit',
      limit: 'iterations',
      value: limits.maxIterations,
      detail: 'The step limit was reached; answering with what the run has.',
    });
    return { kind: 'bound' };
  }
  return null;
}

function fitEvidenceToBudget(rc: RunContext): void {
  const pruned = fitEvidence(rc.state);
  if (!pruned) return;
  rc.sink.push({
    type: 'limit',
    limit: 'evidence_tokens',
    value: rc.limits.evidenceTokenBudget,
    detail: `Evidence ${pruned.before} → ${pruned.after} tokens: ${pruned.prunedResults} result(s) pruned, ${pruned.shortenedSources} source(s) shortened.`,
  });
}

async function nextStep(rc: RunContext, lastStep: string[]): Promise<PolicyStep> {
  // An overview ("what is this document about?") reads the documents' openings first, whoever decides the rest: a
  // model searching for "document about" would find nothing.
  if (rc.decisionModel && !overviewPending(rc)) return modelNextAction(rc, lastStep);
  return policyStepFallback(rc);
}

function overviewPending(rc: RunContext): boolean {
  const { plan, searches } = rc.state;
  return plan.documents?.kind === 'overview' && !searches.some((s) => s.tool === 'read_opening');
}

/** One decision and what it leads to: tool calls, a clarification, or a final draft. Null: keep stepping. */
async function takeStep(rc: RunContext, run: LoopRun): Promise<Stop | null> {
  const { state } = rc;
  const step = await nextStep(rc, run.lastStep);
  run.lastStep = [];
  if (step.kind === 'aborted') return { kind: 'aborted' };
  let action: DecisionAction = step.action;
  if (action.irrelevant && action.irrelevant.length > 0) markIrrelevant(state, action.irrelevant);

  if (action.action === 'tool_call') {
    if (remainingToolCalls(state) > 0) {
      run.lastStep = await executeCalls(rc, action.calls ?? []);
      return null;
    }
    noteToolBudgetUsed(rc, run);
    action = { action: 'final', reason: 'tool budget used' };
  }
  if (action.action === 'clarify' && action.clarification) return clarifyStep(rc, action.clarification);
  return finalStep(rc, run);
}

function noteToolBudgetUsed(rc: RunContext, run: LoopRun): void {
  if (!run.budgetNoted)
    rc.sink.push({
      type: 'limit',
      limit: 'tool_calls',
      value: rc.limits.maxToolCalls,
      detail: 'Tool budget used up; writing the answer from what was gathered.',
    });
  run.budgetNoted = true;
}

/** A clarification the review accepts ends the run; a refused one goes back to the model as feedback. */
function clarifyStep(rc: RunContext, asked: Clarification): Stop | null {
  const review = reviewClarification(rc, asked);
  if ('accept' in review) {
    rc.sink.push({ type: 'clarify', clarification: review.accept });
    return { kind: 'clarify', clarification: review.accept };
  }
  rc.state.feedback.push(review.refuse);
  return null;
}

/** "final": the process gate first (so a premature final costs no draft), then one draft through the gate. */
async function finalStep(rc: RunContext, run: LoopRun): Promise<Stop | null> {
  const { state, sink, limits } = rc;
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
    return null;
  }
  if (state.opened.length === 0 && state.searches.length > 0 && nothingRelevant(rc) && state.results.size === 0) {
    const clarification: Clarification = {
      type: 'no_results',
      question: 'I found nothing in your documents for this. Could you rephrase it or name the document?',
      details: noResultsDetails(rc),
    };
    sink.push({ type: 'clarify', clarification });
    return { kind: 'clarify', clarification };
  }
  const verdict = await judgeDraft(rc, run);
  if (verdict === 'accepted') return { kind: 'accepted' };
  if (verdict === 'aborted') return { kind: 'aborted' };
  return repromptAfterRejection(rc, run);
}

/** Writes one draft and runs the gate on it; keeps the best and the accepted draft in `run`. */
async function judgeDraft(rc: RunContext, run: LoopRun): Promise<'accepted' | 'rejected' | 'aborted'> {
  const { state, sink, limits } = rc;
  run.attempts++;
  const draft = await synthesizeDraft(rc, run.attempts, run.draftFeedback);
  if (userAborted(rc)) {
    if (draft.text.trim()) run.best = run.best ?? { draft, validation: { passed: false, errors: [] } };
    return 'aborted';
  }
  const started = rc.now();
  const skipProcess = remainingToolCalls(state) === 0 || state.reprompts >= limits.maxReprompts;
  const validation = validateDraft(draft.text, state, { skipProcess });
  for (const m of citationMarkers(draft.text))
    if (!state.opened.some((o) => o.n === m.n) && !run.invented.includes(m.n)) run.invented.push(m.n);
  rc.timings.validationMs += rc.now() - started;
  sink.push({
    type: 'validation',
    stage: 'draft',
    attempt: run.attempts,
    passed: validation.passed,
    errors: validation.errors,
  });
  if (!run.best || validation.errors.length <= run.best.validation.errors.length) run.best = { draft, validation };
  if (validation.passed) {
    run.accepted = { draft, validation };
    return 'accepted';
  }
  sink.push({ type: 'draft_rejected', attempt: run.attempts, errors: validation.errors });
  run.draftFeedback = validation.errors.map((e) => e.message);
  return 'rejected';
}

/** After a rejected draft: stop at the reprompt limit or when drafts stop changing, else send the errors back. */
function repromptAfterRejection(rc: RunContext, run: LoopRun): Stop | null {
  const { state, sink, limits } = rc;
  const currentText: string = run.best?.draft.text ?? '';
  const noProgress = run.previousDraft !== null && run.previousDraft === currentText && !rc.decisionModel;
  run.previousDraft = currentText;
  if (state.reprompts >= limits.maxReprompts) {
    sink.push({
      type: 'limit',
      limit: 'reprompts',
      value: limits.maxReprompts,
      detail: 'The answer failed validation too often; returning its best grounded version.',
    });
    return { kind: 'bound' };
  }
  if (noProgress) return { kind: 'bound' };
  const mustSearch = run.best?.validation.errors.some((e) => /SEARCH|TOPIC|OPEN/.test(e.code)) ?? false;
  reprompt(rc, run.best?.validation.errors ?? [], mustSearch);
  return null;
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

/** The one place the loop's outcome is built: a bound that bit before any draft gets one draft now, then the delivery. */
async function finish(rc: RunContext, run: LoopRun, stop: Stop): Promise<LoopOutcome> {
  let aborted = stop.kind === 'aborted';
  if (stop.kind === 'bound' && run.attempts === 0) {
    // Extractive when the clock is gone.
    if (wallClockExceeded(rc)) rc.synthesisModel = null;
    if ((await judgeDraft(rc, run)) === 'aborted') aborted = true;
  }
  const delivery = chooseDelivery(rc, run, stop, aborted);
  return {
    delivery: delivery.delivery,
    answer: delivery.answer,
    validated: delivery.validated,
    validation: delivery.validation,
    insufficiencies: delivery.insufficiencies,
    clarification: delivery.clarification,
    attempts: run.attempts,
    aborted,
    source: delivery.source,
    inventedMarkers: run.invented,
  };
}

/** Decides what the run delivers, in this order: a clarification, the accepted draft, or the best fallback. */
function chooseDelivery(rc: RunContext, run: LoopRun, stop: Stop, aborted: boolean): Delivery {
  const none: Omit<Delivery, 'delivery' | 'answer'> = {
    validated: false,
    validation: null,
    insufficiencies: [],
    clarification: null,
    source: 'none',
  };
  if (stop.kind === 'clarify') {
    const { clarification } = stop;
    return { ...none, delivery: 'clarification', answer: clarification.question, clarification };
  }
  const fromDraft = (delivery: DeliveryPath, judged: Judged, validated: boolean): Delivery => ({
    delivery,
    answer: judged.draft.text,
    validated,
    validation: judged.validation,
    insufficiencies: judged.draft.insufficiencies ?? [],
    clarification: null,
    source: judged.draft.source,
  });
  if (run.accepted) return fromDraft('accepted', run.accepted, true);
  const best = run.best;
  if (!best) return { ...none, delivery: 'nothing', answer: '' };
  if (aborted) return fromDraft('stopped', best, false);
  const repaired = bestGroundedVersion(best.draft.text, rc.state);
  const check = validateDraft(repaired.answer, rc.state, { skipProcess: true });
  rc.sink.push({
    type: 'validation',
    stage: 'draft',
    attempt: run.attempts + 1,
    passed: check.passed,
    errors: check.errors,
  });
  return fromDraft('repaired', { draft: { ...best.draft, text: repaired.answer }, validation: check }, check.passed);
}
