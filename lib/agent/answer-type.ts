/**
 * What kind of answer a question asks for, and whether a passage holds an answer of that kind. Used by extractive
 * mode to prefer evidence that can answer (a "how many" question needs a number, a "when" question a date) and to
 * decline when no opened passage holds one. The cues are the grammar of questions (interrogatives and the nouns
 * that name a measurement), in English plus the common French and German interrogatives and the Chinese, Japanese,
 * Korean and Thai ones for amounts, times and persons; a question matching none is 'other' and every passage
 * qualifies.
 */

import { analyze } from '@/lib/retrieval/analyzer';
import { detectQueryLanguage } from '@/lib/retrieval/language';
import { HAS_UNSPACED_SCRIPT, UNSPACED_RUN, wordsOf } from '@/lib/retrieval/unspaced-scripts';
import { askedDimension } from './measure';
import { NUMBER_WORD_ALTERNATION } from './number-words';
import { UNSPACED_QUESTION_NOISE } from './text';

export type AnswerType = 'quantity' | 'date' | 'entity' | 'yesno' | 'definition' | 'procedure' | 'other';

const QUANTITY =
  /\b(?:how\s+(?:many|much|large|long|big|high|far|old|often|heavy|wide|tall|deep|fast)|number\s+of|what\s+(?:percentage|share|proportion|amount|number|price|rate)|combien|wie\s+(?:viele?|hoch|lang|gro(?:ß|ss))|cu[aá]nto)\b/i;
/** A "what was the X" question whose X names a measured amount. */
const MEASURE_NOUN =
  /\b(?:total|amount|number|count|price|cost|fee|rate|percentage|percent|share|revenue|sales|sold|profit|income|expenses?|loss|margin|growth|value|size|length|weight|strength|density|hardness|content|capacity|speed|temperature|pressure|duration|salary|budget|turnover|dividend|earnings|population|votes|ballots|age|height|volume|score|ratio|costs|figure|impairment|depreciation|amortization|tax|debt|assets|liabilities)\b/i;
const DATE =
  /(?:^\s*when\b|\bwhat\s+(?:is|was|are|were)\s+the\s+(?:date|year|month|day)\s+(?:of|on|when|that)\b|\b(?:what\s+(?:year|date|day|month|time)|which\s+(?:year|date|day|month)|in\s+what\s+year|on\s+what\s+date|quand|en\s+quelle\s+ann[ée]e|wann|in\s+welchem\s+jahr)\b)/i;
const ENTITY =
  /^\s*(?:who|whom|whose|qui|wer)\b|\bwhat\s+(?:is|was|are|were)\s+the\s+names?\s+of\b|\bwhat\s+(?:is|was|are|were)\s+.+['’]s?\s+(?:(?:first|last|full|family|maiden)\s+)?names?\s*\??\s*$|\b(?:which|what)\s+(?:company|companies|organi[sz]ation|agency|person|people|firm|bank|authority|body|court|author|team|country|city|university|department)\b|\bwho\b/i;
const YESNO = /^\s*(?:is|are|was|were|does|do|did|can|could|should|has|have|had|will|would|must|may)\b/i;
const DEFINITION =
  /^\s*(?:what\s+(?:is|are)\s+(?:an?\s+|the\s+)?[\p{L}\p{N}-]+(?:\s+[\p{L}\p{N}-]+)?\s*\??\s*$|define\b)|\bdefinition\s+of\b|\bwhat\s+does\s+.+\s+mean\b|\bwhat\s+(?:does|do|did)\s+.+\s+stand\s+for\b|\bhow\s+(?:does|do)\s+.+\s+define\b|\bqu['’]est-ce\s+qu/iu;
const PROCEDURE =
  /^\s*(?:how\s+(?:do|can|should|does|to|is|are|must|may)\b|what\s+(?:are\s+the\s+)?steps\b)|\b(?:steps?\s+(?:to|for)|procedure|process\s+for|comment\b|wie\s+(?:kann|muss|soll))/i;

// Interrogatives of scripts without word spaces (no \b there): when, how much/many, who.
const DATE_CJK =
  /什么时候|何时|哪一?[年天月日]|几[月号]|什么日期|いつ|何[年月日]|언제|몇\s*[년월일]|เมื่อไร|เมื่อไหร่|ปีไหน|วันไหน/u;
const QUANTITY_CJK =
  /多少|几[个名家次种位人天倍]|いくら|いくつ|どのくらい|どれくらい|何[人個件回社名円本]|얼마|몇|เท่าไร|เท่าไหร่|กี่/u;
const ENTITY_CJK = /谁|哪位|哪家|誰|だれ|どなた|누구|ใคร/u;

/** The kind of answer the question asks for. */
export function detectAnswerType(question: string): AnswerType {
  const q = question.replace(/\s+/g, ' ').trim();
  if (DATE.test(q) || DATE_CJK.test(q)) return 'date';
  if (QUANTITY.test(q) || QUANTITY_CJK.test(q)) return 'quantity';
  // A question asking a number of one dimension ("at what temperature", "at what age", "how hot") wants a number.
  if (askedDimension(q) !== null) return 'quantity';
  if (ENTITY.test(q) || ENTITY_CJK.test(q)) return 'entity';
  if (/^\s*(?:what|which|quel(?:le)?s?|was|welche[rsn]?)\b/i.test(q) && MEASURE_NOUN.test(q)) return 'quantity';
  if (DEFINITION.test(q)) return 'definition';
  if (PROCEDURE.test(q)) return 'procedure';
  if (YESNO.test(q)) return 'yesno';
  return 'other';
}

const MONTHS_ANY =
  /\b(?:jan(?:uary|vier)?|feb(?:ruary)?|f[ée]vrier|m[aä]r(?:ch|s|z)?|apr(?:il)?|avril|may|mai|june?|juin|juni|july?|juillet|juli|aug(?:ust)?|ao[uû]t|sep(?:t(?:ember)?)?|septembre|oct(?:ober)?|octobre|okt(?:ober)?|nov(?:ember)?|novembre|dec(?:ember)?|d[ée]cembre|dez(?:ember)?)\b/i;
/** Month names that are also common words ("may", "march", "mars"): a month only when capitalised ("May 2016"). */
const AMBIGUOUS_MONTH = /^(?:may|mai|march|mar|mars)$/i;

/** Whether the text names a month: a month name, the ambiguous ones ("may", "march") only capitalised. */
function namesMonth(text: string): boolean {
  for (const m of text.matchAll(new RegExp(MONTHS_ANY.source, 'gi'))) {
    const word = m[0];
    if (!AMBIGUOUS_MONTH.test(word) || /^\p{Lu}/u.test(word)) return true;
  }
  return false;
}

/**
 * A numeric date: a year of four digits first ("2021-03-12"), or day and month before a year of two or four digits
 * ("12/01/2015", "3.2.21"). Three dotted numbers with a one-digit or three-digit last part are a version or a section
 * number ("3.2.0", "10.4.1", "4.1.100"), never a date: no calendar writes a year with one or three digits.
 */
const NUMERIC_DATE = /\b(?:\d{4}[/.-]\d{1,2}[/.-]\d{1,2}|\d{1,2}[/.-]\d{1,2}[/.-](?:\d{4}|\d{2}))\b/;
/** A clock time ("9:30", "6 p.m.", "noon"). */
const CLOCK = /\b\d{1,2}[:h.]\d{2}\b|\b\d{1,2}\s*(?:a\.?m\.?|p\.?m\.?)(?!\w)|\b(?:noon|midnight)\b/i;
/** A question that asks for a calendar date or a clock time, not any point in time ("when"). */
const ASKS_DATE = /\b(?:what|which)\s+date\b|\bon\s+what\s+(?:date|day)\b/i;
const ASKS_CLOCK = /\b(?:what|which)\s+time\b/i;
const TIME =
  /\b\d{1,2}[:h.]\d{2}\b|\b\d{1,2}\s*(?:a\.?m\.?|p\.?m\.?)(?!\w)|\b(?:noon|midnight|(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?)\b/i;
const YEAR = /\b(?:1[6-9]|20)\d{2}\b/;
/** A period a "when" question may be answered with: a decade ("the 1830s"), a century ("the 3rd century"), an era year ("95 AD", "220 BC"). */
const ERA = /\b\d{3,4}s\b|\b\d{1,2}(?:st|nd|rd|th)\s+century\b|\b\d{1,4}\s*(?:BC|BCE|AD|CE)\b|\b(?:AD|CE)\s*\d{1,4}\b/;

/** Number tokens of a text ("12,553", "-140", "1.99", "45%"), normalised without thousands separators. */
export function numbersIn(text: string): string[] {
  return [...text.matchAll(/(?<![\p{L}\d])-?\d+(?:[.,]\d+)*(?![\p{L}\d])/gu)].map((m) =>
    m[0].replace(/^-/, '').replace(/,(?=\d{3}\b)/g, ''),
  );
}

/** A word of a script without letter case (Han, kana, Hangul, Thai…): its capital cannot show a name. */
const CASELESS_WORD = /^\p{Lo}[\p{Lo}\p{M}]*$/u;

function caselessWords(text: string): string[] {
  return wordsOf(text).filter((word) => CASELESS_WORD.test(word));
}

/**
 * Whether the text holds a word of a caseless script that the question does not: in Chinese or Japanese a name
 * cannot be told by its capital letter, so any such word may be the asked name.
 */
function caselessWordsNotAsked(text: string, question: string): boolean {
  const asked = new Set(caselessWords(question));
  return caselessWords(text).some((word) => !asked.has(word));
}

const NUMBER_WORDS = new RegExp(`\\b(?:${NUMBER_WORD_ALTERNATION})\\b`, 'i');

/**
 * Whether `text` holds an answer of `type` beyond what the question already says: a number the question does not
 * contain, a date, a name; the open types (definition, procedure, yes/no, other) always qualify.
 */
export function holdsAnswerType(text: string, type: AnswerType, question: string): boolean {
  switch (type) {
    case 'quantity': {
      const asked = new Set(numbersIn(question));
      return numbersIn(text).some((n) => !asked.has(n)) || NUMBER_WORDS.test(text);
    }
    case 'date':
      // "On what date" wants a day (a month name or a numeric date), "at what time" a clock time; "when" any of them.
      if (ASKS_CLOCK.test(question)) return CLOCK.test(text);
      if (ASKS_DATE.test(question)) return namesMonth(text) || NUMERIC_DATE.test(text);
      return namesMonth(text) || NUMERIC_DATE.test(text) || YEAR.test(text) || TIME.test(text) || ERA.test(text);
    case 'entity': {
      const asked = new Set((question.match(/\p{Lu}[\p{L}'-]+/gu) ?? []).map((w) => w.toLowerCase()));
      const names = (text.match(/(?<=[\p{L}\p{N},;:(] +|\n)\p{Lu}[\p{L}'-]+/gu) ?? []).filter(
        (w) => !asked.has(w.toLowerCase()),
      );
      return (
        names.length > 0 ||
        /\b(?:Mr|Ms|Mrs|Dr|Inc|Ltd|LLC|GmbH|SA|AG|Corp)\b\.?/.test(text) ||
        caselessWordsNotAsked(text, question)
      );
    }
    default:
      return true;
  }
}

const TYPE_NOUNS: Partial<Record<AnswerType, string>> = {
  date: 'day days date dates year years month months week weeks weekday weekdays time times hour hours',
  quantity: 'number numbers amount amounts count quantity',
  entity: 'name names person people',
  // "How is a biopsy done?": the verb only says that a way of doing is asked; the steps that answer seldom repeat it.
  procedure: 'done performed',
};

/** The analysed words that only name an answer type ("day", "year", "number", "name"). */
export function typeNounTerms(type: AnswerType): Set<string> {
  return new Set(analyze(TYPE_NOUNS[type] ?? ''));
}

/** Whether the type asks for a specific value a passage must contain (the others accept any on-topic passage). */
export function typeIsStrict(type: AnswerType): boolean {
  return type === 'quantity' || type === 'date' || type === 'entity';
}

/**
 * Verbs that frame a question rather than name its topic: "where did X come from" asks for X's origin, "what does X
 * mean" (or "the meaning of X") for its sense, "how does Y define X" (or "the definition of X") for what X is, "what
 * happened to X" for an event. The passage that answers says "X derives from", "X is", "X was fired", seldom the
 * frame's own verb, so the frame is not a word the answer must hold (as "how many" is not).
 */
const QUESTION_FRAMES = [
  /\bwhere\s+(?:did|does|do|has|have|had|would|could)\b.+?\b(come)\s+from\b/i,
  // "Where does the Bronx get its name?": the passage says it "is named after" someone, seldom "gets".
  /\b(?:where|how|why)\s+(?:did|does|do|has|have|had)\b.+?\b(get|got|gets)\s+(?:its|their|his|her)\s+names?\b/i,
  /\bwhat\s+(?:does|do|did|would|could)\b.+?\b(mean)\b/i,
  // "What does RPK stand for?": the passage spells it out ("RPK = revenue passenger kilometers"), it seldom says "stand".
  /\bwhat\s+(?:does|do|did)\b.+?\b(stand)\s+for\b/i,
  /\bwhat\s+is\s+the\s+(meaning)\s+of\b/i,
  /\bwhat\s+is\s+(meant)\s+by\b/i,
  /\bhow\s+(?:does|do|did|would|could)\s+(?!(?:i|we|you|one)\b).+?\b(define)\s+\S/i,
  /\bwhat\s+is\s+the\s+(definition)\s+of\b/i,
  /\bwhat\s+(?:(?:will|would|did|does|could|might)\s+)?(happen(?:s|ed)?)\b/i,
  // "When did the incident occur?": the verb only says that the event's date or time is asked.
  /\b(?:when|(?:what|which)\s+(?:date|day|year|time))\b.+?\b(occur(?:s|red)?|happen(?:s|ed)?)\b/i,
];

/** The analysed terms of the question's frame verbs (`QUESTION_FRAMES`): no topic words. */
export function questionFrameTerms(question: string): Set<string> {
  const out = new Set<string>();
  for (const frame of QUESTION_FRAMES) {
    const word = frame.exec(question)?.[1];
    if (word) for (const t of analyze(word)) out.add(t);
  }
  return out;
}

/** Interrogative phrases: they shape the question and name no topic ("how many", "wie viel", "combien de"). */
const INTERROGATIVE =
  /\b(?:how\s+(?:many|much|large|long|big|high|far|old|often|heavy|wide|tall|deep|fast)|in\s+what|on\s+what|what\s+kind\s+of|combien(?:\s+d[e'’])?|quel(?:le)?s?|wie\s+(?:viele?|hoch|lang|gro(?:ß|ss))|wann|quand|comment|qui|wer|was|welche[rsn]?)\b/gi;

/**
 * The question with its interrogative phrases removed (what is left names the topic), and with the function words
 * of its language when the detector is sure it is German or French: the passages are matched under English rules,
 * which would keep "pour", "das" or "sont" as topic words. A lower-case single letter ("v." in a case name) names
 * nothing either.
 */
export function withoutInterrogatives(question: string): string {
  const language = detectQueryLanguage(question, ['de', 'fr']);
  const rest = (language === 'fr' ? withoutElision(question) : question).replace(INTERROGATIVE, ' ');
  return rest.replace(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu, (word) =>
    (/^\p{Ll}$/u.test(word) && !/\d/.test(word)) || (language !== null && analyze(word, language).length === 0)
      ? ' '
      : word,
  );
}

/** A French elided article or pronoun ("l’", "d’", "qu’") glued to the word after it. */
const ELISION = /(?<![\p{L}\p{N}])(?:[cdjlmnst]|qu)['’](?=\p{L})/giu;

/**
 * A French question without its elisions: the analyser reads "l’approche" as one word ("lapproch"), which a passage
 * saying "notre approche" does not hold; the bare noun is held by every passage that says it without an article
 * glued to it (the passages are analysed as they are).
 */
export function withoutElision(text: string): string {
  return text.replace(ELISION, '');
}

/** "Number" as the label of an identifier ("phone number", "case number"), not a count ("the number of votes"). */
const IDENTIFIER_NOUN = new Set(analyze('number numbers'));

/**
 * The words that say which kind of number a quantity question wants, when "number" labels an identifier: the word
 * right before it ("phone number", "docket number"), analysed. Not before "number of", a count ("the total number of
 * votes"; "the docket number of X" reads the same way and is left out with it). Dates and names are not included:
 * a passage often holds several of them, and the word before ("expiry date", "issue date") is what tells them apart.
 */
export function typeNounModifiers(question: string, type: AnswerType): Set<string> {
  const out = new Set<string>();
  if (type !== 'quantity') return out;
  const words = question.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*|[^\s\p{L}\p{N}]+/gu) ?? [];
  words.forEach((word, i) => {
    const before = words[i - 1] ?? '';
    if (i === 0 || !/^\p{L}/u.test(before) || /^of$/i.test(words[i + 1] ?? '')) return;
    if (!analyze(word).some((t) => IDENTIFIER_NOUN.has(t))) return;
    for (const t of analyze(before)) if (!IDENTIFIER_NOUN.has(t)) out.add(t);
  });
  return out;
}

/** The word that ends an organisation's name in Chinese and Japanese (as "Inc", "Ltd", "GmbH" do in English). */
const ORGANISATION_WORD = /(?:公司|集团|银行|大学|学院|医院|研究院|研究所|委员会|协会|会社|銀行|病院)$/u;

/**
 * Organisation names in the unspaced runs of a question: two or more dictionary words ending in an organisation
 * word ("东北电气发展股份有限公司"), started after a particle or question word. Chinese and Japanese have no capital
 * letters to mark a name; the organisation word is the mark they have.
 */
function organisationNames(question: string): string[] {
  const out: string[] = [];
  for (const run of question.match(UNSPACED_RUN) ?? []) {
    let name: string[] = [];
    for (const word of wordsOf(run)) {
      if (UNSPACED_QUESTION_NOISE.has(word)) {
        name = [];
        continue;
      }
      name.push(word);
      if (ORGANISATION_WORD.test(word) && name.length >= 2) {
        out.push(name.join(''));
        name = [];
      }
    }
  }
  return out;
}

/**
 * Words of the question that name something specific: proper nouns (capitalised after the first word, or an
 * organisation's name in Chinese or Japanese), numbers and codes, and quoted words. Evidence that misses one of
 * them is about something else.
 */
export function specificWords(question: string): string[] {
  const out: string[] = [...organisationNames(question)];
  // A run of an unspaced script is split into its words, so a year inside it is specific, not the whole run.
  const words = (question.match(/[\p{L}\p{N}][\p{L}\p{N}_'’.-]*/gu) ?? []).flatMap((w) =>
    HAS_UNSPACED_SCRIPT.test(w) ? wordsOf(w) : [w],
  );
  words.forEach((w, i) => {
    const word = w.replace(/[.'’]+$/, '');
    if (/\d/.test(word) || (i > 0 && /^\p{Lu}/u.test(word))) out.push(word);
  });
  for (const m of question.matchAll(/["“]([^"”]{2,80})["”]/g)) out.push(...(m[1] ?? '').split(/\s+/));
  return [...new Set(out)];
}

/**
 * Whether a number (not one the question names) stands within `window` words of one of the asked terms: the
 * number a quantity question wants is said next to what it counts.
 */
export function numberNearTerms(
  text: string,
  terms: ReadonlySet<string>,
  question: string,
  analyzeWord: (w: string) => string[],
  window = 8,
): boolean {
  const asked = new Set(numbersIn(question));
  const words = wordsOf(text);
  const hits: number[] = [];
  const numbers: number[] = [];
  words.forEach((w, i) => {
    const n = numbersIn(w);
    if (n.some((x) => !asked.has(x))) numbers.push(i);
    if (analyzeWord(w).some((t) => terms.has(t))) hits.push(i);
  });
  return numbers.some((i) => hits.some((j) => i !== j && Math.abs(i - j) <= window));
}

/** Whether one word holds a value of the asked type (the word-level form of `holdsAnswerType`). */
function typedWord(word: string, type: AnswerType, askedNumbers: ReadonlySet<string>, askedNames: ReadonlySet<string>) {
  switch (type) {
    case 'quantity':
      return numbersIn(word).some((n) => !askedNumbers.has(n)) || NUMBER_WORDS.test(word);
    case 'date':
      return namesMonth(word) || NUMERIC_DATE.test(word) || YEAR.test(word) || TIME.test(word);
    case 'entity': {
      const w = word.replace(/^[^\p{L}]+|[^\p{L}'-]+$/gu, '');
      return (/^\p{Lu}[\p{L}'-]+$/u.test(w) || CASELESS_WORD.test(w)) && !askedNames.has(w.toLowerCase());
    }
    default:
      return true;
  }
}

/**
 * Whether a value of the asked type (a number the question does not name, a date, a name the question does not
 * name) stands within `window` words of one of the asked terms: the slot the question asks to fill is filled next
 * to what the question is about, not anywhere in an on-topic sentence. A sentence's first word is not taken for a
 * name (capitalised by position). Open types (definition, procedure, yes/no, other) always qualify.
 */
export function typedValueNearTerms(
  text: string,
  type: AnswerType,
  terms: ReadonlySet<string>,
  question: string,
  analyzeWord: (w: string) => string[],
  window: number,
): boolean {
  if (!typeIsStrict(type)) return true;
  const askedNumbers = new Set(numbersIn(question));
  const askedNames = new Set([
    ...(question.match(/\p{Lu}[\p{L}'-]+/gu) ?? []).map((w) => w.toLowerCase()),
    ...caselessWords(question),
  ]);
  const words = wordsOf(text);
  const values: number[] = [];
  const hits: number[] = [];
  words.forEach((w, i) => {
    const sentenceStart = i === 0 || /[.!?:。！？：]$/.test(words[i - 1] ?? '');
    if (!(type === 'entity' && sentenceStart) && typedWord(w, type, askedNumbers, askedNames)) values.push(i);
    if (analyzeWord(w).some((t) => terms.has(t))) hits.push(i);
  });
  return values.some((i) => hits.some((j) => i !== j && Math.abs(i - j) <= window));
}

/**
 * A conjunction that opens a new question: ", and what …", "; how many …", " and who …". Only question words open
 * one: after "and", an auxiliary usually continues the same clause ("… who led the research and was criticized").
 */
const ANAPHOR = /\b(?:it|its|they|them|their|he|him|his|she|her|this|these|those)\b/i;
const NEXT_QUESTION =
  /(?:\s*[,;]\s*(?:and\s+|but\s+)?|\s+(?:and|but)\s+)(?=(?:what|which|who|whom|whose|when|where|why|how)\b)/gi;

/**
 * The questions a compound question asks ("How many X …, and what is the price of Y?"): split where a conjunction
 * opens a new interrogative clause, each part kept only when it has two or more content words; a question whose
 * later part refers back with a pronoun stays whole. One question returns itself alone. Each part is answered (or
 * declined) on its own, so a question spanning two documents gets an answer per document.
 */
export function subQuestions(question: string, terms: (text: string) => string[]): string[] {
  const parts = question
    .split(NEXT_QUESTION)
    .map((p) => p.trim().replace(/[,;]+$/, ''))
    .filter((p) => terms(withoutInterrogatives(p)).length >= 2);
  // A later part that refers back ("… and when did it …") depends on the first: the question stays whole.
  if (parts.slice(1).some((p) => ANAPHOR.test(p))) return [question];
  return parts.length >= 2 ? parts : [question];
}

/**
 * Where a question asks what a term is, the term: "How does the paper define creativity?" (not "how do I define
 * X", a procedure), "Define X", "the
 * definition of X", "What does X mean?", a short "What is (a/an/the) X?", and "What is a/an X …" (an indefinite
 * article names a kind, which is defined, whatever follows: "What is an abomination in the creature description?").
 * "What is the X of Y" asks for a value, not a definition: null.
 */
const DEFINED_TERM: readonly RegExp[] = [
  /\bhow\s+(?:does|do|did|would|could)\s+(?!(?:i|we|you|one)\b).+?\s+define\s+(.+?)\s*\??\s*$/iu,
  /^\s*define\s+(.+?)\s*\??\s*$/iu,
  /\bdefinition\s+of\s+(.+?)\s*\??\s*$/iu,
  /\bwhat\s+(?:does|do|did)\s+(.+?)\s+mean\b/iu,
  /^\s*what\s+(?:is|are)\s+(?:(?:an?|the)\s+)?([\p{L}\p{N}-]+(?:\s+[\p{L}\p{N}-]+)?)\s*\??\s*$/iu,
  /^\s*what\s+(?:is|are)\s+an?\s+([\p{L}\p{N}-]+)\b/iu,
];

export function definedTerm(question: string): string | null {
  const q = question.replace(/\s+/g, ' ').trim();
  for (const pattern of DEFINED_TERM) {
    const term = pattern
      .exec(q)?.[1]
      ?.replace(/^(?:an?|the)\s+/i, '')
      .replace(/["“”'’]/g, '')
      .replace(/[.!?]+$/, '')
      .trim();
    if (term && analyze(term).length > 0) return term;
  }
  return null;
}

/** A copula or defining verb after the term ("X is a …", "X means …"), in English, French and German. */
const COPULA = /^(?:is|are|was|were|est|sont|ist|sind)$/i;
const DEFINING_VERB = /^(?:means|denotes|refers|designates|signifies|désigne|signifie|bedeutet|bezeichnet)$/i;
/** What a definition's predicate opens with: an article, a defining participle or a quotation. */
const PREDICATE_START =
  /^(?:["“«„]|(?:a|an|the|one|any|un|une|le|la|les|l['’]|ein|eine|einer|der|die|das|defined|called|known|termed)$)/i;
/** Words that introduce the name a definition gives ("known as X", "called X", "appelé X", "genannt X"). */
const NAMING = /^(?:called|termed|named|dubbed|appelée?s?|nommée?s?|genannt|heißt)$/i;
const NAMING_AS = /^(?:known|referred|defined|described|designated|connue?s?|bekannt)$/i;
const ARTICLE = /^(?:a|an|the|un|une|le|la|les|ein|eine|einen|der|die|das)$/i;

/**
 * Whether a sentence defines the term: the term followed by a copula and a predicate that opens with an article or a
 * quotation ("creativity is “the ability …”", "an abomination is a demon …"; "abominations are rare" is no
 * definition), or by a defining verb ("X means …"), or preceded by a naming phrase ("an unholy union known as an
 * abomination", "a bond called X"). Words of one family match (`same`: the answerer's stem matching).
 */
export function definesTerm(sentence: string, term: string, same: (a: string, b: string) => boolean): boolean {
  const want = analyze(term);
  if (want.length === 0) return false;
  const words = sentence.split(/\s+/).filter((w) => w.length > 0);
  const bare = (w: string | undefined) => (w ?? '').replace(/^[^\p{L}\p{N}"“«„]+|[^\p{L}\p{N}]+$/gu, '');
  const stems = words.map((w) => analyze(bare(w)));
  for (let i = 0; i < words.length; i++) {
    // The term's words in order from word i (words the analyser drops, such as "of", may stand between).
    let k = 0;
    let j = i;
    while (j < words.length && k < want.length) {
      const s = stems[j] ?? [];
      if (s.length === 0 && k > 0) {
        j++;
        continue;
      }
      if (!s.some((t) => same(t, want[k] ?? ''))) break;
      k++;
      j++;
    }
    if (k < want.length) continue;
    const next = bare(words[j]);
    const after = (words[j + 1] ?? '').replace(/[^\p{L}\p{N}"“«„'’]+$/u, '');
    // A clause that ends on the term ("…, creativity. It is a …") predicates nothing of it.
    if (!/[,;:.!?)]$/.test(words[j - 1] ?? '')) {
      if (COPULA.test(next) && PREDICATE_START.test(after)) return true;
      if (DEFINING_VERB.test(next)) return true;
    }
    const before = (n: number) => bare(words[i - n]).toLowerCase();
    const lead = ARTICLE.test(before(1)) ? 2 : 1;
    if (NAMING.test(before(lead))) return true;
    if (/^(?:as|als|comme|sous)$/i.test(before(lead)) && NAMING_AS.test(before(lead + 1))) return true;
  }
  return false;
}
