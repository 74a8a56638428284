import type { DocumentSummary } from '@/lib/db/documents';
import { AppError, errorFromBody } from '@/lib/errors';

export interface ProgressLike {
  loaded: number;
  total: number;
  lengthComputable: boolean;
}

/** The part of XMLHttpRequest an upload uses (so tests can drive a fake one). */
export interface UploadRequest {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: Blob): void;
  abort(): void;
  getResponseHeader(name: string): string | null;
  readonly status: number;
  readonly responseText: string;
  readonly upload: { addEventListener(type: 'progress', listener: (event: ProgressLike) => void): void };
  addEventListener(type: 'load' | 'error' | 'abort' | 'timeout', listener: () => void): void;
}

export type UploadOutcome =
  | { kind: 'uploaded'; document: DocumentSummary }
  | { kind: 'duplicate'; document: DocumentSummary }
  | { kind: 'aborted' };

export interface UploadHandle {
  /** Settles with the outcome, or rejects with an AppError (the server's, or unavailable:upload offline). */
  done: Promise<UploadOutcome>;
  /** Stops the transfer; `done` then resolves `{ kind: 'aborted' }`. */
  abort: () => void;
}

/** The request headers of an upload: the file's type, its URI-encoded name, and the optional bucket. */
export function uploadHeaders(file: { name: string; type: string }, bucketId: string | null): Record<string, string> {
  return {
    accept: 'application/json',
    'content-type': file.type || 'application/octet-stream',
    'x-file-name': encodeURIComponent(file.name),
    ...(bucketId ? { 'x-bucket-id': bucketId } : {}),
  };
}

function isDocument(value: unknown): value is DocumentSummary {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { id?: unknown }).id === 'string' &&
    typeof (value as { filename?: unknown }).filename === 'string'
  );
}

/**
 * Sends one file as the raw body of POST /api/documents/upload with XMLHttpRequest, so byte progress is real
 * (`onProgress(loaded, total)`) and the transfer can be aborted. 201 → uploaded, 200 → duplicate of an existing
 * document; any other status rejects with the AppError rebuilt from the server's error body.
 */
export function uploadFile({
  file,
  bucketId,
  onProgress,
  createRequest = () => new XMLHttpRequest(),
}: {
  file: Blob & { name: string };
  bucketId: string | null;
  onProgress?: (loaded: number, total: number) => void;
  createRequest?: () => UploadRequest;
}): UploadHandle {
  const xhr = createRequest();
  let settled = false;
  const done = new Promise<UploadOutcome>((resolve, reject) => {
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      fn();
    };
    xhr.upload.addEventListener('progress', (event) => {
      const total = event.lengthComputable && event.total > 0 ? event.total : file.size;
      onProgress?.(Math.min(event.loaded, total), total);
    });
    xhr.addEventListener('load', () =>
      finish(() => {
        let body: unknown = null;
        try {
          body = xhr.responseText ? JSON.parse(xhr.responseText) : null;
        } catch {
          body = null;
        }
        if (xhr.status === 200 || xhr.status === 201) {
          const document = (body as { document?: unknown } | null)?.document;
          if (!isDocument(document)) {
            reject(new AppError('internal:upload', 'The server answered the upload in an unexpected way.'));
            return;
          }
          const duplicate = (body as { duplicate?: unknown }).duplicate === true || xhr.status === 200;
          resolve({ kind: duplicate ? 'duplicate' : 'uploaded', document });
          return;
        }
        const error = errorFromBody(body, xhr.status);
        const retryAfter = Number(xhr.getResponseHeader('retry-after'));
        reject(
          Number.isFinite(retryAfter) && retryAfter > 0
            ? new AppError(error.code, error.message, { details: error.details, retryAfter })
            : error,
        );
      }),
    );
    const interrupted = () =>
      finish(() =>
        reject(new AppError('unavailable:upload', 'The upload was interrupted. Check your connection and try again.')),
      );
    xhr.addEventListener('error', interrupted);
    xhr.addEventListener('timeout', interrupted);
    xhr.addEventListener('abort', () => finish(() => resolve({ kind: 'aborted' })));
  });
  xhr.open('POST', '/api/documents/upload');
  for (const [name, value] of Object.entries(uploadHeaders(file, bucketId))) xhr.setRequestHeader(name, value);
  xhr.send(file);
  return {
    done,
    abort: () => {
      if (!settled) xhr.abort();
    },
  };
}

/** True when sending the same file again may succeed (rate limit, outage, network), false for a bad file. */
export function isRetryableUploadError(error: unknown): boolean {
  if (!(error instanceof AppError)) return true;
  return error.type === 'rate_limited' || error.type === 'unavailable' || error.type === 'internal';
}
