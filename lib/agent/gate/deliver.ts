import type { AgentState } from '../state';
import type { Insufficiency } from '../types';
import { checkAnswer } from './check';

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
  /** verified: the draft as written passed; repaired: its best grounded version passed; report: nothing passed. */
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

/** The text every run path must deliver: the draft if it passes, else its repair if that passes, else the report. */
export function deliverable(input: DeliverInput): GatedAnswer {
  const draft = input.draft.trim();
  const finish = (text: string, kind: GatedKind) =>
    brand(input.stopped ? `${text}\n\n${STOPPED_NOTE}` : text, kind, input.stopped);
  if (draft.length > 0) {
    if (input.trust(draft).length === 0) return finish(draft, 'verified');
    const repaired = input.repair(draft).trim();
    if (repaired.length > 0 && input.trust(repaired).length === 0 && hasCitedClaim(repaired, input.state))
      return finish(repaired, 'repaired');
  }
  return brand(insufficiencyReport(input.state, input.insufficiencies, input.stopped), 'report', input.stopped);
}

/** A fixed message of the agent (refusal, clarification question, error), not a drafted answer. */
export function notice(text: string, stopped = false): GatedAnswer {
  return brand(text, 'notice', stopped);
}

const quoteList = (xs: readonly string[]) => xs.map((x) => `"${x}"`).join(', ');

/** What was searched, what was found and what is missing, in plain words. */
export function insufficiencyReport(
  state: AgentState,
  insufficiencies: readonly Insufficiency[],
  stopped: boolean,
): string {
  const phrase = state.constraints.insufficiencyPhrase || 'Insufficient documentation';
  const head = stopped
    ? 'The run was stopped before an answer could be checked against your documents, so no answer is given.'
    : `${phrase}: no answer could be verified against your documents.`;
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
