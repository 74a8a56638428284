import { noResultsDetails } from './clarify';
import { type RunContext, userAborted } from './context';
import { executeCalls } from './execute';
import type { LoopOutcome } from './loop';
import { searchableQuestion } from './plan';
import { chooseOpens } from './policy-extractive';
import { bestGroundedVersion } from './repair';
import { synthesizeDraft } from './synthesis';
import { citationMarkers } from './text';
import { validateDraft } from './validate';

/**
 * Quick mode, a fixed pipeline: one hybrid retrieval, the best chunks opened, one synthesis, the same
 * validation gate and grounding; a failing draft is repaired to its best grounded version instead of looping.
 */
export async function runQuick(rc: RunContext): Promise<LoopOutcome> {
  const { state, sink } = rc;
  const none = (aborted: boolean): LoopOutcome => ({
    delivery: 'nothing',
    answer: '',
    validated: false,
    validation: null,
    insufficiencies: [],
    clarification: null,
    attempts: 0,
    aborted,
    source: 'none',
    inventedMarkers: [],
  });
  state.iterations++;
  // An overview reads the documents' openings; another question about documents searches its subject (the
  // plan's query), one passage per document.
  const documents = state.plan.documents;
  if (documents?.kind === 'overview') await executeCalls(rc, [{ tool: 'read_opening', query: documents.subject }]);
  else
    await executeCalls(rc, [{ tool: 'search_docs', query: documents?.subject ?? searchableQuestion(state.question) }]);
  if (userAborted(rc)) return none(true);
  if (state.results.size === 0) {
    const clarification = {
      type: 'no_results' as const,
      question: 'I found nothing in your documents for this. Could you rephrase it or name the document?',
      details: noResultsDetails(rc),
    };
    sink.push({ type: 'clarify', clarification });
    return { ...none(false), delivery: 'clarification', answer: clarification.question, clarification };
  }
  state.iterations++;
  const handles = chooseOpens(state, Math.min(rc.limits.quickOpen, rc.limits.maxContextCitations));
  await executeCalls(
    rc,
    handles.map((handle) => ({ tool: 'open_citation' as const, handle })),
  );
  if (userAborted(rc)) return none(true);
  const draft = await synthesizeDraft(rc, 1, []);
  if (userAborted(rc))
    return { ...none(true), delivery: 'stopped', answer: draft.text, attempts: 1, source: draft.source };
  const started = rc.now();
  const validation = validateDraft(draft.text, state, { skipProcess: true });
  const invented = [
    ...new Set(
      citationMarkers(draft.text)
        .map((m) => m.n)
        .filter((n) => !state.opened.some((o) => o.n === n)),
    ),
  ];
  rc.timings.validationMs += rc.now() - started;
  sink.push({ type: 'validation', stage: 'draft', attempt: 1, passed: validation.passed, errors: validation.errors });
  if (validation.passed) {
    return {
      delivery: 'accepted',
      answer: draft.text,
      validated: true,
      validation,
      insufficiencies: draft.insufficiencies,
      clarification: null,
      attempts: 1,
      aborted: false,
      source: draft.source,
      inventedMarkers: invented,
    };
  }
  sink.push({ type: 'draft_rejected', attempt: 1, errors: validation.errors });
  const repaired = bestGroundedVersion(draft.text, state);
  const check = validateDraft(repaired.answer, state, { skipProcess: true });
  sink.push({ type: 'validation', stage: 'draft', attempt: 2, passed: check.passed, errors: check.errors });
  return {
    delivery: 'repaired',
    answer: repaired.answer,
    validated: check.passed,
    validation: check,
    insufficiencies: draft.insufficiencies,
    clarification: null,
    attempts: 1,
    aborted: false,
    source: draft.source,
    inventedMarkers: invented,
  };
}
