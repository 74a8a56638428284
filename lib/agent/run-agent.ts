import { answerSignals } from './confidence';
import {
  analyzeConstraints,
  capConstraints,
  hasDemands,
  mergeConstraints,
  modelConstraintsSchema,
  type PromptConstraints,
} from './constraints';
import type { RunContext } from './context';
import { createEventSink, type EventSink } from './events';
import { deliverable, type GatedAnswer, notice } from './gate/deliver';
import { buildInsufficiencies, computeConfidence, computeConfidenceScore, groundAnswer } from './grounding';
import { type GuardVerdict, guardKnowledgeBase, guardQuestion } from './guard';
import { resolveLimits } from './limits';
import { type LoopOutcome, runLoop } from './loop';
import { callStructured } from './model-call';
import { type AgentPlan, defaultPlan, planWithModel } from './plan';
import { scoreAnswer } from './quality';
import { runQuick } from './quick';
import { bestGroundedVersion } from './repair';
import { createAgentState } from './state';
import { synthesizeDraft } from './synthesis';
import { createTools } from './tools/registry';
import { resolveCallerFilters } from './tools/search-common';
import type { AgentDeps, AgentEmit, AgentResult, AgentStatus, AgentTimings, Confidence, RunAgentInput } from './types';
import { trustIssues, validateDraft } from './validate';

/**
 * Runs the agent: guard → constraints → plan → bounded tool loop (or quick pipeline) → synthesis → validation
 * gate → quality check → grounding. Emits typed events through `emit` and resolves to an AgentResult.
 * Promises: never rejects for model, tool or abort failures (status 'stopped' on abort, 'error' on an unexpected
 * failure, with an error event); the owner id comes only from `input.ownerId`; every bound is in deps.limits.
 */
export async function runAgent(input: RunAgentInput, deps: AgentDeps, emit?: AgentEmit): Promise<AgentResult> {
  const now = deps.now ?? (() => performance.now());
  const started = now();
  const limits = resolveLimits(deps.limits);
  const sink = createEventSink(emit);
  const extractive = deps.models.decision === null;
  const timings: AgentTimings = {
    totalMs: 0,
    firstTokenMs: null,
    guardMs: 0,
    constraintsMs: 0,
    planMs: 0,
    loopMs: 0,
    synthesisMs: 0,
    validationMs: 0,
    modelMs: 0,
  };
  const models = {
    decision: deps.models.names.decision,
    synthesis: deps.models.names.synthesis ?? deps.models.names.decision,
    embedding: deps.embedder?.model ?? deps.models.names.embedding,
    extractive,
  };
  const base = { mode: input.mode, models, trace: sink.trace, timings, strippedMarkers: [] as number[] };

  /** Every result leaves through here, and its answer must be a GatedAnswer (only the gate builds one). */
  const finish = (
    r: Omit<AgentResult, 'answer' | 'trace' | 'timings' | 'models' | 'mode' | 'strippedMarkers'> & {
      answer: GatedAnswer;
      strippedMarkers?: number[];
    },
    note: string,
  ): AgentResult => {
    timings.totalMs = round(now() - started);
    sink.push(
      {
        type: 'final',
        status: r.status,
        confidence: r.confidence,
        citations: r.citations.length,
        insufficiencies: r.insufficiencies.length,
        extractive,
        mode: input.mode,
        note,
      },
      'final',
    );
    return { ...base, ...r, answer: r.answer.text, strippedMarkers: r.strippedMarkers ?? [] };
  };
  const refuse = (v: Exclude<GuardVerdict, { ok: true }>): AgentResult =>
    finish(
      {
        answer: notice(v.answer),
        citations: [],
        insufficiencies: [],
        clarification: null,
        confidence: 'low',
        safetyFlags: v.safetyFlags,
        recommendedMode: input.mode,
        validated: false,
        status: 'complete',
      },
      `refused: ${v.reason}`,
    );

  try {
    const guard = guardQuestion(input.question, limits);
    if (!guard.ok) return refuse(guard);
    const kb = guardKnowledgeBase(await deps.catalog.countIndexedDocuments(input.ownerId));
    timings.guardMs = round(now() - started);
    if (kb) return refuse(kb);
    const question = guard.question;

    const wall = AbortSignal.timeout(limits.wallClockMs);
    const signal = input.signal ? AbortSignal.any([input.signal, wall]) : wall;

    let t = now();
    let constraints = capConstraints(analyzeConstraints(question), limits);
    const buckets = await deps.catalog.listBuckets(input.ownerId);
    const baseFilters = resolveCallerFilters(input.filters, buckets);
    if (!baseFilters.ok)
      return refuse({
        ok: false,
        reason: 'bad_filter',
        answer: `The search filter is not valid: ${baseFilters.error}`,
        safetyFlags: [],
      });
    const usesModelPlan = Boolean(deps.models.decision) && input.mode === 'agent';
    if (usesModelPlan) {
      // Show a plan at once (from the pattern analysis); the model's plan replaces it in place (same id) when ready.
      const early = defaultPlan(question, constraints, buckets, input.style);
      pushPlan(sink, early, constraints, hasDemands(constraints) || early.intent !== 'qa' ? 'agent' : 'quick');
    }
    if (deps.models.decision && input.mode === 'agent' && !input.signal?.aborted) {
      const outcome = await callStructured({
        model: deps.models.decision,
        instructions:
          'You read a user request to a document search agent and list its explicit requirements. Only what the user literally asks for; use 0, [] or "" when absent.',
        prompt: `Request: ${question}`,
        schema: modelConstraintsSchema,
        name: 'requirements',
        signal,
        timeoutMs: limits.planMs,
        now,
      });
      timings.modelMs += outcome.ms;
      if (outcome.ok) constraints = mergeConstraints(constraints, outcome.value, question, limits);
      else if (outcome.reason !== 'aborted')
        sink.push({
          type: 'fallback',
          stage: 'constraints',
          reason: `${outcome.reason}: ${outcome.message}; pattern analysis used`,
        });
    }
    timings.constraintsMs = round(now() - t);

    t = now();
    let fallbackPlan = defaultPlan(question, constraints, buckets, input.style);
    // "What is GDPR about?" names no document of the owner: an ordinary question about GDPR, not an overview.
    const overview = fallbackPlan.documents?.kind === 'overview' ? fallbackPlan.documents.subject : null;
    if (overview && (await deps.catalog.findDocumentsByName(input.ownerId, overview, 1)).length === 0)
      fallbackPlan = defaultPlan(question, constraints, buckets, input.style, { documentQuestions: false });
    let plan: AgentPlan = fallbackPlan;
    if (deps.models.decision && input.mode === 'agent' && !input.signal?.aborted) {
      const outcome = await planWithModel({
        model: deps.models.decision,
        question,
        constraints,
        buckets,
        fallback: fallbackPlan,
        signal,
        timeoutMs: limits.planMs,
        now,
      });
      timings.modelMs += outcome.modelMs;
      plan = outcome.plan;
      if (outcome.failure && !input.signal?.aborted)
        sink.push({ type: 'fallback', stage: 'plan', reason: `${outcome.failure}; default plan used` });
    }
    timings.planMs = round(now() - t);
    const recommendedMode = hasDemands(constraints) || plan.intent !== 'qa' ? 'agent' : 'quick';
    pushPlan(sink, plan, constraints, recommendedMode);

    const state = createAgentState({ ownerId: input.ownerId, question, constraints, plan, limits });
    const toolCtx = {
      ownerId: input.ownerId,
      index: deps.index,
      catalog: deps.catalog,
      embedder: deps.embedder,
      state,
      buckets,
      baseFilters: baseFilters.filters,
      signal,
      now,
      embedTimeoutMs: Math.min(limits.decisionMs, 30_000),
      summaries: deps.summaries ?? null,
      vision: deps.vision ?? null,
    };
    const rc: RunContext = {
      input: { ...input, question },
      deps,
      limits,
      sink,
      state,
      tools: createTools(toolCtx),
      toolCtx,
      now,
      startedAt: started,
      signal,
      decisionModel: deps.models.decision,
      synthesisModel: deps.models.decision ? (deps.models.synthesis ?? deps.models.decision) : null,
      extractive,
      timings: { modelMs: 0, synthesisMs: 0, validationMs: 0, firstTokenAt: null },
    };

    t = now();
    let outcome: LoopOutcome = input.mode === 'quick' ? await runQuick(rc) : await runLoop(rc);
    if (input.mode === 'agent') outcome = await qualityCheck(rc, outcome);
    timings.loopMs = round(now() - t);
    timings.modelMs = round(timings.modelMs + rc.timings.modelMs);
    timings.synthesisMs = round(rc.timings.synthesisMs);
    timings.validationMs = round(rc.timings.validationMs);
    timings.firstTokenMs = rc.timings.firstTokenAt === null ? null : round(rc.timings.firstTokenAt - started);

    const status: AgentStatus = outcome.aborted ? 'stopped' : 'complete';
    const safetyFlags = [...state.safetyFlags];
    if (extractive) safetyFlags.push('extractive_mode');
    if (outcome.clarification) {
      return finish(
        {
          answer: notice(outcome.clarification.question, outcome.aborted),
          citations: [],
          insufficiencies: [],
          clarification: outcome.clarification,
          confidence: 'low',
          safetyFlags,
          recommendedMode,
          validated: false,
          status,
        },
        `clarify: ${outcome.clarification.type}`,
      );
    }
    // Every answer path (accepted, repaired, reprompts exhausted, stopped, timed out, quick, extractive) ends here.
    const reported = buildInsufficiencies(state, outcome.insufficiencies);
    const gated = deliverable({
      state,
      draft: outcome.answer,
      stopped: outcome.aborted,
      insufficiencies: reported,
      trust: (text) => trustIssues(text, state),
      repair: (draft) => bestGroundedVersion(draft, state).answer,
    });
    if (gated.kind === 'repaired' || gated.kind === 'report')
      sink.push({
        type: 'fallback',
        stage: 'delivery',
        reason:
          gated.kind === 'repaired'
            ? 'The answer failed the trust gate; its best grounded version is delivered.'
            : 'Nothing the run wrote passed the trust gate; what was searched, found and missing is reported instead.',
      });
    const grounded = groundAnswer(gated.text, state);
    const insufficiencies =
      gated.kind === 'report' && reported.length === 0
        ? [
            {
              section: 'Answer',
              missing: 'No drafted answer passed the validation gate',
              queriesTried: state.searches.map((x) => x.query),
            },
          ]
        : reported;
    const validated = outcome.validated && gated.kind === 'verified' && !gated.stopped;
    // A cited passage holding instruction-like text (either tier): used as data, marked, never High.
    const citesSuspect = grounded.citations.some((c) => c.instructionLike);
    if (citesSuspect && !safetyFlags.includes('cites_instruction_like_text'))
      safetyFlags.push('cites_instruction_like_text');
    const confidenceArgs = {
      validated,
      citations: grounded.citations.length,
      support: grounded.support,
      insufficiencies: insufficiencies.length,
      answer: grounded.answer,
      injectionInContext: state.safetyFlags.has('injection_in_context') || citesSuspect,
      signals: answerSignals(state),
    };
    const confidence: Confidence = computeConfidence(confidenceArgs);
    const note = outcome.aborted
      ? `stopped by the caller (${gated.kind})`
      : validated
        ? `validated after ${outcome.attempts} draft(s)`
        : gated.kind === 'report'
          ? 'insufficiency report (no draft passed the gate)'
          : 'best grounded version (validation budget exhausted)';
    return finish(
      {
        answer: { ...gated, text: grounded.answer },
        citations: grounded.citations,
        insufficiencies,
        clarification: null,
        confidence,
        confidenceScore: Math.round(computeConfidenceScore(confidenceArgs) * 1000) / 1000,
        safetyFlags,
        recommendedMode,
        validated,
        status,
        strippedMarkers: [...new Set([...outcome.inventedMarkers, ...grounded.strippedMarkers])].sort((a, b) => a - b),
      },
      note,
    );
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    sink.push({ type: 'error', code: 'agent_failed', message: message.slice(0, 300), stage: 'run' });
    const stopped = input.signal?.aborted ?? false;
    return finish(
      {
        answer: notice(
          stopped
            ? 'The run was stopped before it produced an answer.'
            : 'Something went wrong while answering. Please try again.',
          stopped,
        ),
        citations: [],
        insufficiencies: [],
        clarification: null,
        confidence: 'low',
        safetyFlags: [],
        recommendedMode: input.mode,
        validated: false,
        status: stopped ? 'stopped' : 'error',
      },
      stopped ? 'stopped by the caller' : 'error',
    );
  }
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

function pushPlan(sink: EventSink, plan: AgentPlan, c: PromptConstraints, recommendedMode: 'agent' | 'quick'): void {
  sink.push(
    {
      type: 'plan',
      steps: plan.steps,
      intent: plan.intent,
      subQueries: plan.subQueries,
      buckets: plan.buckets,
      filters: plan.filters,
      outputFormat: plan.outputFormat,
      source: plan.source,
      constraints: {
        minSearches: c.minSearches,
        requiredTopics: c.requiredTopics,
        minOpenCitations: c.minOpenCitations,
        exactQuotes: c.exactQuotes,
        conflictRule: c.conflictRule,
        requiredSections: c.requiredSections,
        insufficiencyPhrase: c.insufficiencyPhrase,
        source: c.source,
      },
      recommendedMode,
    },
    'plan',
  );
}

/** Stage 8: score an accepted answer; one remediation retry when it scores below the threshold. */
async function qualityCheck(rc: RunContext, outcome: LoopOutcome): Promise<LoopOutcome> {
  if (!outcome.validated || !outcome.validation || outcome.aborted || outcome.clarification) return outcome;
  const first = scoreAnswer(outcome.answer, rc.state, outcome.validation, rc.input.style);
  if (first.score >= rc.limits.qualityThreshold || rc.now() - rc.startedAt >= rc.limits.wallClockMs) {
    rc.sink.push({ type: 'quality', attempt: 1, score: first.score, dimensions: first.dimensions, action: 'accept' });
    return outcome;
  }
  rc.sink.push({ type: 'quality', attempt: 1, score: first.score, dimensions: first.dimensions, action: 'retry' });
  const attempt = outcome.attempts + 1;
  const draft = await synthesizeDraft(rc, attempt, [], first.issues.join('; ') || 'cover the question more completely');
  const validation = validateDraft(draft.text, rc.state, { skipProcess: true });
  rc.sink.push({ type: 'validation', stage: 'draft', attempt, passed: validation.passed, errors: validation.errors });
  const second = scoreAnswer(draft.text, rc.state, validation, rc.input.style);
  if (validation.passed && second.score > first.score) {
    rc.sink.push({ type: 'quality', attempt: 2, score: second.score, dimensions: second.dimensions, action: 'accept' });
    return {
      ...outcome,
      answer: draft.text,
      validation,
      insufficiencies: draft.insufficiencies,
      attempts: attempt,
      source: draft.source,
    };
  }
  rc.sink.push({
    type: 'draft_rejected',
    attempt,
    errors: validation.passed
      ? [{ code: 'QUALITY_NOT_BETTER', message: `Retry scored ${second.score}, not above ${first.score}.` }]
      : validation.errors,
  });
  rc.sink.push({ type: 'quality', attempt: 2, score: first.score, dimensions: first.dimensions, action: 'keep_best' });
  return outcome;
}
