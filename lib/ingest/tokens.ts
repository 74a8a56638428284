/**
 * Token counting for chunk sizes: gpt-tokenizer's exact count (o200k BPE), except that runs of 64+ non-space
 * characters are counted in 48-character slices, because BPE cost grows with the square of a word's length
 * (20,000 'x' took 334 ms in one piece). The slices can only add a token per slice, so long runs are over-counted
 * by at most ~2 tokens per 48 characters, never under-counted by more than one per slice; chunk-tokens.test.ts
 * checks the agreement on ordinary text.
 */

import { countTokens as bpeCount } from 'gpt-tokenizer';

const LONG_RUN = /\S{64,}/g;
const SLICE = 48;

/** Tokens in `text` (see the module comment for the long-run rule). */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  LONG_RUN.lastIndex = 0;
  if (!LONG_RUN.test(text)) return bpeCount(text);
  LONG_RUN.lastIndex = 0;
  let total = 0;
  let last = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    const start = match.index;
    if (start > last) total += bpeCount(text.slice(last, start));
    const run = match[0];
    for (let k = 0; k < run.length; k += SLICE) total += bpeCount(run.slice(k, k + SLICE));
    last = start + run.length;
  }
  if (last < text.length) total += bpeCount(text.slice(last));
  return total;
}
