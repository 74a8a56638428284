import { analyze } from '@/lib/retrieval/analyzer';

/**
 * Words that give the asker's stance rather than the question's topic: modal verbs ("why might it be difficult",
 * "how many jurors must agree"), degree and time adverbs ("has X ever won", "why is interphase not truly a rest") and
 * "supposed/expect to" before a verb ("who was supposed to be in", "where do you expect to find"). "Need to" is left
 * a topic word: "what decision needs to be made" asks about a requirement the passage must state. The passage
 * that answers states the fact ("Kentucky won the title in 1951"), seldom the asker's modality, so these are no topic
 * words the answer must hold.
 */
const STANCE = /\b(must|might|ought|ever|truly|really)\b|\b(supposed|expect(?:ed)?)\s+to\s+[a-z]/gi;

/** The analysed terms of the question's stance words (`STANCE`): no topic words. */
export function stanceTerms(question: string): Set<string> {
  const out = new Set<string>();
  for (const m of question.matchAll(STANCE)) {
    const word = m[1] ?? m[2];
    if (word) for (const t of analyze(word)) out.add(t);
  }
  return out;
}
