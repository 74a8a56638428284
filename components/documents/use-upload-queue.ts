'use client';

import { useCallback, useEffect, useRef, useState } from 'react';
import type { DocumentSummary } from '@/lib/db/documents';
import { AppError } from '@/lib/errors';
import { formatBytes, MAX_UPLOAD_BYTES } from './document-view';
import { isRetryableUploadError, type UploadHandle, uploadFile } from './upload-file';

/** How many files travel at once; the rest wait their turn in order. */
const CONCURRENT_UPLOADS = 3;

export type UploadState = 'waiting' | 'uploading' | 'failed' | 'duplicate';

export interface UploadItem {
  id: string;
  file: File;
  bucketId: string | null;
  state: UploadState;
  loaded: number;
  total: number;
  /** Set when failed: the reason to show, and whether sending it again can help. */
  error?: { message: string; retryable: boolean };
  /** Set when the server already had this content. */
  duplicateOf?: DocumentSummary;
}

/**
 * The browser side of uploading many files: a queue sending up to three at a time with real byte progress,
 * cancel (abort in flight, or drop while waiting), retry, and dismissal. A finished upload leaves the queue
 * and is handed to `onUploaded`; a duplicate stays as an info row; a failure stays with its reason.
 */
export function useUploadQueue({
  onUploaded,
  onDuplicate,
}: {
  onUploaded: (document: DocumentSummary, file: File) => void;
  onDuplicate?: (existing: DocumentSummary, file: File) => void;
}) {
  const [items, setItems] = useState<UploadItem[]>([]);
  const handles = useRef(new Map<string, UploadHandle>());
  const started = useRef(new Set<string>());
  const callbacks = useRef({ onUploaded, onDuplicate });
  useEffect(() => {
    callbacks.current = { onUploaded, onDuplicate };
  });

  const update = useCallback((id: string, patch: Partial<UploadItem>) => {
    setItems((list) => list.map((item) => (item.id === id ? { ...item, ...patch } : item)));
  }, []);

  const remove = useCallback((id: string) => {
    setItems((list) => list.filter((item) => item.id !== id));
  }, []);

  const begin = useCallback(
    (item: UploadItem) => {
      const handle = uploadFile({
        file: item.file,
        bucketId: item.bucketId,
        onProgress: (loaded, total) => update(item.id, { loaded, total }),
      });
      handles.current.set(item.id, handle);
      handle.done
        .then((outcome) => {
          if (outcome.kind === 'aborted') {
            remove(item.id);
          } else if (outcome.kind === 'duplicate') {
            update(item.id, { state: 'duplicate', duplicateOf: outcome.document, loaded: item.file.size });
            callbacks.current.onDuplicate?.(outcome.document, item.file);
          } else {
            remove(item.id);
            callbacks.current.onUploaded(outcome.document, item.file);
          }
        })
        .catch((error: unknown) => {
          const message =
            error instanceof AppError ? error.message : 'The upload failed for an unknown reason. Please try again.';
          update(item.id, { state: 'failed', error: { message, retryable: isRetryableUploadError(error) } });
        })
        .finally(() => {
          handles.current.delete(item.id);
          started.current.delete(item.id);
        });
    },
    [remove, update],
  );

  // The pump: whenever the queue changes, start waiting uploads while fewer than the limit are in flight.
  useEffect(() => {
    const inFlight = items.filter((item) => item.state === 'uploading').length;
    const free = CONCURRENT_UPLOADS - inFlight;
    if (free <= 0) return;
    const next = items.filter((item) => item.state === 'waiting' && !started.current.has(item.id)).slice(0, free);
    if (next.length === 0) return;
    for (const item of next) started.current.add(item.id);
    setItems((list) =>
      list.map((item) => (next.some((n) => n.id === item.id) ? { ...item, state: 'uploading', loaded: 0 } : item)),
    );
    for (const item of next) begin(item);
  }, [items, begin]);

  // Leaving the page aborts transfers still running (the server discards partial files).
  useEffect(() => {
    const map = handles.current;
    return () => {
      for (const handle of map.values()) handle.abort();
    };
  }, []);

  /** Queues files for upload into `bucketId`; files over the size limit fail at once without being sent. */
  const enqueue = useCallback((files: readonly File[], bucketId: string | null) => {
    const added: UploadItem[] = files.map((file) => {
      const base = { id: crypto.randomUUID(), file, bucketId, loaded: 0, total: file.size };
      if (file.size > MAX_UPLOAD_BYTES) {
        return {
          ...base,
          state: 'failed' as const,
          error: {
            message: `This file is ${formatBytes(file.size)}; the limit is ${formatBytes(MAX_UPLOAD_BYTES)} per file.`,
            retryable: false,
          },
        };
      }
      return { ...base, state: 'waiting' as const };
    });
    setItems((list) => [...added, ...list]);
  }, []);

  /** Stops an upload: aborts it in flight, or drops it from the queue. */
  const cancel = useCallback(
    (id: string) => {
      const handle = handles.current.get(id);
      if (handle) handle.abort();
      else remove(id);
    },
    [remove],
  );

  /** Sends a failed upload again. */
  const retry = useCallback((id: string) => {
    setItems((list) =>
      list.map((item) => {
        if (item.id !== id || item.state !== 'failed') return item;
        const { error: _error, ...rest } = item;
        return { ...rest, state: 'waiting', loaded: 0 };
      }),
    );
  }, []);

  /** Removes every finished row (failures and duplicates), keeping waiting and running uploads. */
  const clearFinished = useCallback(() => {
    setItems((list) => list.filter((item) => item.state === 'waiting' || item.state === 'uploading'));
  }, []);

  return { items, enqueue, cancel, retry, dismiss: remove, clearFinished };
}
