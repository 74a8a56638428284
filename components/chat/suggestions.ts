/** Starter questions for an empty chat, built from the user's own indexed documents (newest first). */
export function suggestionsFor(documents: Array<{ filename: string }>, max = 4): string[] {
  const names = documents.map((d) => d.filename.trim()).filter((n) => n.length > 0 && n.length <= 80);
  const out: string[] = [];
  const [first, second] = names;
  if (first) out.push(`Summarize the main points of ${first}`);
  if (second) out.push(`What does ${second} say about deadlines or dates?`);
  if (first && second) out.push(`Compare ${first} and ${second}`);
  out.push('Which of my documents mention costs or prices? Quote them.');
  out.push('What open questions or risks do my documents raise?');
  return [...new Set(out)].slice(0, max);
}
