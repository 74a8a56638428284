import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors';
import {
  isRetryableUploadError,
  type ProgressLike,
  type UploadRequest,
  uploadFile,
  uploadHeaders,
} from './upload-file';

type Listener = () => void;

class FakeRequest implements UploadRequest {
  method = '';
  url = '';
  headers: Record<string, string> = {};
  sent: Blob | null = null;
  aborted = false;
  status = 0;
  responseText = '';
  responseHeaders: Record<string, string> = {};
  progressListeners: ((event: ProgressLike) => void)[] = [];
  listeners: Record<string, Listener[]> = {};
  upload = {
    addEventListener: (_type: 'progress', listener: (event: ProgressLike) => void) => {
      this.progressListeners.push(listener);
    },
  };
  addEventListener(type: 'load' | 'error' | 'abort' | 'timeout', listener: Listener) {
    this.listeners[type] = [...(this.listeners[type] ?? []), listener];
  }
  fire(type: string) {
    for (const listener of this.listeners[type] ?? []) listener();
  }
  progress(event: ProgressLike) {
    for (const listener of this.progressListeners) listener(event);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: Blob) {
    this.sent = body;
  }
  abort() {
    this.aborted = true;
    this.fire('abort');
  }
  getResponseHeader(name: string) {
    return this.responseHeaders[name] ?? null;
  }
  respond(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
    this.responseHeaders = headers;
    this.fire('load');
  }
}

const hostileName = '<img src=x onerror=alert(1)>\u202e.txt';
const file = Object.assign(new Blob(['hello world']), { name: hostileName });
const documentBody = { id: 'd1', filename: 'x.txt', status: 'PENDING' };

function start() {
  const fake = new FakeRequest();
  const progress: [number, number][] = [];
  const handle = uploadFile({
    file,
    bucketId: null,
    onProgress: (loaded, total) => progress.push([loaded, total]),
    createRequest: () => fake,
  });
  return { fake, progress, handle };
}

describe('uploadFile', () => {
  it('posts the raw file with its encoded name and type headers', () => {
    const { fake } = start();
    expect(fake.method).toBe('POST');
    expect(fake.url).toBe('/api/documents/upload');
    expect(fake.sent).toBe(file);
    expect(fake.headers['x-file-name']).toBe(encodeURIComponent(hostileName));
    expect(decodeURIComponent(fake.headers['x-file-name'] ?? '')).toBe(hostileName);
    expect(fake.headers['content-type']).toBe('application/octet-stream');
    expect(fake.headers['x-bucket-id']).toBeUndefined();
  });

  it('sends the bucket id only when one is chosen', () => {
    expect(uploadHeaders({ name: 'a.pdf', type: 'application/pdf' }, 'b-1')).toMatchObject({
      'content-type': 'application/pdf',
      'x-bucket-id': 'b-1',
    });
  });

  it('reports byte progress, falling back to the file size when the total is unknown', () => {
    const { fake, progress } = start();
    fake.progress({ loaded: 4, total: 11, lengthComputable: true });
    fake.progress({ loaded: 8, total: 0, lengthComputable: false });
    expect(progress).toEqual([
      [4, 11],
      [8, 11],
    ]);
  });

  it('201 is a new document, 200 a duplicate', async () => {
    const first = start();
    first.fake.respond(201, { document: documentBody, duplicate: false });
    await expect(first.handle.done).resolves.toEqual({ kind: 'uploaded', document: documentBody });
    const second = start();
    second.fake.respond(200, { document: documentBody, duplicate: true });
    await expect(second.handle.done).resolves.toEqual({ kind: 'duplicate', document: documentBody });
  });

  it('rebuilds the server error, with Retry-After for rate limits', async () => {
    const { fake, handle } = start();
    fake.respond(
      429,
      { error: { code: 'rate_limited:upload', message: 'Too many uploads. Wait a moment.' } },
      { 'retry-after': '12' },
    );
    const error = await handle.done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'rate_limited:upload',
      message: 'Too many uploads. Wait a moment.',
      retryAfter: 12,
    });
    expect(isRetryableUploadError(error)).toBe(true);
  });

  it('a refused file is not retryable', async () => {
    const { fake, handle } = start();
    fake.respond(415, { error: { code: 'unsupported_media_type:upload', message: '“x” cannot be indexed' } });
    const error = await handle.done.catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'unsupported_media_type:upload' });
    expect(isRetryableUploadError(error)).toBe(false);
  });

  it('a non-JSON error page becomes a generic error, a malformed success an internal one', async () => {
    const a = start();
    a.fake.respond(502, '<html>Bad gateway</html>');
    await expect(a.handle.done).rejects.toMatchObject({ code: 'internal:api' });
    const b = start();
    b.fake.respond(201, { nope: true });
    await expect(b.handle.done).rejects.toMatchObject({ code: 'internal:upload' });
  });

  it('a network failure is unavailable:upload', async () => {
    const { fake, handle } = start();
    fake.fire('error');
    await expect(handle.done).rejects.toMatchObject({ code: 'unavailable:upload' });
  });

  it('abort resolves as aborted, once, and later events are ignored', async () => {
    const { fake, handle } = start();
    handle.abort();
    expect(fake.aborted).toBe(true);
    fake.respond(201, { document: documentBody });
    await expect(handle.done).resolves.toEqual({ kind: 'aborted' });
    fake.aborted = false;
    handle.abort();
    expect(fake.aborted).toBe(false);
  });
});
