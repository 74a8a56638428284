import type { OpenedChunk } from './state';
import type { Sentence } from './text';

/**
 * The steps of a procedure stand in consecutive sentences: "Core biopsy – A wider needle is used … It is usually done
 * under local anaesthetic … During a core biopsy, a mammogram … is used to guide the needle." The answer ranks
 * sentences by the question's words, so of such a run it quotes the ones that repeat the procedure's name and skips
 * the step between them that says "it". When two quoted sentences of one chunk stand at most `MAX_GAP` quotable
 * sentences apart, with no heading between them, the sentences between them are quoted too: leaving a step out of a
 * procedure misstates it. Only for an answered procedure question (the decision to answer is taken before, on the
 * ranked sentences alone, so this never turns a decline into an answer).
 */

/** The sentence fields the span needs (a `Candidate` of `extractive-select.ts` has them). */
export interface SpanSentence {
  opened: OpenedChunk;
  sentence: Sentence;
}

/** At most this many quotable sentences between two quoted ones are filled in. */
export const MAX_GAP = 2;

/** At most this many further steps of a list are quoted after its last quoted one. */
export const MAX_LIST_TAIL = 6;

/** A line that is an item of a list: a bullet, or a number or letter with a stop or bracket, before its text. */
export function isListItem(text: string): boolean {
  return /^\s*(?:[-•*▪‣◦]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s+\S/u.test(text);
}

/** Whether a unit opens a list item of its chunk: its line starts with a list marker and then the unit. */
function isStep(u: SpanSentence): boolean {
  const text = u.opened.chunk.text;
  const start = u.sentence.start;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const before = text.slice(lineStart, start);
  return isListItem(`${before}${text.slice(start, start + 40)}`) && /^\s*(?:\S{1,4}\s+)?$/u.test(before);
}

/**
 * `picked` with the sentences of `pool` that stand between two picked sentences of the same chunk added, when the gap
 * is at most `MAX_GAP` sentences and none of them is a heading (`isHeading`); in reading order (chunk, then position).
 * `pool` holds the quotable sentences (planted text and fragments already left out), so they are never added.
 */
export function procedureSpan<T extends SpanSentence>(
  picked: readonly T[],
  pool: readonly T[],
  isHeading: (text: string, opened: OpenedChunk) => boolean,
): T[] {
  const chosen = new Set(picked);
  const chunks = new Set(picked.map((p) => p.opened));
  for (const chunk of chunks) {
    const units = pool.filter((c) => c.opened === chunk).sort((a, b) => a.sentence.start - b.sentence.start);
    const at = units.flatMap((u, i) => (picked.includes(u) ? [i] : []));
    for (let k = 1; k < at.length; k++) {
      const from = at[k - 1] ?? 0;
      const to = at[k] ?? 0;
      const between = units.slice(from + 1, to);
      if (between.length === 0 || between.length > MAX_GAP) continue;
      if (between.some((u) => isHeading(u.sentence.text, u.opened))) continue;
      for (const u of between) chosen.add(u);
    }
    // A numbered or bulleted list is a procedure's steps: quoted to its end once its last quoted unit is a step
    // ("1. Submit …", "2. Your manager approves …" and then "3. Add the absence to the team calendar.").
    const last = at.at(-1);
    const lastUnit = last === undefined ? undefined : units[last];
    if (last === undefined || !lastUnit || !isStep(lastUnit)) continue;
    for (let i = last + 1; i < units.length && i <= last + MAX_LIST_TAIL; i++) {
      const u = units[i] as T;
      if (!isStep(u)) break;
      chosen.add(u);
    }
  }
  return [...chosen].sort((a, b) => a.opened.n - b.opened.n || a.sentence.start - b.sentence.start);
}
