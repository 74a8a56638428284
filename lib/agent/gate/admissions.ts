/**
 * Admissions: statements that the documents lack something ("the documents do not say X", "no information on Y",
 * "Insufficient documentation"). An admission is about the sources, so it needs no citation, but it excuses only
 * itself: a unit is split into clauses (at ";" and at contrast words such as "but", "however", "although",
 * "whereas", "while", "yet", "except"), and only the clauses that admit are excused; the others are claims.
 *
 * A clause admits when it says that the sources (documents, sources, passages, text, context, documentation,
 * manual, guide, evidence…) do not contain something, that something is not documented, mentioned, covered,
 * specified or stated, that there is no information, mention or documentation of it, that the writer could not
 * find it or cannot answer, or when it contains the question's own insufficiency phrase. A negative statement
 * about the world ("the service does not cover EU regions") is not an admission.
 */

const SOURCE =
  '(?:documents?|docs|sources?|passages?|texts?|context|documentation|manuals?|guides?|evidence|excerpts?|materials?|files?|pages?|records?|information provided|provided information)';
const NEGATION =
  "(?:do(?:es)?\\s*n[o']t|did\\s*n[o']t|never|cannot|can't|may\\s+not|might\\s+not|fail(?:s|ed)?\\s+to|lack)";
/** Up to two words between the sources and the negation ("the documents I opened do not"), none of them a verb
 * that reports content ("the documentation says deletions do not…" is a claim, not an admission). */
const GAP =
  "(?:(?!(?:that|which|who|says?|states?|notes?|shows?|explains?|confirms?|adds?|warns?)\\b)[\\w'-]+\\s+){0,2}";
const REPORTING =
  '(?:mention|say|state|specify|describe|explain|document|address|discuss|list|name|detail|give|provide|include|contain|cover|indicate|show|answer|define|clarify)';

const PATTERNS: RegExp[] = [
  new RegExp(`\\b${SOURCE}\\s+${GAP}${NEGATION}\\b`, 'i'),
  new RegExp(`\\b(?:it|they|this|these)\\s+${NEGATION}\\s+(?:\\w+\\s+){0,2}${REPORTING}`, 'i'),
  /\bnot\s+(?:documented|mentioned|covered|specified|stated|described|addressed|provided|included|found|listed|given|defined)\b/i,
  /\bno\s+(?:information|mention|details?|documentation|evidence|data|description|passage|source|answer)\b/i,
  /\b(?:could|can)\s*(?:not|n't)\s+(?:find|locate|determine|confirm|verify|answer)\b/i,
  /\b(?:unable|impossible)\s+to\s+(?:find|locate|determine|confirm|verify|answer)\b/i,
  /\binsufficient\s+(?:documentation|information|evidence|sources?|context)\b/i,
  /\bnothing\s+(?:in|about)\b/i,
];

/** True when `text` admits that the sources lack something (or carries the question's insufficiency phrase). */
export function admits(text: string, phrase?: string | null): boolean {
  if (phrase && phrase.trim().length > 0 && text.toLowerCase().includes(phrase.trim().toLowerCase())) return true;
  return PATTERNS.some((re) => re.test(text));
}

export interface Clause {
  text: string;
  start: number;
  end: number;
  admits: boolean;
}

const SPLIT =
  /;|,?\s+\b(?:but|however|although|though|whereas|while|yet|except(?:\s+that)?|nevertheless|instead)\b,?/gi;

/** The clauses of a unit's text, each marked as admitting or not (offsets relative to `text`). */
export function clauses(text: string, phrase?: string | null): Clause[] {
  const out: Clause[] = [];
  let from = 0;
  const push = (end: number, next: number) => {
    const part = text.slice(from, end);
    if (part.trim().length > 0) out.push({ text: part, start: from, end, admits: admits(part, phrase) });
    from = next;
  };
  for (const m of text.matchAll(SPLIT)) push(m.index, m.index + m[0].length);
  push(text.length, text.length);
  return out;
}
