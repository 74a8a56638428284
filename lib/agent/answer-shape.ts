/**
 * Whether a quoted unit has the shape of an answer, beyond sharing the question's words (issue #13, ClapNQ round 2):
 * a run of capitalised words (a flattened infobox, chart, navigation box, or a letterhead's title block) names
 * things without saying anything about them, and a "how many X" question is answered by a number said of X, not by
 * any number in an on-topic sentence.
 */

import { NUMBER_WORD_ALTERNATION } from './number-words';

/**
 * Fewest words with letter case before a unit is judged by its capitals: a short sentence about places ("The Cedar
 * River rises in Dodge County , Minnesota , and flows into Iowa .") capitalises half its words too. 10 and 16 gave
 * the same figures on ClapNQ's fitting half (16: one held-out unanswerable fewer disclosed); 16 keeps such prose out.
 */
const TITLE_RUN_MIN_WORDS = 16;

/**
 * Share of capitalised words above which a unit is a run of names and labels rather than prose. English prose
 * capitalises a sentence's first word, names and titles (typically under 30% of its words; German, which
 * capitalises every noun, mostly under half); a flattened infobox ("Hassan Whiteside Whiteside with the Heat in 2016 No. 21
 * -- Miami Heat Position Center League NBA …"), a chart's header ("Chart ( 1986 -- 90 ) Peak position Australia
 * ( Kent Music Report ) …") or a letterhead ("CUPERTINO UNION SCHOOL DISTRICT Board of Education Special Meeting
 * AGENDA …") capitalises most. Chosen on ClapNQ's fitting half (even rows; agent mode, unanswerables disclosed):
 * 0.4 77.3% but 4 fewer answerables cite the gold passage (64.7%), 0.5 77.3% (68.7%), 0.6 76.7% (68.7%); the own set
 * is the same at 0.5 and 0.6. See docs/benchmarks-agent.md.
 */
export const TITLE_RUN_CAPITALS = 0.5;

/** The words of a text whose first letter has case (Latin, Greek, Cyrillic…): Chinese or Thai words have none. */
function casedWords(text: string): string[] {
  return (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu) ?? []).filter(
    (w) => /^\p{L}/u.test(w) && /^[\p{Lu}\p{Ll}]/u.test(w),
  );
}

/**
 * A run of capitalised words: at least `TITLE_RUN_MIN_WORDS` words with letter case, more than
 * `TITLE_RUN_CAPITALS` of them capitalised. Not a sentence that answers, whatever words it shares with the question.
 */
export function isTitleRun(text: string): boolean {
  const words = casedWords(text);
  if (words.length < TITLE_RUN_MIN_WORDS) return false;
  const capitalised = words.filter((w) => /^\p{Lu}/u.test(w)).length;
  return capitalised / words.length > TITLE_RUN_CAPITALS;
}

/**
 * Words that end the noun phrase after "how many": auxiliaries and modals, prepositions, conjunctions and
 * wh-words. Closed classes of English grammar, not a list fitted to questions.
 */
const PHRASE_END = new Set(
  (
    'is are was were be been being am do does did have has had will would can could shall should may might must ' +
    'of in on at by for from to with during since between among into within across over under after before about ' +
    'per than through against and or but that which who whom whose when where why how'
  ).split(' '),
);

/**
 * What asks for a count: "how many", or "the number of" / "a number of" / "what number of" (or "number of" opening a
 * query), with at most one of the adjectives English puts before a count ("the total number of", "a good number of",
 * "the average number of"). A noun before "number" makes another word ("the phone number of the office", "the case
 * number of …": an identifier, not a count), so only a determiner or one of those adjectives may stand there.
 * Measured on ClapNQ's fitting half: "what is a good number of inventory turns" is no longer answered by a proverb
 * ("… cometh a good turne") that says no number of turns (docs/benchmarks-agent.md, ClapNQ round 5).
 */
const COUNT_ASKED = new RegExp(
  '(?:\\bhow\\s+many|(?:^\\s*|\\b(?:the|a|an|what|which)\\s+)' +
    '(?:(?:total|average|mean|median|typical|normal|usual|good|large|small|great|maximum|minimum|max|min|exact|' +
    'approximate|estimated|overall|combined|highest|lowest|largest|smallest|greatest)\\s+)?number\\s+of)\\s+(.*)$',
  'isu',
);

/** A question opening with an auxiliary or modal verb: it asks yes or no. */
const YES_NO =
  /^\s*(?:do|does|did|is|are|was|were|am|can|could|will|would|shall|should|has|have|had|may|might|must)\b/i;

/**
 * The noun a "how many" question counts, the head (last word) of the noun phrase after "how many" (or "the number
 * of", `COUNT_ASKED`): "how many goals have …" → "goals", "how many US presidents are …" → "presidents", "how many tons
 * of …" → "tons", "what is a good number of inventory turns" → "turns"; null when no noun follows ("how many were
 * killed …", "how many of them …").
 */
export function countedNoun(question: string): string | null {
  const m = COUNT_ASKED.exec(question);
  // A yes/no question names a count without asking for it ("Do the statistics represent the number of firearms
  // sold?"): "the number of" asks for one only in a question that does not open with an auxiliary verb.
  if (m && !/^how\s/i.test(m[0]) && YES_NO.test(question)) return null;
  if (!m?.[1]) return null;
  const phrase: string[] = [];
  for (const raw of m[1].split(/\s+/)) {
    const word = raw.toLowerCase().replace(/^[^\p{L}]+|[^\p{L}'’.-]+$/gu, '');
    if (word.length === 0 || !/^\p{L}/u.test(word) || PHRASE_END.has(word)) break;
    phrase.push(word.replace(/[.]+$/, ''));
    if (/[,;:?!]$/.test(raw)) break;
  }
  return phrase.at(-1) ?? null;
}

/** How far (in words) the number may stand from the counted noun: "528,000 copies", "10 million views". */
export const COUNTED_WINDOW = 3;

const NUMBER_WORD = new RegExp(`^(?:${NUMBER_WORD_ALTERNATION})$`, 'i');

/**
 * Whether `text` says a number of the noun a "how many" question counts: a number (digits or a number word) the
 * question does not give, within `COUNTED_WINDOW` words of the noun or a word of its family (`sameFamily`). True
 * for a question that counts nothing. "how many goals have Arsenal scored" is not answered by "kept ten consecutive
 * clean sheets", however much of the question that sentence shares.
 */
export function saysCount(
  text: string,
  question: string,
  sameFamily: (word: string, noun: string) => boolean,
  window = COUNTED_WINDOW,
): boolean {
  const noun = countedNoun(question);
  if (noun === null) return true;
  const asked = new Set(question.match(/\d+(?:[.,]\d+)*/g) ?? []);
  const words = text.split(/\s+/).filter((w) => w.length > 0);
  const isNumber = (w: string) => {
    const digits = w.match(/\d+(?:[.,]\d+)*/g);
    if (digits) return digits.some((d) => !asked.has(d));
    return NUMBER_WORD.test(w.replace(/[^\p{L}-]/gu, ''));
  };
  return words.some((w, i) => {
    const bare = w.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '').toLowerCase();
    if (bare.length === 0 || !sameFamily(bare, noun)) return false;
    for (let j = Math.max(0, i - window); j <= Math.min(words.length - 1, i + window); j++)
      if (j !== i && isNumber(words[j] ?? '')) return true;
    return false;
  });
}
