import { wordsOf } from '@/lib/retrieval/unspaced-scripts';
import { numbersIn } from './answer-type';

/**
 * Conflicting values: the opened evidence states the asked attribute twice, with different numbers ("WITH 12
 * FULL-PAGE ILLUSTRATIONS IN COLOUR" on a book's title page, "With 28 Full-page Illustrations in Colour" in the
 * publisher's advertisement for another book at its end). Whichever one the answer quotes, the evidence does not
 * single out one value, so the answer cannot be certain (a confidence signal, not a choice between the two).
 */

/** The numbers (not the question's own) standing within `window` words of a word that analyses to one of `terms`. */
export function valuesNear(
  text: string,
  terms: ReadonlySet<string>,
  question: string,
  analyzeWord: (w: string) => string[],
  window: number,
): Set<string> {
  const asked = new Set(numbersIn(question));
  const words = wordsOf(text);
  const hits: number[] = [];
  words.forEach((w, i) => {
    if (analyzeWord(w).some((t) => terms.has(t))) hits.push(i);
  });
  const out = new Set<string>();
  words.forEach((w, i) => {
    if (!hits.some((j) => j !== i && Math.abs(i - j) <= window)) return;
    for (const n of numbersIn(w)) if (!asked.has(n)) out.add(n);
  });
  return out;
}

/**
 * The other statements of the evidence that give the asked attribute a different value than the answer: sentences (a
 * heading or title-page line included: it is not quoted, but it still states a value) that hold every asked attribute
 * word the answer's sentences hold, at least one of them, and a number next to them that the answer does not give,
 * while none of the answer's own numbers stands there. `answer` are the quoted sentences' texts with their analysed
 * terms, `others` the rest of the opened sentences.
 */
export function otherValues<T extends { text: string; terms: ReadonlySet<string> }>(args: {
  answer: readonly { text: string; terms: ReadonlySet<string> }[];
  others: readonly T[];
  attributes: readonly string[];
  question: string;
  analyzeWord: (w: string) => string[];
  window: number;
  holds: (have: ReadonlySet<string>, term: string) => boolean;
}): T[] {
  const { answer, others, attributes, question, analyzeWord, window, holds } = args;
  const said = attributes.filter((t) => answer.some((a) => holds(a.terms, t)));
  if (said.length === 0) return [];
  const saidSet = new Set(said);
  const given = new Set(answer.flatMap((a) => [...valuesNear(a.text, saidSet, question, analyzeWord, window)]));
  if (given.size === 0) return [];
  const quoted = new Set(answer.map((a) => a.text));
  return others.filter((o) => {
    if (quoted.has(o.text) || !said.every((t) => holds(o.terms, t))) return false;
    const values = valuesNear(o.text, saidSet, question, analyzeWord, window);
    return values.size > 0 && ![...values].some((v) => given.has(v));
  });
}

/** Whether another statement of the evidence gives the asked attribute a different value (`otherValues`). */
export function statesOtherValue(args: Parameters<typeof otherValues>[0]): boolean {
  return otherValues(args).length > 0;
}
