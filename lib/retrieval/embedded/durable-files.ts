import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { type FileHandle, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Crash-safe file writes: the bytes go to a temporary name, are fsynced, then renamed over the target and the
 * folder is fsynced. A kill at any point leaves either the old file or the new one, never a torn one (a leftover
 * temporary file is ignored and cleaned up later).
 */
export async function writeDurable(target: string, bytes: Uint8Array | readonly Uint8Array[]): Promise<void> {
  const temporary = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  const handle = await open(temporary, 'w');
  try {
    if (bytes instanceof Uint8Array) await handle.writeFile(bytes);
    // Many parts (a segment's chunk records) are written as they are, never concatenated on the main thread
    // first: copying 100 MB of records into one buffer held the event loop for ~0.4 s.
    else for (let i = 0; i < bytes.length; i += WRITEV_PARTS) await writeAll(handle, bytes.slice(i, i + WRITEV_PARTS));
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await syncFolderAsync(path.dirname(target));
}

/** syncFolder off the event loop (the fsync runs on libuv's thread pool, so parsing and other writes go on). */
async function syncFolderAsync(folder: string): Promise<void> {
  let handle: FileHandle | null = null;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Some filesystems refuse to fsync a folder; the rename is still atomic there.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Buffers per writev call (the system's IOV_MAX is at least 1024). */
const WRITEV_PARTS = 512;

async function writeAll(handle: FileHandle, parts: readonly Uint8Array[]): Promise<void> {
  let pending = parts.filter((part) => part.byteLength > 0);
  while (pending.length > 0) {
    let { bytesWritten } = await handle.writev(pending as Uint8Array[]);
    // A short write: drop what was written and continue with the rest.
    let skip = 0;
    while (skip < pending.length && bytesWritten >= (pending[skip] as Uint8Array).byteLength) {
      bytesWritten -= (pending[skip] as Uint8Array).byteLength;
      skip++;
    }
    pending = pending.slice(skip);
    if (bytesWritten > 0 && pending.length > 0) {
      const first = pending[0] as Uint8Array;
      pending = [first.subarray(bytesWritten), ...pending.slice(1)];
    }
  }
}

export function syncFolder(folder: string): void {
  let fd: number | null = null;
  try {
    fd = openSync(folder, 'r');
    fsyncSync(fd);
  } catch {
    // Some filesystems refuse to fsync a folder; the rename is still atomic there.
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export function isTemporary(name: string): boolean {
  return name.includes('.tmp-');
}

/** Whether a process with this id runs (a lock holder that is gone was killed). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A lock file holds its process id from a moment after it is created (open with O_EXCL, then write). One that still
 * holds no id this long after it was last modified was left by a process killed between the two: taken over.
 */
const UNWRITTEN_LOCK_MS = 2_000;

/** Milliseconds since the lock file was last modified (0 when it is gone or cannot be read). */
function unwrittenFor(lockPath: string): number {
  try {
    return Date.now() - statSync(lockPath).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * An exclusive lock file between processes writing the same owner (the app and the bulk ingester).
 * Created with O_EXCL; a lock whose process is gone (kill -9, even between creating the file and writing its id)
 * is taken over.
 */
export async function withFileLock<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      let holder = Number.NaN;
      try {
        holder = Number(readFileSync(lockPath, 'utf8'));
      } catch {
        continue;
      }
      if (
        (Number.isInteger(holder) && holder > 0 && !processAlive(holder)) ||
        (!(Number.isInteger(holder) && holder > 0) && unwrittenFor(lockPath) > UNWRITTEN_LOCK_MS)
      ) {
        try {
          unlinkSync(lockPath);
        } catch {
          // Another process took it over first.
        }
        continue;
      }
      if (Date.now() - started > 120_000) throw new Error(`lock ${lockPath} held by process ${holder} for 120 s`);
      await new Promise((resolve) => setTimeout(resolve, Math.min(200, 5 * (attempt + 1))));
    }
  }
  try {
    return await work();
  } finally {
    try {
      unlinkSync(lockPath);
    } catch {
      // Already gone.
    }
  }
}
