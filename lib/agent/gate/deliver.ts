import type { AgentState } from '../state';
import type { Insufficiency } from '../types';
import { checkAnswer } from './check';
import { asRendered } from './rendered';

/**
 * The only way text reaches the user as an answer. A `GatedAnswer` can be built only here: from a draft that
 * passed the trust gate (as written, or as its best grounded version), or as the structured insufficiency
 * report (what was searched, what was found, what is missing) when nothing passes. Refusals, clarification
 * questions and error messages are `notice`s: fixed texts written by the agent, never a model's draft.
 */

declare const gatedBrand: unique symbol;

export type GatedKind = 'verified' | 'repaired' | 'report' | 'notice';

export interface GatedAnswer {
  readonly text: string;
  /**
   * verified: the draft as written passed (an answer citing nothing but admissions is followed by the report);
   * repaired: its best grounded version passed; report: nothing passed; notice: a fixed agent message.
   */
  readonly kind: GatedKind;
  /** Whether the run was stopped (by the caller or a deadline) before it finished. */
  readonly stopped: boolean;
  readonly [gatedBrand]: true;
}

function brand(text: string, kind: GatedKind, stopped: boolean): GatedAnswer {
  return Object.freeze({ text, kind, stopped }) as GatedAnswer;
}

export interface DeliverInput {
  state: AgentState;
  /** The candidate text ('' when the run produced none). */
  draft: string;
  /** The run was stopped (caller abort or wall clock) before it finished. */
  stopped: boolean;
  /** What the run found missing (for the report). */
  insufficiencies: readonly Insufficiency[];
  /** The full trust check (the gate plus planted-text and citation checks), from validate.ts. */
  trust: (text: string) => readonly { code: string }[];
  /** The best grounded version of a draft (repair.ts). */
  repair: (draft: string) => string;
}

const STOPPED_NOTE =
  '(Stopped before the answer was finished; the text above is what had been checked against the sources.)';

/** Whether the text states anything cited (not only admissions or headings). */
function hasCitedClaim(text: string, state: AgentState): boolean {
  const opened = new Set(state.opened.map((o) => o.n));
  return checkAnswer(text, state).units.some((u) => u.kind !== 'heading' && u.cites.some((n) => opened.has(n)));
}

/**
 * The text every run path must deliver: the draft if it passes the gate and states something cited, else its
 * best grounded version if that does, else the report (led by the draft's own admission when that passed).
 * A stopped run delivers checked text with a note that it was stopped, or the report saying so.
 */
export function deliverable(input: DeliverInput): GatedAnswer {
  const { state, stopped } = input;
  const passes = (text: string) => text.length > 0 && input.trust(text).length === 0;
  // The text as the reader will see it is what is checked and what is delivered (./rendered).
  const draft = asRendered(input.draft).trim();
  const withNote = (text: string) => (stopped ? `${text}\n\n${STOPPED_NOTE}` : text);
  // Nothing could be searched: say so (the report's head), whatever was drafted from no evidence.
  if (state.opened.length === 0 && state.safetyFlags.has('index_unavailable'))
    return brand(insufficiencyReport(state, input.insufficiencies, stopped), 'report', stopped);
  if (passes(draft) && (hasCitedClaim(draft, state) || (!stopped && state.opened.length === 0)))
    return brand(withNote(draft), 'verified', stopped);
  const repaired = draft.length > 0 ? input.repair(draft).trim() : '';
  if (passes(repaired) && hasCitedClaim(repaired, state)) return brand(withNote(repaired), 'repaired', stopped);
  // The draft passed but states nothing cited (an honest "not covered"): it leads the report.
  if (!stopped && passes(draft))
    return brand(insufficiencyReport(state, input.insufficiencies, false, draft), 'verified', false);
  const lead = !stopped && passes(repaired) ? repaired : null;
  return brand(insufficiencyReport(state, input.insufficiencies, stopped, lead), 'report', stopped);
}

/** A fixed message of the agent (refusal, clarification question, error), not a drafted answer. */
export function notice(text: string, stopped = false): GatedAnswer {
  return brand(text, 'notice', stopped);
}

const quoteList = (xs: readonly string[]) => xs.map((x) => `"${x}"`).join(', ');

/** What was searched, what was found and what is missing, in plain words, after `lead` (a checked admission). */
export function insufficiencyReport(
  state: AgentState,
  insufficiencies: readonly Insufficiency[],
  stopped: boolean,
  lead: string | null = null,
): string {
  const phrase = state.constraints.insufficiencyPhrase || 'Insufficient documentation';
  const indexDown = state.opened.length === 0 && state.safetyFlags.has('index_unavailable');
  const head =
    lead ??
    (stopped
      ? 'The run was stopped before an answer could be checked against your documents, so no answer is given.'
      : indexDown
        ? 'The search index is not reachable right now, so your documents could not be searched. Please try again in a moment.'
        : `${phrase}: no answer could be verified against your documents.`);
  const queries = [...new Set(state.searches.map((s) => s.query))];
  const found = state.opened.map((o) => {
    const c = o.chunk;
    const where = [c.page !== null ? `p. ${c.page}` : null, c.sheet ? `sheet ${c.sheet}` : null, c.headingPath]
      .filter(Boolean)
      .join(', ');
    return `${c.filename}${where ? ` (${where})` : ''}`;
  });
  const missing = [
    ...new Set(insufficiencies.map((i) => (i.section === 'Answer' ? i.missing : `${i.section}: ${i.missing}`))),
  ];
  return [
    head,
    `- Searched: ${queries.length > 0 ? quoteList(queries) : 'no search was run'}.`,
    `- Found: ${found.length > 0 ? `${found.length} passage(s) opened: ${[...new Set(found)].join('; ')}` : 'no passage was opened'}.`,
    `- Missing: ${missing.length > 0 ? missing.join('; ') : 'a passage that states an answer to the question, quoted and cited'}.`,
  ].join('\n');
}
