import { analyze } from '@/lib/retrieval/analyzer';
import type { AgentState } from './state';
import type { TableHit } from './table-answer';
import type { Insufficiency } from './types';

/**
 * The two extractive answer shapes besides quoted sentences: a table cell read from its row and column (the row
 * quoted verbatim, the sheet named), and a decline that cites nothing and names the question's words no chosen
 * passage contains.
 */

/** The question's own words for analysed terms (so the answer names them as the user wrote them). */
export function questionWords(question: string, terms: readonly string[], max = 4): string[] {
  const want = new Set(terms);
  const out: string[] = [];
  for (const word of question.match(/[\p{L}\p{N}_'-]+/gu) ?? []) {
    const analysed = analyze(word);
    // A term is analysed; an identifier ("150109-DSP-Milw-505", asked-codes.ts) is missed as the question wrote it.
    const named = want.has(word) || (analysed.length === 1 && want.has(analysed[0] ?? ''));
    if (named && !out.some((w) => w.toLowerCase() === word.toLowerCase())) out.push(word);
    if (out.length >= max) break;
  }
  return out;
}

/** A decline: the insufficiency phrase, the missing words, no citation. */
export function declineAnswer(
  state: AgentState,
  phrase: string,
  missing: readonly string[],
  queries: string[],
  coverage: number,
): { answer: string; insufficiencies: Insufficiency[]; coverage: number } {
  const words = questionWords(state.question, missing);
  const what = words.length > 0 ? `; they do not mention ${words.map((w) => `"${w}"`).join(', ')}` : '';
  return {
    answer: `${phrase}: the passages found in your documents do not answer this question${what}.`,
    insufficiencies: [
      {
        section: 'Answer',
        missing:
          words.length > 0
            ? `No passage found mentions ${words.join(', ')}`
            : 'No passage found holds an answer to the question',
        queriesTried: queries,
      },
    ],
    coverage,
  };
}

/** "Zone NA, Sales (a): 12553 [1] (sheet …; row "Zone NA | 12553 | …" [1])". */
export function tableAnswerLine(hit: TableHit): string {
  const n = hit.opened.n;
  const sheet = hit.opened.chunk.sheet ?? '';
  const rowQuote = hit.row.text.includes('"') ? `\u201C${hit.row.text}\u201D` : `"${hit.row.text}"`;
  const where = `${hit.extreme ? `the ${hit.extreme === 'max' ? 'highest' : 'lowest'} in its column; ` : ''}${sheet ? `sheet ${sheet}; ` : ''}`;
  const head = hit.column ? `${hit.label}, ${hit.column}: ${hit.value ?? ''} [${n}]` : `${hit.label} [${n}]`;
  return `${head} (${where}row ${rowQuote} [${n}])`;
}
