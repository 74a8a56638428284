'use client';

import { useCallback, useState } from 'react';

/** The screen-reader announcement of the documents page, and `announce` to set it. */
export function useAnnouncer(): { announcement: string; announce: (message: string) => void } {
  const [announcement, setAnnouncement] = useState('');
  const announce = useCallback((message: string) => {
    // the same text twice in a row must still be read out
    setAnnouncement((previous) => (previous === message ? `${message}\u00a0` : message));
  }, []);
  return { announcement, announce };
}

/** A polite live region, visually hidden, that reads out what just happened. */
export function Announcer({ message }: { message: string }) {
  return (
    <p aria-live="polite" className="sr-only" data-testid="announcer">
      {message}
    </p>
  );
}
