import { type InjectionFinding, scanForInjection } from './injection';
import { classifyInjection } from './injection-classifier';
import { learnedFinding } from './retrieved-flags';

/**
 * A combination of the rules (injection.ts) and the learned classifier that eval:injection measures beside the
 * product's verdict (retrieved-flags.ts: rules or classifier, in two tiers).
 */

/** A sentence the rules score at least this much is suspicious enough for the classifier to decide on. */
const SUSPICIOUS = 1;

/**
 * Rules and the learned classifier (injection-classifier.ts) together: the rules' findings, plus windows where a
 * sentence the rules score at least SUSPICIOUS (below their threshold) is also flagged by the classifier. Measured
 * in eval:injection, not used by the product (docs/benchmarks-agent.md, "Learned classifier").
 */
export function scanAgreeing(text: string): InjectionFinding[] {
  const rules = scanForInjection(text);
  const suspicious = scanForInjection(text, { threshold: SUSPICIOUS }).filter(
    (s) => !rules.some((f) => f.start < s.end && f.end > s.start),
  );
  if (suspicious.length === 0) return rules;
  const learned = classifyInjection(text, {
    only: (w) => suspicious.some((s) => s.start < w.end && s.end > w.start),
  }).map(learnedFinding);
  return learned.length === 0 ? rules : [...rules, ...learned].sort((x, y) => x.start - y.start);
}
