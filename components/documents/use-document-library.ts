'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { DocumentSummary } from '@/lib/db/documents';
import { describeIndexed, isFinished, mergeDocuments, newlyFinished, plural } from './document-view';
import { useDocumentPolling } from './use-document-polling';

/** What to read out when a poll shows documents that just finished (null: nothing finished). */
export function finishedAnnouncement(
  finished: readonly Pick<DocumentSummary, 'filename' | 'status' | 'error' | 'pageCount' | 'chunkCount' | 'mime'>[],
): string | null {
  if (finished.length === 1 && finished[0]) {
    const d = finished[0];
    return d.status === 'INDEXED'
      ? `${d.filename} is indexed: ${describeIndexed(d)}.`
      : `${d.filename} failed: ${d.error ?? 'unknown reason'}.`;
  }
  if (finished.length > 1) {
    const failed = finished.filter((d) => d.status === 'FAILED').length;
    return `${plural(finished.length, 'document')} finished${failed ? `, ${failed} failed` : ''}.`;
  }
  return null;
}

/**
 * The user's documents as the page shows them: local changes through `applyLocal`, and live processing state
 * polled while anything is unfinished (a poll that started before a local change is dropped).
 */
export function useDocumentLibrary({
  initialDocuments,
  announce,
  onError,
}: {
  initialDocuments: DocumentSummary[];
  announce: (message: string) => void;
  onError: (error: unknown) => void;
}) {
  const [documents, setDocuments] = useState(initialDocuments);

  // Every local change bumps the version, so a poll that started earlier cannot undo it.
  const versionRef = useRef(0);
  const documentsRef = useRef(documents);
  useEffect(() => {
    documentsRef.current = documents;
  });

  const applyLocal = useCallback((change: (list: DocumentSummary[]) => DocumentSummary[]) => {
    versionRef.current += 1;
    setDocuments(change);
  }, []);

  const unfinished = documents.filter((d) => !isFinished(d)).length;
  useDocumentPolling({
    active: unfinished > 0,
    versionRef,
    onDocuments: (next) => {
      const message = finishedAnnouncement(newlyFinished(documentsRef.current, next));
      if (message) announce(message);
      setDocuments((previous) => mergeDocuments(previous, next));
    },
    onError,
  });

  return { documents, applyLocal, unfinished };
}

export type ApplyLocal = ReturnType<typeof useDocumentLibrary>['applyLocal'];
