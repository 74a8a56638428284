import { AppError } from '@/lib/errors';
import { errorResponse } from '@/lib/route-error';

/**
 * Reads a request body into memory, refusing it (413) as soon as it is known to exceed `maxBytes`: first by its
 * declared Content-Length, then by counting the bytes as they stream in (a missing or lying Content-Length
 * changes nothing), cancelling the stream at the first byte past the cap. Never holds more than `maxBytes`.
 */
export async function readBodyBytes(request: Request, { maxBytes }: { maxBytes: number }): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared.trim()) > maxBytes) {
    throw tooLarge(maxBytes);
  }
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw tooLarge(maxBytes);
      }
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('payload_too_large:request', `The request body is larger than ${formatBytes(maxBytes)}.`, {
    details: { maxBytes },
  });
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Wraps a handler that reads the body itself (a library's, e.g. Better Auth's) so that a body over `maxBytes`
 * is refused with 413 before the handler sees it: the body is read here under the cap, then handed on in a
 * copy of the request.
 */
export function withBodyLimit(
  handler: (request: Request) => Promise<Response>,
  maxBytes: () => number,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (BODYLESS_METHODS.has(request.method.toUpperCase())) return handler(request);
    let bytes: Uint8Array;
    try {
      bytes = await readBodyBytes(request, { maxBytes: maxBytes() });
    } catch (error) {
      if (error instanceof AppError) return errorResponse(error);
      throw error;
    }
    const headers = new Headers(request.headers);
    headers.delete('content-length'); // the copy's length is the bytes read, whatever was declared
    return handler(
      new Request(request.url, {
        method: request.method,
        headers,
        body: bytes.byteLength > 0 ? (bytes as Uint8Array<ArrayBuffer>) : null,
        signal: request.signal,
      }),
    );
  };
}
