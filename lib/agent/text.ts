import { analyze, analyzeWords } from '@/lib/retrieval/analyzer';
import { HAS_UNSPACED_SCRIPT, withoutUnspacedWords } from '@/lib/retrieval/unspaced-scripts';

/** Small, pure text helpers shared by the stages (sentences, key terms, quote normalisation, token estimates). */

export interface Sentence {
  text: string;
  start: number;
  end: number;
}

// Chinese and Japanese full stops, exclamation and question marks (。！？) end a sentence with no space after them.
// A sentence that ends inside a quotation or parenthesis ends after its closing marks (`… attacker@example.com."`),
// unless a citation marker follows them: a quoted answer sentence keeps its marker (`"… per token." [1]`).
const SENTENCE_END = /[.!?](?=\s|$)|[.!?]["”’»)]+(?=\s|$)(?!\s*\[\d)|[。！？]+|\n\s*\n|\n(?=\s*(?:[-*•]|\d+[.)])\s)/g;

/**
 * A short capitalised abbreviation followed by a number ("Ste. 305", "Fig. 3", "Vol. 2", "Art. 5"): the number is
 * what the abbreviation labels, so no sentence ends there. A longer word ("Rome. 300 people") or a number before
 * the stop ("in 2019. 2020 was") still ends one.
 */
export function numberedAbbreviation(before: string, after: string): boolean {
  return /(?:^|[^\p{L}])\p{Lu}\p{Ll}{1,2}\.$/u.test(before) && /^[ \t]+\d/.test(after);
}

/** Splits text into sentences with their offsets; list items and paragraphs end a sentence too. */
export function splitSentences(text: string): Sentence[] {
  const out: Sentence[] = [];
  let start = 0;
  const push = (from: number, to: number) => {
    let a = from;
    let b = to;
    while (a < b && /\s/.test(text.charAt(a))) a++;
    while (b > a && /\s/.test(text.charAt(b - 1))) b--;
    if (b > a) out.push({ text: text.slice(a, b), start: a, end: b });
  };
  for (const match of text.matchAll(SENTENCE_END)) {
    const end = (match.index ?? 0) + (match[0].startsWith('\n') ? 0 : match[0].length);
    // Do not split after a short abbreviation-like token ("e.g.", "No.", "v2.")
    const before = text.slice(Math.max(start, end - 5), end);
    if (/(?:\b[A-Za-z]\.|\be\.g\.|\bi\.e\.|\bvs\.|\bNo\.)$/.test(before)) continue;
    if (numberedAbbreviation(text.slice(Math.max(start, end - 5), end), text.slice(end))) continue;
    push(start, end);
    start = end;
  }
  push(start, text.length);
  return out;
}

/** Words that make a question but say nothing about its topic (already analysed: lower-case, stemmed). */
const QUESTION_NOISE = new Set(
  analyze(
    'list describe explain give tell find show name please document documents according provide summarize summarise ' +
      'answer question mention mentioned say says use using based detail details kind type tool tools search searches ' +
      'separate open_citation citation citations least quote exact verbatim line section sections insufficient documentation ' +
      'newest dated oldest conflict conflicts prefer explicitly produce include write runbook cite sources source two three four five one',
  ),
);

/**
 * The question words and particles of Chinese, Japanese and Thai, as their dictionary segmentation splits them:
 * what English drops as stop words and QUESTION_NOISE ("是多少" how much, "谁" who, "は" topic marker, "ですか").
 */
export const UNSPACED_QUESTION_NOISE: ReadonlySet<string> = new Set(
  (
    '是 的 了 吗 呢 吧 啊 谁 什么 什么时候 哪 哪些 哪个 哪一 哪里 哪儿 多少 几 怎么 怎样 如何 为什么 何时 是否 请 请问 ' +
    'は が を に の で と も か です ます ですか 何 なに なん いつ どこ だれ 誰 どれ どの どんな いくら いくつ どう ' +
    'ใคร อะไร ที่ไหน เมื่อไร เมื่อไหร่ เท่าไร เท่าไหร่ อย่างไร ไหม'
  ).split(' '),
);

/** The analysed topic terms of a question (deduplicated, in order), without question scaffolding words. */
export function keyTerms(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const topic = HAS_UNSPACED_SCRIPT.test(text) ? withoutUnspacedWords(text, UNSPACED_QUESTION_NOISE) : text;
  for (const term of analyzeWords(topic)) {
    if (QUESTION_NOISE.has(term) || seen.has(term)) continue;
    seen.add(term);
    out.push(term);
  }
  return out;
}

/** Share (0-1) of `terms` present among the analysed terms of `text`. */
export function termCoverage(terms: readonly string[], text: string): number {
  if (terms.length === 0) return 0;
  const have = new Set(analyze(text));
  let hit = 0;
  for (const t of terms) if (have.has(t)) hit++;
  return hit / terms.length;
}

/** Normalises text for verbatim comparison: NFKC, curly quotes and dashes folded, whitespace collapsed. */
export function normalizeForQuote(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201A\u201B\u2032`]/g, "'")
    .replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/\u2026/g, '...')
    .replace(/\s+/g, ' ')
    .trim();
}

const WIDE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff01-\uff60]/gu;

/**
 * Length in columns: a Chinese, Japanese or Korean character (and full-width punctuation) takes two, as in a
 * terminal (East Asian Width), so a length floor means about as much text in those scripts as in Latin ones.
 */
export function displayWidth(text: string): number {
  return text.length + (text.match(WIDE)?.length ?? 0);
}

/** Rough token estimate (4 characters per token), enough for budgets. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Truncates at a word boundary and marks the cut. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Citation markers [n] (also [1, 2] and [1][2]) in order of appearance. */
export function citationMarkers(text: string): { n: number; start: number; end: number }[] {
  const out: { n: number; start: number; end: number }[] = [];
  for (const m of text.matchAll(/\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g)) {
    const start = m.index ?? 0;
    for (const part of (m[1] ?? '').split(',')) {
      const n = Number.parseInt(part.trim(), 10);
      if (Number.isFinite(n)) out.push({ n, start, end: start + m[0].length });
    }
  }
  return out;
}

/**
 * The acronyms a question writes ("EU", "SP's", "U.S."), lower case as the analyzer keeps them: two to six capitals,
 * a possessive or dotted form read as the bare letters.
 */
export function askedAcronyms(question: string): string[] {
  const out = new Set<string>();
  for (const m of question.matchAll(/(?<![\p{L}\p{N}.])((?:\p{Lu}\.){2,6}|\p{Lu}{2,6})(?:['’]s)?(?![\p{L}\p{N}])/gu)) {
    out.add((m[1] ?? '').replace(/\./g, '').toLowerCase());
  }
  return [...out];
}

/** Words that may stand inside a name without giving it a letter ("Bank of England", "Food and Drug Administration"). */
const NAME_GLUE = /^(?:of|and|for|the|de|du|des|la|le|von|van|der|&)$/;

/**
 * Which of `acronyms` (lower case) the text spells out as the initials of a run of capitalised words ("European
 * Union" spells "eu", "Scottish Parliament's" "sp", "Bank of England" "be"); glue words inside the run give no letter.
 * The run must be the acronym's words, but for a capitalised word starting it ("The European Union", "In Scottish
 * Parliament"): "European Union Council" spells "euc", not "eu".
 */
export function spelledAcronyms(text: string, acronyms: readonly string[]): string[] {
  if (acronyms.length === 0) return [];
  const want = new Set(acronyms);
  const found = new Set<string>();
  const words = text.match(/[\p{L}&][\p{L}'’-]*/gu) ?? [];
  let run: string[] = [];
  const flush = () => {
    while (run.length > 0 && NAME_GLUE.test(run[run.length - 1] ?? '')) run.pop();
    const initials = run
      .filter((w) => !NAME_GLUE.test(w))
      .map((w) => w.charAt(0).toLowerCase())
      .join('');
    // The run's first word may be a capitalised sentence start ("The European Union", "In Scottish Parliament").
    for (const spelled of [initials, initials.slice(1)])
      if (spelled.length >= 2 && want.has(spelled)) found.add(spelled);
    run = [];
  };
  for (const w of words) {
    if (/^\p{Lu}\p{Ll}/u.test(w)) run.push(w);
    else if (run.length > 0 && NAME_GLUE.test(w)) run.push(w);
    else flush();
  }
  flush();
  return [...found];
}
