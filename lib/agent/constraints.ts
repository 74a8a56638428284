import { z } from 'zod';
import type { AgentLimits } from './limits';
import { cardinalWord, QUANTIFIER_WORDS, TENS_WORDS, UNIT_WORDS } from './number-words';
import { keyTerms } from './text';

/**
 * Stage 2: what the question demands of the process and the answer, found by patterns (constraints.test.ts
 * lists the phrasings they cover) and optionally widened by a model pass whose additions must be grounded in the question.
 */

export type ConflictRule = 'newest' | 'oldest' | 'flag';

export interface PromptConstraints {
  minSearches: number;
  requiredTopics: string[];
  minOpenCitations: number;
  /** What must be quoted verbatim ("SQL line"); empty when no exact quote is asked for. */
  exactQuotes: string[];
  conflictRule: ConflictRule | null;
  requiredSections: string[];
  /** The phrase to use for missing information, when the question demands one. */
  insufficiencyPhrase: string | null;
  source: 'patterns' | 'patterns+model';
}

export const DEFAULT_INSUFFICIENCY_PHRASE = 'Insufficient documentation';

function toNumber(word: string | undefined): number | null {
  if (!word) return null;
  const w = word.toLowerCase();
  if (/^\d+$/.test(w)) return Number.parseInt(w, 10);
  return cardinalWord(w) ?? QUANTIFIER_WORDS.get(w) ?? null;
}

/** A count: digits, a cardinal word up to ninety, or a quantifier ("a", "both", "several"). */
const NUM = `(\\d+|${[...UNIT_WORDS.keys(), ...TENS_WORDS.keys(), ...QUANTIFIER_WORDS.keys()].sort((a, b) => b.length - a.length).join('|')})`;

/** Splits "a, b and c" / "a; b; c" / "'a', 'b'" into trimmed items (quotes removed). */
export function splitList(raw: string): string[] {
  return raw
    .split(/\s*(?:,|;|\/|\band\b|\bor\b|\+)\s*/i)
    .map((s) =>
      s
        .replace(/^[\s"'“”‘’`(]+|[\s"'“”‘’`).:]+$/g, '')
        .replace(/^(?:the|a|an)\s+/i, '')
        .trim(),
    )
    .filter((s) => s.length > 1 && s.length <= 80 && !/^(?:etc|others?)$/i.test(s));
}

function sentenceAfter(text: string, index: number): string {
  const rest = text.slice(index);
  const end = rest.search(/[.!?](?:\s|$)|\n/);
  return end < 0 ? rest : rest.slice(0, end);
}

function uniqueCaseless(items: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const key = item.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(item);
  }
  return out;
}

function findTopics(q: string): string[] {
  const patterns = [
    /separate\s+(?:tool\s+)?(?:searches|search(?:es)?|queries|lookups)\s+(?:for|on|about)\s+(?:each\s+(?:topic|of\s+(?:these|the\s+following)(?:\s+topics)?)\s*[:\-–(]?\s*)?/i,
    /\b(?:search|look\s+up)\s+(?:separately\s+)?(?:for|on)\s+each\s+(?:topic|of)\s*[:\-–(]?\s*/i,
    /\btopics?\s*:\s*/i,
    /\bcover(?:ing)?\s+(?:the\s+following|these)?\s*(?:topics)?\s*:\s*/i,
  ];
  for (const p of patterns) {
    const m = p.exec(q);
    if (!m) continue;
    const list = splitList(sentenceAfter(q, m.index + m[0].length).replace(/\)\s*$/, ''));
    if (list.length >= 2) return list.slice(0, 6);
  }
  return [];
}

function findSections(q: string): string[] {
  const patterns = [
    /\b(?:with|having|in|into|using)\s+(?:the\s+)?(?:following\s+)?(?:sections|headings|parts)\s*(?:named|called|titled|for|on|:)?\s*:?\s*/i,
    /\b(?:sections|headings)\s*(?:named|called|titled)?\s*:\s*/i,
    /\b(?:sections|headings)\s+(?:named|called|titled|for)\s+/i,
  ];
  for (const p of patterns) {
    const m = p.exec(q);
    if (!m) continue;
    const list = splitList(sentenceAfter(q, m.index + m[0].length));
    if (list.length >= 1) return list.slice(0, 8);
  }
  const single = [...q.matchAll(/\b(?:include|add|with)\s+an?\s+["'“‘]([^"'”’]{2,60})["'”’]\s+section\b/gi)].map(
    (m) => m[1] ?? '',
  );
  return single.filter((s) => s.length > 0);
}

/** Pattern-based constraint analysis. Pure; a simple question yields the minimal constraints. */
export function analyzeConstraints(question: string): PromptConstraints {
  const q = question.replace(/\s+/g, ' ');
  const requiredTopics = findTopics(q);

  let minSearches = 1;
  const atLeastSearches = new RegExp(
    `\\bat\\s+least\\s+${NUM}\\s+(?:separate\\s+|different\\s+|distinct\\s+)?(?:tool\\s+calls|searches|search(?:es)?\\s+calls|queries)`,
    'i',
  ).exec(q);
  const nSearches = new RegExp(
    `\\b${NUM}\\s+(?:separate|different|distinct)\\s+(?:tool\\s+)?(?:searches|queries)`,
    'i',
  ).exec(q);
  for (const m of [atLeastSearches, nSearches]) {
    const n = toNumber(m?.[1]);
    if (n) minSearches = Math.max(minSearches, n);
  }
  if (/separate\s+(?:tool\s+)?(?:searches|queries)/i.test(q))
    minSearches = Math.max(minSearches, requiredTopics.length || 2);
  if (requiredTopics.length > 0) minSearches = Math.max(minSearches, requiredTopics.length);

  let minOpenCitations = 0;
  const openN = new RegExp(
    `\\b(?:open_citation|open(?:ing)?|read(?:ing)?|cite|citing)\\s+(?:for\\s+|on\\s+)?(?:at\\s+least\\s+)?${NUM}\\s+(?:different\\s+|distinct\\s+|separate\\s+)?(?:citations?|sources?|chunks?|documents?|passages?|results?)?`,
    'i',
  ).exec(q);
  const openN2 = new RegExp(`\\bat\\s+least\\s+${NUM}\\s+(?:opened\\s+)?(?:citations?|sources?)`, 'i').exec(q);
  for (const m of [openN, openN2]) {
    const n = toNumber(m?.[1]);
    if (n) minOpenCitations = Math.max(minOpenCitations, n);
  }
  if (/\bopen_citation\b|\bread\s+(?:the\s+)?full\s+text\b|\bopen\s+the\s+(?:source|citation)s?\b/i.test(q)) {
    minOpenCitations = Math.max(minOpenCitations, 1);
  }

  const exactQuotes: string[] = [];
  for (const m of q.matchAll(
    /\bquote\s+(?:one|an?|the|a\s+single|\d+)?\s*(?:exact|verbatim|literal)\s+([A-Za-z][\w-]*(?:\s+(?:line|statement|command|query|sentence|clause|passage|snippet|step))?)/gi,
  )) {
    exactQuotes.push((m[1] ?? '').trim());
  }
  for (const m of q.matchAll(
    /\b(?:exact|verbatim)\s+(SQL|command|query|line|statement|sentence|clause|wording|text)\b(?:\s+(?:line|statement))?/gi,
  )) {
    exactQuotes.push(m[0].replace(/^(?:exact|verbatim)\s+/i, '').trim());
  }
  if (exactQuotes.length === 0 && /\bverbatim\b|\bword[-\s]for[-\s]word\b|\bexact\s+(?:quote|quotation)s?\b/i.test(q)) {
    exactQuotes.push('verbatim passage');
  }

  let conflictRule: ConflictRule | null = null;
  if (
    /\b(?:newest|latest|most\s+recent(?:ly)?)\s+(?:dated\s+)?(?:document|source|version|one|file)s?\b.*?\b(?:wins?|takes?\s+precedence|prevails?|preferred)\b|\bprefer\s+(?:the\s+)?(?:newest|latest|most\s+recent)|\b(?:newest|latest|most\s+recent)\s+dated\b/i.test(
      q,
    )
  ) {
    conflictRule = 'newest';
  } else if (
    /\b(?:oldest|earliest)\s+(?:dated\s+)?(?:document|source|version)s?\b|\bprefer\s+(?:the\s+)?(?:oldest|earliest)/i.test(
      q,
    )
  ) {
    conflictRule = 'oldest';
  } else if (
    /\b(?:resolve|flag|point\s+out|note|mention)\s+(?:any\s+)?(?:conflicts|contradictions|discrepancies)\b|\bif\s+(?:the\s+)?(?:documents|sources)\s+(?:conflict|disagree|contradict)/i.test(
      q,
    )
  ) {
    conflictRule = 'flag';
  }

  let insufficiencyPhrase: string | null = null;
  const phrase =
    /\b(?:say|state|write|answer|respond\s+with|use\s+the\s+phrase|mark\s+(?:it|them)\s+(?:as|with))\s*:?\s*["'“‘]([^"'”’]{3,80})["'”’]/i.exec(
      q,
    );
  if (
    phrase?.[1] &&
    /insufficient|not\s+(?:found|documented|available|covered)|unknown|missing|no\s+information|cannot|don'?t\s+know/i.test(
      phrase[1],
    )
  ) {
    insufficiencyPhrase = phrase[1].trim();
  } else if (/\binsufficient\s+documentation\b/i.test(q)) {
    insufficiencyPhrase = DEFAULT_INSUFFICIENCY_PHRASE;
  } else if (
    /\b(?:if|when|where)\s+(?:something|anything|information|it|a\s+part|any\s+part)\s+is\s+(?:missing|not\s+(?:documented|covered|found))\b.*\bsay\s+so\b|\bsay\s+(?:so|explicitly)\s+(?:if|when)\b.*\b(?:missing|not\s+(?:documented|covered))/i.test(
      q,
    )
  ) {
    insufficiencyPhrase = DEFAULT_INSUFFICIENCY_PHRASE;
  }

  return {
    minSearches,
    requiredTopics,
    minOpenCitations,
    exactQuotes: uniqueCaseless(exactQuotes),
    conflictRule,
    requiredSections: findSections(q),
    insufficiencyPhrase,
    source: 'patterns',
  };
}

/** Schema of the model's constraint pass (every field required, so a JSON-schema-constrained model fills all). */
export const modelConstraintsSchema = z.object({
  minSearches: z.number().int().min(0).max(10).describe('Separate searches the user explicitly asks for (0 if none)'),
  requiredTopics: z
    .array(z.string())
    .max(6)
    .describe('Topics the user wants searched separately, words from the question'),
  minOpenCitations: z.number().int().min(0).max(10).describe('Sources the user wants opened/read in full (0 if none)'),
  exactQuotes: z.array(z.string()).max(4).describe('Things the user wants quoted verbatim, e.g. "SQL line"'),
  conflictRule: z
    .enum(['newest', 'oldest', 'flag', 'none'])
    .describe('How the user wants conflicting documents resolved'),
  requiredSections: z.array(z.string()).max(8).describe('Section headings the user requires in the answer'),
  insufficiencyPhrase: z.string().describe('Exact phrase the user wants for missing information, or empty'),
});
export type ModelConstraints = z.infer<typeof modelConstraintsSchema>;

/** Words of `item` all present in the question (the model may only add what the question says). */
function groundedInQuestion(item: string, question: string): boolean {
  const terms = keyTerms(item);
  if (terms.length === 0) return false;
  const have = new Set(keyTerms(question));
  return terms.every((t) => have.has(t));
}

/**
 * Merges a model's constraint reading into the pattern result: minimums only rise, list items are kept only
 * when grounded in the question, the phrase only when the question contains it. Caps keep the run feasible.
 */
export function mergeConstraints(
  base: PromptConstraints,
  model: ModelConstraints,
  question: string,
  limits: Pick<AgentLimits, 'maxToolCalls' | 'maxContextCitations'>,
): PromptConstraints {
  const topics = uniqueCaseless([
    ...base.requiredTopics,
    ...model.requiredTopics.filter((t) => groundedInQuestion(t, question)),
  ]).slice(0, 6);
  const sections = uniqueCaseless([
    ...base.requiredSections,
    ...model.requiredSections.filter((s) => groundedInQuestion(s, question)),
  ]).slice(0, 8);
  const phrase = model.insufficiencyPhrase.trim();
  const merged: PromptConstraints = {
    minSearches: Math.max(base.minSearches, Math.min(model.minSearches, 6), topics.length),
    requiredTopics: topics,
    minOpenCitations: Math.max(base.minOpenCitations, Math.min(model.minOpenCitations, 6)),
    exactQuotes: uniqueCaseless([
      ...base.exactQuotes,
      ...model.exactQuotes.filter((e) => groundedInQuestion(e, question)),
    ]),
    conflictRule: base.conflictRule ?? (model.conflictRule === 'none' ? null : model.conflictRule),
    requiredSections: sections,
    insufficiencyPhrase:
      base.insufficiencyPhrase ??
      (phrase.length > 2 && question.toLowerCase().includes(phrase.toLowerCase()) ? phrase : null),
    source: 'patterns+model',
  };
  return capConstraints(merged, limits);
}

/** Keeps minimums inside the tool budget (searches first, then opens). */
export function capConstraints(
  c: PromptConstraints,
  limits: Pick<AgentLimits, 'maxToolCalls' | 'maxContextCitations'>,
): PromptConstraints {
  const minSearches = Math.min(c.minSearches, Math.max(1, limits.maxToolCalls - 1));
  const minOpenCitations = Math.min(
    c.minOpenCitations,
    limits.maxContextCitations,
    Math.max(0, limits.maxToolCalls - minSearches),
  );
  return { ...c, minSearches, minOpenCitations };
}

/** True when the question asks for anything beyond a plain answer (used to recommend quick mode). */
export function hasDemands(c: PromptConstraints): boolean {
  return (
    c.minSearches > 1 ||
    c.minOpenCitations > 1 ||
    c.requiredTopics.length > 0 ||
    c.exactQuotes.length > 0 ||
    c.conflictRule !== null ||
    c.requiredSections.length > 0 ||
    c.insufficiencyPhrase !== null
  );
}
