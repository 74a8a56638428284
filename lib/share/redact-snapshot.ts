import { citationMarkers, splitSentences } from '@/lib/agent/text';
import type { ShareSnapshot, SnapshotCitation } from '@/lib/share/snapshot';

/**
 * Removes a deleted source's text from a share snapshot (pure, idempotent). The citation keeps its number, file
 * name and location but loses the quote, the chunk text, the snippet and the hash; every sentence of the answer
 * that cites only removed sources is replaced by a note (answers quote their sources, an extractive answer word
 * for word), keeping its [n] marker and any list prefix. Sentences citing a live source as well stay.
 */
export const REMOVED_SENTENCE = '*(Removed: its source was deleted by its owner.)*';

const LIST_PREFIX = /^\s*(?:[-*•+]|\d+[.)])\s+/;

export function redactSnapshot(snapshot: ShareSnapshot, isGone: (c: SnapshotCitation) => boolean): ShareSnapshot {
  const gone = new Set<number>();
  const citations = snapshot.citations.map((c) => {
    if (!c.redacted && !isGone(c)) return c;
    gone.add(c.n);
    return { ...c, quote: null, text: null, snippet: null, sha256: null, redacted: true };
  });
  if (gone.size === 0) return snapshot;
  return { ...snapshot, citations, answer: redactAnswerText(snapshot.answer, gone) };
}

/** The answer with each sentence whose citation markers all point at `gone` numbers replaced by a note. */
export function redactAnswerText(answer: string, gone: ReadonlySet<number>): string {
  let out = '';
  let cursor = 0;
  for (const sentence of splitSentences(answer)) {
    const markers = citationMarkers(sentence.text);
    if (markers.length === 0 || !markers.every((m) => gone.has(m.n))) continue;
    const prefix = LIST_PREFIX.exec(sentence.text)?.[0] ?? '';
    if (sentence.text.slice(prefix.length).startsWith(REMOVED_SENTENCE)) continue;
    const numbers = [...new Set(markers.map((m) => m.n))].sort((a, b) => a - b);
    out += `${answer.slice(cursor, sentence.start)}${prefix}${REMOVED_SENTENCE} [${numbers.join(', ')}]`;
    cursor = sentence.end;
  }
  return out + answer.slice(cursor);
}
