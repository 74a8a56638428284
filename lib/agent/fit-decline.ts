import { deniesTerms, polarityMismatch } from './answer-fit';
import { withoutInterrogatives } from './answer-type';
import { keyTerms } from './text';

/**
 * The fit signals (answer-fit.ts) strong enough to decline an answer, not only to lower its confidence. Of the five
 * doubts only one half of the polarity signal qualifies: the question asks about a denial ("What is not prevented from
 * entering an organism?", "When didn't Washington learn …", "two manners of articulation that do not occur in English")
 * and no quoted sentence states any negation, absence or exception. A plain sentence then says what is so, the
 * opposite of what was asked, and quoting it answers another question. The other half (a plain question quoted with a
 * sentence that denies one of its words) and the other doubts lost answerables on a fitting or held-out half
 * (docs/benchmarks-agent.md), so they stay confidence signals only.
 */
export function asksUnstatedDenial(question: string, sentences: readonly string[]): boolean {
  const terms = new Set(keyTerms(withoutInterrogatives(question)));
  if (terms.size === 0 || sentences.length === 0) return false;
  // The question's own negation must reach one of its topic words ("do not occur", "not be varied", "no good day");
  // a question with no denial of its own is never declined here.
  return deniesTerms(question, terms, true) && polarityMismatch(question, sentences);
}

/** Whether a fit signal strong enough to decline fires on the quoted sentences. */
export function fitDeclines(question: string, sentences: readonly string[]): boolean {
  return asksUnstatedDenial(question, sentences);
}
