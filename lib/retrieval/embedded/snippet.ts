import { analyze } from '@/lib/retrieval/analyzer';

const WORD = /[\p{L}\p{N}][\p{L}\p{N}_.,'’-]*/gu;
const SNIPPET_WORDS = 32;
const WORD_CACHE_LIMIT = 200_000;
const wordTerms = new Map<string, readonly string[]>();

/** analyze() of one word, memoised (words repeat across chunks; the analyser is pure). */
function termsOfWord(word: string): readonly string[] {
  let terms = wordTerms.get(word);
  if (terms === undefined) {
    terms = analyze(word);
    if (wordTerms.size >= WORD_CACHE_LIMIT) wordTerms.clear();
    wordTerms.set(word, terms);
  }
  return terms;
}
const MAX_SNIPPET_CHARS = 280;

function clip(text: string, start: number, end: number): string {
  let slice = text.slice(start, end).replace(/\s+/g, ' ').trim();
  let truncated = end < text.length;
  if (slice.length > MAX_SNIPPET_CHARS) {
    const cut = slice.lastIndexOf(' ', MAX_SNIPPET_CHARS);
    slice = slice.slice(0, cut > MAX_SNIPPET_CHARS / 2 ? cut : MAX_SNIPPET_CHARS);
    truncated = true;
  }
  return `${start > 0 ? '…' : ''}${slice}${truncated ? '…' : ''}`;
}

/**
 * A short excerpt of `text` (about 32 words) around the densest cluster of query terms, compared through the
 * analyser (so "mutations" highlights "mutation"). Without any matching term: the beginning of the text.
 */
export function makeSnippet(text: string, queryTerms: ReadonlySet<string>): string {
  const words: { start: number; end: number; hit: string | null }[] = [];
  for (const match of text.matchAll(WORD)) {
    const start = match.index ?? 0;
    let hit: string | null = null;
    if (queryTerms.size > 0) {
      for (const term of termsOfWord(match[0])) {
        if (queryTerms.has(term)) {
          hit = term;
          break;
        }
      }
    }
    words.push({ start, end: start + match[0].length, hit });
  }
  if (words.length === 0) return clip(text, 0, Math.min(text.length, MAX_SNIPPET_CHARS));
  let bestStart = 0;
  let bestScore = -1;
  for (let first = 0; first < words.length; first++) {
    if (first > 0 && words[first]?.hit === null) continue;
    const seen = new Set<string>();
    let hits = 0;
    const last = Math.min(words.length, first + SNIPPET_WORDS);
    for (let i = first; i < last; i++) {
      const hit = words[i]?.hit;
      if (hit) {
        hits++;
        seen.add(hit);
      }
    }
    const score = seen.size * 1000 + hits;
    if (score > bestScore) {
      bestScore = score;
      bestStart = first;
    }
    if (queryTerms.size === 0) break;
  }
  const from = Math.max(0, bestStart - 3);
  const to = Math.min(words.length, from + SNIPPET_WORDS) - 1;
  const startChar = from === 0 ? 0 : (words[from]?.start ?? 0);
  const endChar = to === words.length - 1 ? text.length : (words[to]?.end ?? text.length);
  return clip(text, startChar, endChar);
}
