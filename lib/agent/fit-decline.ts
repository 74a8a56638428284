import { analyze } from '@/lib/retrieval/analyzer';
import { deniesTerms, polarityMismatch } from './answer-fit';
import { withoutInterrogatives } from './answer-type';
import { keyTerms } from './text';

/** A negating prefix on a word ("unpaid", "non-resident", "disallowed"). */
const NEGATING_PREFIX = /^(?:un|non|dis|in|im|il|ir)-?(\p{L}{3,})$/iu;

/**
 * A quoted sentence says a word the question denies with a negating prefix ("unpaid" for "have not paid",
 * "non-resident" for "are not resident"): it states the denial in one word, which the negation words do not see.
 */
function deniesByPrefix(sentence: string, terms: ReadonlySet<string>): boolean {
  for (const word of sentence.match(/[\p{L}-]+/gu) ?? []) {
    const rest = NEGATING_PREFIX.exec(word)?.[1];
    if (rest && analyze(rest).some((t) => terms.has(t))) return true;
  }
  return false;
}

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
  if (!deniesTerms(question, terms, true) || !polarityMismatch(question, sentences)) return false;
  // The words the question's negation reaches ("not paid the rent": paid, rent) may be denied by a prefix instead.
  const denied = new Set([...terms].filter((t) => deniesTerms(question, new Set([t]), true)));
  return !sentences.some((s) => deniesByPrefix(s, denied));
}

/** Whether a fit signal strong enough to decline fires on the quoted sentences. */
export function fitDeclines(question: string, sentences: readonly string[]): boolean {
  return asksUnstatedDenial(question, sentences);
}
