'use client';

import { useEffect, useState } from 'react';

const HIGHLIGHT_MS = 2400;

/** One document row to scroll to and highlight for a moment (e.g. "Show" on a duplicate upload). */
export function useHighlight(): [string | null, (id: string) => void] {
  const [highlight, setHighlight] = useState<string | null>(null);

  useEffect(() => {
    if (!highlight) return;
    const frame = requestAnimationFrame(() => {
      document.getElementById(`document-${highlight}`)?.scrollIntoView({ block: 'center', behavior: 'smooth' });
    });
    const timer = setTimeout(() => setHighlight(null), HIGHLIGHT_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [highlight]);

  return [highlight, setHighlight];
}
