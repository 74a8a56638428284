'use client';

import { useEffect, useRef } from 'react';
import { type Range, segmentText } from './highlight';

/**
 * Document text with the cited chunk tinted and the quoted span marked. Text only: document text is hostile and is
 * never parsed as markup. Scrolls the quote (else the chunk) into view when it changes.
 */
export function PassageText({
  text,
  chunk,
  quote,
  className,
}: {
  text: string;
  chunk: Range | null;
  quote: Range | null;
  className?: string;
}) {
  const markRef = useRef<HTMLElement>(null);
  const chunkRef = useRef<HTMLSpanElement>(null);
  const segments = segmentText(text, chunk, quote);
  const key = `${chunk?.start}-${chunk?.end}-${quote?.start}-${quote?.end}-${text.length}`;
  useEffect(() => {
    const target = markRef.current ?? chunkRef.current;
    if (key && target) target.scrollIntoView({ block: 'center' });
  }, [key]);
  let firstQuote = true;
  let firstChunk = true;
  return (
    <div className={className ?? 'whitespace-pre-wrap break-words'}>
      {segments.map((s, i) => {
        const k = `${i}-${s.level}`;
        if (s.level === 2) {
          const ref = firstQuote ? markRef : undefined;
          firstQuote = false;
          return (
            <mark
              key={k}
              ref={ref}
              className="rounded-sm bg-amber-200 px-0.5 text-slate-950 ring-1 ring-amber-300"
              data-testid="quoted-span"
            >
              {s.text}
            </mark>
          );
        }
        if (s.level === 1) {
          const ref = firstChunk ? chunkRef : undefined;
          firstChunk = false;
          return (
            <span key={k} ref={ref} className="bg-brand-50 text-slate-900" data-testid="chunk-span">
              {s.text}
            </span>
          );
        }
        return (
          <span key={k} className={chunk ? 'text-slate-500' : 'text-slate-800'}>
            {s.text}
          </span>
        );
      })}
    </div>
  );
}
