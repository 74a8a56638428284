import { keyTerms } from '@/lib/agent/text';

/** The request's topic words as the user wrote them (the words whose analysed form is a key term), in order. */
export function subjectWords(text: string, max = 6): string {
  const terms = new Set(keyTerms(text));
  const seen = new Set<string>();
  const out: string[] = [];
  for (const word of text.match(/[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu) ?? []) {
    const term = keyTerms(word)[0];
    if (!term || !terms.has(term) || seen.has(term)) continue;
    seen.add(term);
    out.push(word);
    if (out.length >= max) break;
  }
  return out.join(' ');
}
