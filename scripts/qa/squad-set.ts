import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { chunkText, type EvalCorpus, passageCorpus } from '@/test/support/agent/corpus';

/**
 * The SQuAD 2.0 dev sample (`../shared/data/squad2-dev-sample500`): 500 questions over 411 Wikipedia paragraphs,
 * 258 of them unanswerable from their paragraph (written to look answerable). No rule or threshold of the answerer
 * was chosen on it: it is the third set, the one that shows whether what was fitted on the own set and ClapNQ holds
 * on questions and documents nobody here read. Since the confidence fit signals (lib/agent/answer-fit.ts) it is
 * split by position like the others: those signals were read and chosen on its even positions, the odd ones held out.
 */

const Queries = z.object({
  queries: z.array(z.object({ id: z.string(), context: z.string(), question: z.string() })),
});
const GroundTruth = z.record(z.string(), z.object({ answers: z.array(z.string()), is_impossible: z.boolean() }));

export interface SquadRow {
  id: string;
  question: string;
  context: string;
  /** The gold answer spans (empty when unanswerable). */
  answers: string[];
  answerable: boolean;
}

export function loadSquad(dir: string): SquadRow[] {
  const queries = Queries.parse(JSON.parse(readFileSync(path.join(dir, 'queries.json'), 'utf8'))).queries;
  const truth = GroundTruth.parse(JSON.parse(readFileSync(path.join(dir, 'ground_truth.json'), 'utf8')));
  return queries.map((q) => {
    const gold = truth[q.id];
    if (!gold) throw new Error(`SQuAD sample: no ground truth for ${q.id}`);
    const answers = gold.answers.filter((a) => a.trim().length > 0);
    return { ...q, answers, answerable: !gold.is_impossible && answers.length > 0 };
  });
}

/** One document per distinct paragraph (split into chunks as the ClapNQ loader splits long text). */
export function squadCorpus(rows: SquadRow[], ownerId: string): EvalCorpus {
  return passageCorpus(rows, ownerId, {
    text: (row) => row.context,
    fileName: (_row, ordinal) => `squad-paragraph-${ordinal}.txt`,
    title: () => null,
    split: (text) => chunkText(text),
  });
}

/** SQuAD's official answer normalisation: lower case, no punctuation, no articles, single spaces. */
export function squadNormalize(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\p{P}\p{S}]/gu, ' ')
    .replace(/\b(a|an|the)\b/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The answer holds one of the gold spans as whole words (after normalisation). */
export function containsSquadAnswer(answer: string, gold: readonly string[]): boolean {
  const text = ` ${squadNormalize(answer)} `;
  return gold.some((g) => {
    const span = squadNormalize(g);
    return span.length > 0 && text.includes(` ${span} `);
  });
}
