'use client';

import { type RefObject, useEffect, useRef } from 'react';
import { fetchJson } from '@/lib/client/fetch-json';
import type { DocumentSummary } from '@/lib/db/documents';

const INTERVAL_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/**
 * While `active`, fetches GET /api/documents about once a second (one request at a time, paused while the tab
 * is hidden) and hands the list to `onDocuments`. A poll that started before the latest local change
 * (`versionRef` moved on) is dropped, so a deleted or just-uploaded row never flickers back. Failures are
 * reported once per streak and retried with backoff.
 */
export function useDocumentPolling({
  active,
  versionRef,
  onDocuments,
  onError,
}: {
  active: boolean;
  /** Bumped by the caller (synchronously) on every local change to the list. */
  versionRef: RefObject<number>;
  onDocuments: (documents: DocumentSummary[]) => void;
  onError: (error: unknown) => void;
}) {
  const callbacks = useRef({ onDocuments, onError });
  useEffect(() => {
    callbacks.current = { onDocuments, onError };
  });

  useEffect(() => {
    if (!active) return;
    const controller = new AbortController();
    const { signal } = controller;
    let failures = 0;

    (async () => {
      while (!signal.aborted) {
        await sleep(failures === 0 ? INTERVAL_MS : Math.min(MAX_BACKOFF_MS, INTERVAL_MS * 2 ** failures), signal);
        if (signal.aborted) return;
        // A hidden tab skips the request (the loop keeps ticking, so it resumes within a second of showing).
        if (document.hidden) continue;
        const startedAt = versionRef.current;
        try {
          const { documents } = await fetchJson<{ documents: DocumentSummary[] }>('/api/documents', { signal });
          failures = 0;
          if (!signal.aborted && startedAt === versionRef.current) callbacks.current.onDocuments(documents);
        } catch (error) {
          if (signal.aborted) return;
          if (failures === 0) callbacks.current.onError(error);
          failures += 1;
        }
      }
    })();

    return () => controller.abort();
  }, [active, versionRef]);
}
