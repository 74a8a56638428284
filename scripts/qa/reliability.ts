import { fitThresholds } from '@/lib/agent/confidence';
import type { Confidence } from '@/lib/agent/types';

/**
 * Calibration bookkeeping for the eval reports: the question files are split by position (even: fitting half, odd:
 * held-out half), thresholds are fitted on fitting halves only (`fitThresholds`: a band counts when the Wilson lower
 * bound of its precision reaches the target) and the reliability table (label, answers, share correct) is read on
 * the held-out half, so a band that only fits noise shows up as a miss there.
 */

/** What calibration needs of one answer: its label, its score and whether it was right. */
export interface Judged {
  ok: boolean;
  confidence: Confidence;
  confidenceScore: number;
}

/** The fitting half (even positions of the question file) and the held-out half (odd positions). */
export function halves<T>(items: readonly T[]): { fit: T[]; held: T[] } {
  return { fit: items.filter((_, i) => i % 2 === 0), held: items.filter((_, i) => i % 2 === 1) };
}

/** Label -> answers on the held-out half (labels as the product cut them), and the share correct of a group. */
export function reliability<T extends Judged>(outcomes: readonly T[]) {
  return byLabel(halves(outcomes).held);
}

/**
 * The same table for several runs together, each split by its own positions (e.g. the own set and ClapNQ in one
 * mode: the held-out count the High target is judged on); `half: 'fit'` reads the fitting halves instead.
 */
export function pooledReliability(runs: readonly (readonly Judged[])[], half: 'fit' | 'held' = 'held') {
  return byLabel(runs.flatMap((outcomes) => halves(outcomes)[half]));
}

function byLabel<T extends Judged>(held: readonly T[]) {
  const of = (label: Confidence) => held.filter((o) => o.confidence === label);
  const share = (xs: readonly T[]) => (xs.length === 0 ? 0 : (100 * xs.filter((o) => o.ok).length) / xs.length);
  return { high: of('high'), medium: of('medium'), low: of('low'), share };
}

/** Thresholds fitted on the fitting halves of the given runs together (each run split by its own positions). */
export function fittedOn(runs: readonly (readonly Judged[])[]): { high: number; medium: number } {
  return fitThresholds(
    runs.flatMap((outcomes) => halves(outcomes).fit.map((o) => ({ score: o.confidenceScore, correct: o.ok }))),
  );
}
