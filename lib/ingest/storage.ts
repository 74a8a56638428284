import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { getConfig } from '@/lib/config';
import { AppError } from '@/lib/errors';

/**
 * Uploaded files live under the uploads folder with generated names only; the user's file name is display
 * data in the database and never touches the file system.
 */

const STORED_NAME_RE = /^[0-9a-f]{32}$/;

export function uploadsDir(): string {
  return getConfig().uploadsDir;
}

/** The absolute path of a stored file; refuses anything that is not one of our generated names. */
export function storedFilePath(storedName: string): string {
  if (!STORED_NAME_RE.test(storedName)) throw new AppError('bad_request:upload', 'Invalid stored file name.');
  return path.join(uploadsDir(), storedName.slice(0, 2), storedName);
}

export interface StoredUpload {
  storedName: string;
  path: string;
  size: number;
  sha256: string;
}

function storageError(error: unknown): AppError {
  const code =
    typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new AppError('unavailable:upload', 'The server is out of disk space, so the file was not stored.', {
      cause: error,
    });
  }
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return new AppError(
      'unavailable:upload',
      'The server cannot write to its data folder, so the file was not stored.',
      {
        cause: error,
      },
    );
  }
  return new AppError('internal:upload', 'The file could not be stored.', { cause: error });
}

/**
 * Streams a body to a new stored file, counting bytes and hashing as it goes. Stops and removes the partial
 * file as soon as `maxBytes` is exceeded (413) or the stream fails; never buffers the whole file in memory.
 */
export async function saveUploadStream({
  body,
  maxBytes,
  signal,
  tooLarge,
}: {
  body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;
  maxBytes: number;
  signal?: AbortSignal;
  /** The error once more than `maxBytes` arrived (default: 413, larger than the per-file limit). */
  tooLarge?: () => AppError;
}): Promise<StoredUpload> {
  const storedName = crypto.randomBytes(16).toString('hex');
  const file = storedFilePath(storedName);
  try {
    await fsp.mkdir(path.dirname(file), { recursive: true });
  } catch (error) {
    throw storageError(error);
  }
  const hash = crypto.createHash('sha256');
  let size = 0;
  let handle: fsp.FileHandle | undefined;
  try {
    handle = await fsp.open(file, 'wx', 0o600);
    const iterable: AsyncIterable<Uint8Array> =
      Symbol.asyncIterator in body
        ? (body as AsyncIterable<Uint8Array>)
        : readableToIterable(body as ReadableStream<Uint8Array>);
    for await (const chunk of iterable) {
      if (signal?.aborted) throw new AppError('bad_request:upload', 'The upload was cancelled.');
      size += chunk.byteLength;
      if (size > maxBytes) {
        if (tooLarge) throw tooLarge();
        throw new AppError(
          'payload_too_large:upload',
          `The file is larger than the ${formatBytes(maxBytes)} limit per file.`,
          { details: { maxBytes } },
        );
      }
      hash.update(chunk);
      await handle.write(chunk);
    }
    await handle.close();
    handle = undefined;
  } catch (error) {
    await handle?.close().catch(() => {});
    await fsp.rm(file, { force: true }).catch(() => {});
    if (error instanceof AppError) throw error;
    throw storageError(error);
  }
  return { storedName, path: file, size, sha256: hash.digest('hex') };
}

async function* readableToIterable(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value) yield value;
    }
  } finally {
    reader.releaseLock();
  }
}

/** Removes a stored file; missing files are fine (deletes are idempotent). */
export async function deleteStoredFile(storedName: string): Promise<void> {
  await fsp.rm(storedFilePath(storedName), { force: true });
}

export function storedFileExists(storedName: string): boolean {
  return fs.existsSync(storedFilePath(storedName));
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024 / 1024).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${Math.round(bytes / 1024 / 1024)} MB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${bytes} bytes`;
}

/**
 * A user's file name made safe to store and show: Unicode-normalised, control and bidi-override characters
 * removed, path parts dropped, at most 255 characters. Markup stays text (React escapes it when shown).
 */
export function cleanDisplayName(raw: string): string {
  let name = raw.normalize('NFC').replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
  name = name.split(/[\\/]/).filter(Boolean).pop() ?? '';
  name = name.trim().replace(/^\.+$/, '');
  if (name.length > 255) {
    const ext = /\.[A-Za-z0-9]{1,8}$/.exec(name)?.[0] ?? '';
    name = `${name.slice(0, 255 - ext.length - 1)}…${ext}`;
  }
  return name || 'untitled';
}
