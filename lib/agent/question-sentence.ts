/**
 * A sentence of a document that asks rather than states (a form's prompt, an FAQ's heading, a rhetorical question):
 * it answers nothing, so the extractive answerer treats it like a heading (never quoted as the answer).
 */

/**
 * The words a question opens with: interrogatives and the auxiliaries of a yes/no question (English, French,
 * German), and a form's check boxes ("Yes No Criminal charges filed?"). Closed classes of grammar.
 */
const QUESTION_OPENING = new Set(
  (
    'who whom whose what which when where why how is are was were am do does did can could should would will shall ' +
    'may might must has have had yes oui ja qui que quoi quel quelle quels quelles quand où pourquoi comment combien ' +
    'est-ce wer wen wem wessen was welche welcher welches wann wo warum wie ist sind war waren hat haben kann können'
  ).split(' '),
);

/**
 * Whether a sentence asks rather than states: it ends with a question mark (Latin, full-width, Arabic) past closing
 * quotes, and opens as a question. "The way to get new ideas is to notice anomalies: what seems strange?" states.
 */
export function asks(sentence: string): boolean {
  const t = sentence.trim();
  if (!/[?？؟]\s*[)"'”’»」』]*$/u.test(t)) return false;
  if (
    /^[^\p{L}\p{N}]*[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Arabic}]/u.test(t)
  )
    return true;
  const first = /^[^\p{L}]*([\p{L}'’-]+)/u.exec(t)?.[1]?.toLowerCase();
  return first !== undefined && QUESTION_OPENING.has(first);
}
