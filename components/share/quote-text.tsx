/** A passage with one span highlighted; text only (document text is hostile and never parsed as markup). */
export function QuoteText({ text, start, end }: { text: string; start: number | null; end: number | null }) {
  if (start === null || end === null || start < 0 || end > text.length || start >= end) {
    return <span className="whitespace-pre-wrap">{text}</span>;
  }
  return (
    <span className="whitespace-pre-wrap">
      {text.slice(0, start)}
      <mark className="rounded bg-amber-200/80 px-0.5 text-slate-900" data-testid="quoted-span">
        {text.slice(start, end)}
      </mark>
      {text.slice(end)}
    </span>
  );
}
