import { memoByText } from './gate/memo';
import { findInjectedSpans, type InjectionFinding, scanForInjection } from './injection';
import { type ClassifierFinding, classifyInjection } from './injection-classifier';
import { splitSentences } from './text';

/**
 * The product's verdict on retrieved text (issue #13, item 7), in two tiers:
 *
 * - `injected`: what the rules flag (injection.ts). Precise (no flag on the eval's clean text and code), so these
 *   spans are treated as planted instructions: cut out of the evidence a chunk counts for, never quoted, an answer
 *   or tool call that repeats them is blocked.
 * - `suspect`: what only the learned classifier flags (injection-classifier.ts). It catches far more unseen attacks
 *   than the rules (docs/benchmarks-agent.md, "Learned classifier for injections"), but also flags some clean text
 *   that instructs people (forms, exam sheets, security notices). So a suspect span stays evidence: it may be quoted
 *   and cited for what the document says, the source is marked as holding instruction-like text (for the model, in
 *   the answer's citation and in the UI), an answer is not High when it cites one, and its instructions are never
 *   followed: a tool call copying it is blocked, and an answer may repeat it only as a quotation citing its source
 *   (validate.ts, `repeatsSuspectUncited`).
 */
export interface RetrievedFlags {
  injected: string[];
  suspect: string[];
}

/** Retrieved texts whose verdict is kept (about 2 KB each at most: a few MB). */
const FLAG_MEMO_TEXTS = 2000;
const NONE = Object.freeze<string[]>([]) as string[];

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
  a.start < b.end && a.end > b.start;

/** A classifier finding in the rules' finding shape (signal `learned`). */
export const learnedFinding = (c: ClassifierFinding): InjectionFinding => ({
  span: c.span,
  start: c.start,
  end: c.end,
  score: c.probability,
  signals: ['learned'],
});

/**
 * The classifier's findings, narrowed to the sentences it flags on their own. It also scores pairs of adjacent
 * sentences and merges overlapping windows, so a finding often takes in a clean neighbour ("The warranty covers
 * parts for two years." before the attack); the gate lets an answer restate a suspect span only as a quotation, so a
 * span must not hold more than the flagged sentence. A finding no single sentence explains (only a pair scored) is
 * kept whole.
 */
function learnedFindings(text: string, rules: readonly InjectionFinding[]): InjectionFinding[] {
  const merged = classifyInjection(text).filter((c) => !rules.some((f) => overlaps(f, c)));
  if (merged.length === 0) return [];
  const sentences = splitSentences(text);
  const withinOne = (w: { start: number; end: number }) => sentences.some((s) => w.start >= s.start && w.end <= s.end);
  const single = classifyInjection(text, {
    only: (w) => withinOne(w) && merged.some((m) => overlaps(m, w)),
  });
  return merged.flatMap((m) => {
    const inside = single.filter((s) => overlaps(s, m));
    return (inside.length > 0 ? inside : [m]).map(learnedFinding);
  });
}

/** Both tiers of findings with their positions (the eval measures these; the product uses flagRetrievedText). */
export function scanRetrievedText(text: string): { rules: InjectionFinding[]; learned: InjectionFinding[] } {
  const rules = scanForInjection(text);
  return { rules, learned: learnedFindings(text, rules) };
}

/** The product's findings in one list, rules and learned, in text order (what eval:injection scores). */
export function scanProduct(text: string): InjectionFinding[] {
  const { rules, learned } = scanRetrievedText(text);
  return [...rules, ...learned].sort((x, y) => x.start - y.start);
}

/**
 * The planted (rules) and suspect (classifier-only) spans of a retrieved text. Memoised by text (`memoByText`): a
 * run flags the same chunk when a search returns it and again when it is opened, and popular chunks come back across
 * runs; the verdict depends on the text alone. The arrays are frozen, since they are shared.
 */
export const flagRetrievedText: (text: string) => RetrievedFlags = memoByText((text: string): RetrievedFlags => {
  if (text.trim().length === 0) return { injected: NONE, suspect: NONE };
  const { rules, learned } = scanRetrievedText(text);
  return {
    injected: Object.freeze(findInjectedSpans(text, rules)) as string[],
    suspect: Object.freeze(learned.map((f) => f.span)) as string[],
  };
}, FLAG_MEMO_TEXTS);

/** True when either tier flagged something. */
export function isFlagged(flags: RetrievedFlags): boolean {
  return flags.injected.length > 0 || flags.suspect.length > 0;
}
