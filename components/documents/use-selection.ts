'use client';

import { useCallback, useState } from 'react';

/** A set of selected ids (the list's checkboxes). */
export function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());

  const selectMany = useCallback((ids: Iterable<string>, on: boolean) => {
    setSelected((current) => {
      const next = new Set(current);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  }, []);
  const select = useCallback((id: string, on: boolean) => selectMany([id], on), [selectMany]);
  const clear = useCallback(() => setSelected(new Set()), []);
  /** Forgets one id (a deleted document); keeps the same set when it was not selected. */
  const drop = useCallback((id: string) => {
    setSelected((current) => {
      if (!current.has(id)) return current;
      const next = new Set(current);
      next.delete(id);
      return next;
    });
  }, []);

  return { selected, select, selectMany, clear, drop };
}
