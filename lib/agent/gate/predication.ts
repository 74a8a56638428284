/**
 * Whether a piece of a sentence states something (a predication) or only names something. "premium tokens are exempt
 * from all limits", "tokens expire after 30 days" and "premium tokens unlimited" state something; "the renewal date
 * of the contract", "by card" and "Unfortunately" only name or qualify. The admission check uses it to tell a list of
 * what the documents lack ("do not give the price, the term, or the renewal date") from a claim joined to an
 * admission by a comma ("not documented, premium tokens are unlimited").
 *
 * Part-of-speech tags come from wink-nlp's English model (a maintained tagger; a hand-written verb list would miss
 * every verb it does not name). A piece predicates when it has a verb or auxiliary, or when its last content word is
 * an adjective that follows a noun ("tokens unlimited", the telegraphic form of "tokens are unlimited").
 */

import model from 'wink-eng-lite-web-model';
import winkNLP from 'wink-nlp';

type Nlp = ReturnType<typeof winkNLP>;
let nlp: Nlp | null = null;
const tagger = (): Nlp => {
  nlp ??= winkNLP(model);
  return nlp;
};

const CONTENT = new Set(['NOUN', 'PROPN', 'ADJ', 'VERB', 'AUX', 'NUM', 'ADV']);

/** The part-of-speech tags of `text` (Universal Dependencies tags: NOUN, VERB, AUX, ADJ, …). */
export function partsOfSpeech(text: string): string[] {
  const { its } = tagger();
  return tagger().readDoc(text).tokens().out(its.pos) as string[];
}

/** Whether `text` states something rather than only naming it (see the module comment). */
export function predicates(text: string): boolean {
  const tags = partsOfSpeech(text);
  if (tags.some((t) => t === 'VERB' || t === 'AUX')) return true;
  const content = tags.filter((t) => CONTENT.has(t));
  const last = content.at(-1);
  if (last !== 'ADJ') return false;
  const before = content.slice(0, -1);
  return before.some((t) => t === 'NOUN' || t === 'PROPN');
}
