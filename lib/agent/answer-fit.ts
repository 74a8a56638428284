import { analyze } from '@/lib/retrieval/analyzer';
import { numbersIn, questionFrameTerms, specificWords, withoutInterrogatives } from './answer-type';
import { askedAcronyms, keyTerms, spelledAcronyms } from './text';
import { holdsFamily } from './word-family';

/**
 * Whether quoted evidence answers the question it is quoted for, read from the grammar of both (no model): signals that
 * a sentence sharing the question's words still does not answer it. Questions written to look answerable from a
 * passage (SQuAD 2.0's unanswerables) are built this way: a "not" added to the question, the asked name swapped for a
 * neighbour's, a "where" asked of a sentence that holds no place. Each signal is a reason to doubt an answer, not a
 * proof that it is wrong; confidence (confidence.ts) lowers the label of an answer they fire on, and the answerability
 * decision may use the strongest of them.
 */

/** One quoted sentence: its text, the text of the chunk it was read in, and where it starts there. */
export interface FitSentence {
  text: string;
  /** The whole chunk text (the sentence is part of it). */
  context: string;
  /** Identifies the chunk (sentences of one chunk share it). */
  source: string;
  /** Offset of the sentence in its chunk. */
  start: number;
  /** What the sentence is read under (its chunk's title, heading path, sheet and file name), if anything. */
  heading?: string;
}

export interface AnswerFit {
  /** The quoted sentences deny the asked predicate, or the question asks about a denial no sentence states. */
  polarityMismatch: boolean;
  /** Names or numbers the question asks about that no quoted sentence holds although their chunk does elsewhere. */
  namesElsewhere: number;
  /** Names or numbers the question asks about that no quoted sentence holds. */
  namesMissing: number;
  /** A value the question states stands in the sentence next to another noun than the one the question binds it to. */
  valueRebound: boolean;
  /** A "where" question quoted with sentences that name no place. */
  placeMissing: boolean;
  /** The question's terms are held only by sentences of separate passages together, not by one run of adjacent ones. */
  spread: boolean;
  /** Share (0-1) of the question's topic terms no quoted sentence holds (a word of the same family counts). */
  termsMissing: number;
  /** A degree the question asks for ("the oldest", "the least important") that no quoted sentence states. */
  degreeMissing: boolean;
  /**
   * Share (0-1) of the question's topic terms (frame words dropped) that ONE quoted sentence holds, read under its
   * heading: the best sentence's. Low when the question's words are gathered from several sentences.
   */
  oneSentenceShare: number;
}

/**
 * Negations of a verb in English, French and German ("had not proven", "should not fall", "n'a pas", "nicht"), with
 * the apostrophe-less contractions typed questions use ("cant", "havent").
 */
const VERB_NEGATION =
  /^(?:not|never|cannot|nor|n't|ne|pas|jamais|nicht|nie|cant|dont|doesnt|didnt|isnt|wasnt|arent|werent|wont|havent|hasnt|hadnt|couldnt|shouldnt|wouldnt)$/i;

/** Negations of a noun phrase ("no seeds", "without a licence", "kein"). */
const NOUN_NEGATION =
  /^(?:no|none|nothing|nobody|neither|without|aucun|aucune|sans|kein|keine|keinen|keiner|keinem|ohne)$/i;

/**
 * An absence, exception or contrast said in other words ("other than 2 and 5", "lacking seeds", "unable to",
 * "point particles rather than three-dimensional objects", "instead of", "au lieu de", "statt").
 */
const ABSENCE =
  /\b(?:except|excluding|other\s+than|apart\s+from|unlike|lack(?:s|ed|ing)?|unable|fail(?:s|ed)?\s+to|absence\s+of|rather\s+than|instead\s+of|as\s+opposed\s+to|sauf|au(?:ß|ss)er|plut[oô]t\s+que|au\s+lieu\s+d|(?:an)?statt)\b/i;

/** "not only", "not just", "not until": no denial of what follows. */
const NOT_A_DENIAL = /^(?:only|just|merely|simply|until|till|least|necessarily)$/i;

/** A correction after a negation ("not X but rather Y", "not X, only Y"): the sentence states Y, not a denial. */
const CORRECTION = /^(?:rather|instead)$/i;

/** Relative pronouns: a negation after one in its clause denies the relative clause, not the main clause. */
const RELATIVE = /^(?:which|who|whom|whose|whereby|lequel|laquelle|welche[rsnm]?)$/i;

/** Words that open a new clause: a negation before them does not reach past them. */
const CLAUSE_OPENER =
  /^(?:that|which|who|whom|whose|where|when|because|but|while|whereas|although|though|and|if|unless|since|after|before|so|qui|que|dont|mais|et|dass|weil|aber|und|der|die|das)$/i;

/** How many words after a negation it reaches ("did not originally focus on" reaches "focus"). */
const NEGATION_REACH = 4;

/** Words with their offsets, a clause boundary marked where punctuation stands. */
function words(text: string): { word: string; boundary: boolean }[] {
  const out: { word: string; boundary: boolean }[] = [];
  const normalised = text.replace(/n['\u2019]t\b/gi, " n't");
  for (const m of normalised.matchAll(
    /\p{N}+(?:[.,:]\p{N}+)+|[\p{L}\p{N}][\p{L}\p{N}'’-]*|n't|[.,;:!?()\u2013\u2014"“”]/gu,
  )) {
    const w = m[0];
    if (/^[.,;:!?()\u2013\u2014"“”]$/.test(w)) {
      const last = out.at(-1);
      if (last) last.boundary = true;
      continue;
    }
    out.push({ word: w, boundary: false });
  }
  return out;
}

/**
 * The negation at `i` stands in a relative clause ("the M, which does not stand for Mach"): a relative pronoun opens
 * its clause.
 */
function inRelativeClause(ws: readonly { word: string; boundary: boolean }[], i: number): boolean {
  for (let j = i - 1; j >= 0; j--) {
    const w = ws[j];
    if (!w || w.boundary) return false;
    // An interrogative opens its sentence or clause ("Who did not …"); a relative pronoun follows its antecedent.
    if (RELATIVE.test(w.word)) return j > 0 && !ws[j - 1]?.boundary;
  }
  return false;
}

/**
 * A correction follows the negation at `i` in its sentence ("not for revenue, but rather to regulate", ", only
 * that"): the sentence states what is so.
 */
function corrected(ws: readonly { word: string; boundary: boolean }[], i: number): boolean {
  for (let j = i + 1; j < ws.length; j++) {
    const w = ws[j];
    if (!w) break;
    if (CORRECTION.test(w.word) || (/^only$/i.test(w.word) && ws[j - 1]?.boundary)) return true;
  }
  return false;
}

/**
 * Whether a negation in `text` denies one of `terms`: one of them stands within `NEGATION_REACH` words after the
 * negation, in the same clause ("had not proven", "should not fall within"). Verb negations only, unless `nouns`
 * ("no seeds"): "no such planet could be found" denies the planet, not what the question asks about it. A negation
 * in a relative clause ("X, which did not Y, was founded"), one that only qualifies ("not only", "not until") and one
 * a correction follows ("not X but rather Y") deny nothing asked.
 */
export function deniesTerms(text: string, terms: ReadonlySet<string>, nouns = false): boolean {
  const ws = words(text);
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i];
    if (!w || !(VERB_NEGATION.test(w.word) || (nouns && NOUN_NEGATION.test(w.word)))) continue;
    // "No. 21", "No 5": a numbering, not a denial.
    if (/^no$/i.test(w.word) && (w.boundary || /^\d/.test(ws[i + 1]?.word ?? ''))) continue;
    if (w.boundary || NOT_A_DENIAL.test(ws[i + 1]?.word ?? '') || inRelativeClause(ws, i) || corrected(ws, i)) continue;
    for (let j = i + 1; j < ws.length && j <= i + NEGATION_REACH; j++) {
      const next = ws[j];
      if (!next || CLAUSE_OPENER.test(next.word)) break;
      if (analyze(next.word).some((t) => terms.has(t))) return true;
      if (next.boundary) break;
    }
  }
  return false;
}

/** A yes/no question: it opens with an auxiliary ("Do the statistics represent …?", "Are the tips mandatory?"). */
const YES_NO =
  /^\s*(?:is|are|was|were|does|do|did|can|could|should|has|have|had|will|would|must|may|est-ce|ist|sind|hat|kann)\b/i;

/** Whether a text states a negation, an absence or an exception anywhere. */
function negates(text: string): boolean {
  return ABSENCE.test(text) || words(text).some((w) => VERB_NEGATION.test(w.word) || NOUN_NEGATION.test(w.word));
}

/** The question's topic terms (interrogatives dropped). */
function topicTerms(question: string): Set<string> {
  return new Set(keyTerms(withoutInterrogatives(question)));
}

/**
 * The question asks about a denial ("what is not prevented", "who did not attend") and no quoted sentence holds a
 * negation at all, or the question asks plainly and a quoted sentence denies its predicate ("what did the court say
 * had been proven" quoted with "held that it had not been proven"). A yes/no question is answered by a denial ("are
 * the tips mandatory": "they are not mandatory"), so only its first half applies.
 */
export function polarityMismatch(question: string, sentences: readonly string[]): boolean {
  const terms = topicTerms(question);
  if (terms.size === 0 || sentences.length === 0) return false;
  if (deniesTerms(question, terms, true)) return !sentences.some(negates);
  return !YES_NO.test(question) && sentences.some((s) => deniesTerms(s, terms));
}

/** Whether the analysed `have` holds `term`, or a word of its family (`holdsFamily`). */
function holdsTerm(have: ReadonlySet<string>, term: string): boolean {
  return holdsFamily(have, term);
}

/** The names and numbers the question asks about, each as its analysed terms (empty ones dropped). */
function askedNames(question: string): string[][] {
  return specificWords(question)
    .map((w) => analyze(w))
    .filter((t) => t.length > 0);
}

/**
 * The question's names and numbers no quoted sentence holds: how many, and how many of them the chunks of those
 * sentences hold elsewhere (the passage knows the name, but the quoted sentence is about something else).
 */
export function namesNotInSentences(
  question: string,
  sentences: readonly FitSentence[],
): { missing: number; elsewhere: number } {
  const said = new Set(sentences.flatMap((s) => analyze(s.text)));
  const context = new Set(sentences.flatMap((s) => analyze(s.context)));
  let missing = 0;
  let elsewhere = 0;
  for (const name of askedNames(question)) {
    if (name.every((t) => holdsTerm(said, t))) continue;
    missing++;
    if (name.every((t) => holdsTerm(context, t))) elsewhere++;
  }
  return { missing, elsewhere };
}

/** How many words on each side of a value the sentence may put the words the question binds it to. */
const BINDING_WINDOW = 4;

/** How many words on each side of a value in the question name what it is the value of. */
const BINDING_REACH = 3;

/** The content terms within `BINDING_REACH` words of word `at` ("household size" in "household size was 3.21"). */
function boundTerms(ws: readonly { word: string }[], at: number): string[] {
  return [...ws.slice(Math.max(0, at - BINDING_REACH), at), ...ws.slice(at + 1, at + 1 + BINDING_REACH)].flatMap((w) =>
    keyTerms(w.word).filter((t) => !/\d/.test(t)),
  );
}

/**
 * A measured value the question states (a decimal or a percentage: "... size was 3.21") stands in every quoted
 * sentence that holds it away from a word the question binds it to, while that word is elsewhere in the sentence
 * ("household size was 2.55 and family size was 3.21"): the value belongs to another noun there. Years and codes
 * ("the 1980 Olympics", "the 737 MAX") name many things in one sentence, so they are not read this way.
 */
export function valueRebound(question: string, sentences: readonly string[]): boolean {
  const qs = words(question);
  for (const [at, w] of qs.entries()) {
    const value = numbersIn(w.word)[0];
    // A measured value (a decimal, a percentage) belongs to one noun; a year or a code names many things.
    if (!value || !(/[.,]\d/.test(value) || /%$/.test(w.word) || /^per\s?cent/i.test(qs[at + 1]?.word ?? ''))) continue;
    const bound = boundTerms(qs, at);
    if (bound.length === 0) continue;
    const verdicts = sentences.flatMap((s) => {
      const ws = words(s);
      const all = new Set(ws.flatMap((x) => analyze(x.word)));
      const places = ws.flatMap((x, i) => (numbersIn(x.word).includes(value) ? [i] : []));
      if (places.length === 0) return [];
      // Rebound only when no occurrence of the value stands by the words the question binds it to.
      return [
        places.every((here) => {
          const near = new Set(
            ws.slice(Math.max(0, here - BINDING_WINDOW), here + BINDING_WINDOW + 1).flatMap((x) => analyze(x.word)),
          );
          return bound.some((t) => !holdsTerm(near, t) && holdsTerm(all, t));
        }),
      ];
    });
    if (verdicts.length > 0 && verdicts.every(Boolean)) return true;
  }
  return false;
}

/** "Where" questions that ask for a place ("where did X come from" asks for an origin, which may be anything). */
const ASKS_PLACE =
  /^\s*where\b(?!.*\bcome\s+from\b)|\b(?:in|at|to|from)\s+(?:what|which)\s+(?:place|city|town|country|region|state|area|location|street|building)\b/i;

/** Nouns that name a place without a capital ("the city", "abroad"). */
const PLACE_NOUN =
  /\b(?:city|cities|town|towns|village|country|countries|region|province|state|county|district|island|river|street|road|avenue|building|hall|house|church|museum|university|school|hospital|station|port|harbou?r|coast|valley|mountains?|sea|ocean|lake|north|south|east|west|abroad|overseas|downtown|capital)\b/i;

/** A locative preposition before a word ("within the spongy portions", "at the end"). */
const LOCATIVE =
  /\b(?:in|at|within|inside|near|into|onto|across|throughout|beside|behind|outside|under|above|along|around|between)\s+(?:the\s+|a\s+|an\s+)?\p{L}{3,}/iu;

/**
 * A "where" question quoted with sentences that hold no place: no capitalised word that does not open its sentence
 * and that the question does not name, no place noun, no locative phrase ("within the spongy bones") and no address.
 */
export function placeMissing(question: string, sentences: readonly string[]): boolean {
  if (!ASKS_PLACE.test(question)) return false;
  const asked = new Set((question.match(/\p{Lu}[\p{L}'-]+/gu) ?? []).map((w) => w.toLowerCase()));
  return !sentences.some((s) => {
    const ws = words(s);
    const named = ws.some((w, i) => {
      const opens = i === 0 || ws[i - 1]?.boundary;
      return !opens && /^\p{Lu}/u.test(w.word) && !asked.has(w.word.toLowerCase());
    });
    return named || PLACE_NOUN.test(s) || LOCATIVE.test(s) || /https?:\/\/|www\./i.test(s);
  });
}

/** The share of the question's terms one group of sentences holds. */
function share(terms: readonly string[], have: ReadonlySet<string>): number {
  return terms.length === 0 ? 0 : terms.filter((t) => holdsTerm(have, t)).length / terms.length;
}

/** The union must hold this much more of the question than the best run of adjacent sentences for a spread answer. */
const SPREAD_GAP = 0.3;

/**
 * Runs of adjacent quoted sentences (same chunk, nothing but white space between them): a run reads as one statement
 * ("Rollo founded the duchy. He ruled it until 927." answers "who ruled the duchy" across its two sentences).
 */
function adjacentRuns(sentences: readonly FitSentence[]): FitSentence[][] {
  const sorted = [...sentences].sort((a, b) => a.source.localeCompare(b.source) || a.start - b.start);
  const runs: FitSentence[][] = [];
  for (const s of sorted) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    const between = last && last.source === s.source ? s.context.slice(last.start + last.text.length, s.start) : null;
    if (run && between !== null && /^\s*$/.test(between)) run.push(s);
    else runs.push([s]);
  }
  return runs;
}

/**
 * The question's terms are said only by sentences of separate passages together: the best run of adjacent sentences
 * holds at most half of them, and at least `SPREAD_GAP` less than all quoted sentences do. Two passages each holding
 * half of the question do not make one statement that answers it. Sentences of one passage are not judged so: the
 * second often goes on about the first's subject ("Zi refers to the North Star … The Forbidden City … was its earthly
 * counterpart"), and on ClapNQ such answers were right.
 */
export function spreadAcross(question: string, sentences: readonly FitSentence[]): boolean {
  const terms = [...topicTerms(question)];
  const runs = adjacentRuns(sentences);
  if (runs.length < 2 || terms.length < 2 || new Set(sentences.map((s) => s.source)).size < 2) return false;
  const all = share(terms, new Set(sentences.flatMap((s) => analyze(s.text))));
  const best = Math.max(...runs.map((r) => share(terms, new Set(r.flatMap((s) => analyze(s.text))))));
  return best <= 0.5 && all - best >= SPREAD_GAP;
}

/** The share of the question's topic terms no quoted sentence holds. */
export function termsMissing(question: string, sentences: readonly string[]): number {
  const terms = [...topicTerms(question)];
  if (terms.length === 0) return 0;
  const said = new Set(sentences.flatMap((s) => analyze(s)));
  return terms.filter((t) => !holdsTerm(said, t)).length / terms.length;
}

/**
 * A superlative or an order after "the" or a possessive ("the oldest", "the least", "Europe's largest", "the first").
 * "most" is left out: a sentence says "an intense rivalry" of "the most intense rival". A noun ending in "-est" ("the
 * west", "the interest") is read as one too; it is a topic word the answering sentence holds anyway.
 */
const DEGREE = /(?:\bthe\s+|['’]s\s+)(\p{L}{2,}est|least|fewest|first|last)\b/giu;

/**
 * "the most" before a plural noun asks the largest count ("the most layoffs", "the most Stanley Cups"), not an
 * intensity ("the most intense"): a sentence answering it says so ("the most", "a record", "more … than any").
 */
const MOST_COUNT = /\bthe\s+most\s+(?:\p{L}+\s+)?\p{L}{2,}s\b/iu;
const SAYS_MOST = /\b(?:most|record|more\b.*\bthan\s+any|highest|largest|greatest|biggest|leads?|leading|top)\b/iu;

/** The question asks for a degree ("the oldest work", "the least important") that no quoted sentence states. */
export function degreeMissing(question: string, sentences: readonly string[]): boolean {
  const text = sentences.join(' ').toLowerCase();
  if (MOST_COUNT.test(question) && !SAYS_MOST.test(text)) return true;
  for (const m of question.matchAll(DEGREE)) {
    const word = (m[1] ?? '').toLowerCase();
    if (!new RegExp(`\\b${word}\\b`, 'u').test(text)) return true;
  }
  return false;
}

/**
 * The share of the question's topic terms (interrogatives and frame words dropped: "what is the name of", "what
 * happened") that the best single quoted sentence holds, its own words by family (`holdsTerm`) and its heading's words
 * exactly, an acronym of the question also when the sentence spells it out (`spelledAcronyms`). 1 when the question has
 * no topic term; 0 when nothing is quoted. An answer whose words come from one
 * sentence states them together; one gathered from two sentences ("… rename its SkyDrive …" and "… will soon become
 * OneDrive") may state none of what is asked (confidence.ts, `MEDIUM_RULE`).
 */
export function oneSentenceShare(question: string, sentences: readonly FitSentence[]): number {
  const frame = questionFrameTerms(question);
  const terms = [...topicTerms(question)].filter((t) => !frame.has(t));
  if (terms.length === 0) return 1;
  const acronyms = askedAcronyms(question);
  let best = 0;
  for (const s of sentences) {
    // An acronym of the question the sentence spells out ("the SP's" and "the Scottish Parliament's") is said by it.
    const have = new Set([...analyze(s.text), ...spelledAcronyms(s.text, acronyms)]);
    const heading = new Set(analyze(s.heading ?? ''));
    best = Math.max(best, terms.filter((t) => holdsTerm(have, t) || heading.has(t)).length / terms.length);
  }
  return best;
}

/** Every signal for one answer. */
export function answerFit(question: string, sentences: readonly FitSentence[]): AnswerFit {
  const texts = sentences.map((s) => s.text);
  const names = namesNotInSentences(question, sentences);
  return {
    polarityMismatch: polarityMismatch(question, texts),
    namesElsewhere: names.elsewhere,
    namesMissing: names.missing,
    valueRebound: valueRebound(question, texts),
    placeMissing: placeMissing(question, texts),
    spread: spreadAcross(question, sentences),
    termsMissing: termsMissing(
      question,
      sentences.flatMap((s) => [s.text, s.heading ?? '']),
    ),
    degreeMissing: degreeMissing(question, texts),
    oneSentenceShare: oneSentenceShare(question, sentences),
  };
}

/** A candidate sentence as the fit signals read it (its chunk's title, sheet, heading path and file name above it). */
export function fitSentence(c: {
  sentence: { text: string; start: number };
  opened: {
    chunk: {
      chunkId: string;
      text: string;
      title?: string | null;
      sheet?: string | null;
      headingPath?: string | null;
      filename: string;
    };
  };
}): FitSentence {
  const k = c.opened.chunk;
  return {
    text: c.sentence.text,
    context: k.text,
    source: k.chunkId,
    start: c.sentence.start,
    heading: `${k.title ?? ''} ${k.sheet ?? ''} ${k.headingPath ?? ''} ${k.filename.replace(/[-_.]/g, ' ')}`,
  };
}

/** The fit of a compound question's answered parts as one: a signal fires when it fires on any part. */
export function combinedFit(fits: readonly (AnswerFit | undefined)[]): AnswerFit | undefined {
  const all = fits.filter((f): f is AnswerFit => f !== undefined);
  const first = all[0];
  if (!first) return undefined;
  return {
    polarityMismatch: all.some((f) => f.polarityMismatch),
    namesElsewhere: Math.max(...all.map((f) => f.namesElsewhere)),
    namesMissing: Math.max(...all.map((f) => f.namesMissing)),
    valueRebound: all.some((f) => f.valueRebound),
    placeMissing: all.some((f) => f.placeMissing),
    spread: all.some((f) => f.spread),
    termsMissing: Math.max(...all.map((f) => f.termsMissing)),
    degreeMissing: all.some((f) => f.degreeMissing),
    oneSentenceShare: Math.min(...all.map((f) => f.oneSentenceShare)),
  };
}

/**
 * The signals that doubt an answer, by name: each says the quoted sentences do not state what the question asks
 * (a denial where it asks plainly or the reverse, a missing degree, a value bound to another noun, no place for a
 * "where", the question's words spread over separate passages). The name and term shares (`namesMissing`,
 * `termsMissing`) are kept as measurements: on the own set and ClapNQ a right answer often names its entity only in
 * a title or heading, so they did not separate right from wrong answers there (docs/benchmarks-agent.md).
 */
export function fitDoubts(fit: AnswerFit | undefined): string[] {
  if (!fit) return [];
  const out: string[] = [];
  if (fit.polarityMismatch) out.push('polarity');
  if (fit.degreeMissing) out.push('degree');
  if (fit.valueRebound) out.push('value bound to another noun');
  if (fit.placeMissing) out.push('no place');
  if (fit.spread) out.push('spread over passages');
  return out;
}
