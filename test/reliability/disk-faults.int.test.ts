import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/**
 * Issue 8, disk faults at upload: the disk is full (ENOSPC in the middle of the file) or the data folder is not
 * writable (EACCES / EROFS). The upload route answers 503 with a clear message, leaves no Document row and no
 * partial file. The faults are injected at node:fs/promises (the only way to fill a disk or revoke write access
 * portably and without root); scripts/fault-server.ts repeats the check against a real full tmpfs and a real immutable
 * folder (when run as root).
 */

type Fault = null | 'ENOSPC' | 'EACCES' | 'EROFS';
const state = vi.hoisted(() => ({ fault: null as null | 'ENOSPC' | 'EACCES' | 'EROFS' }));

function errno(code: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: injected by the reliability test`);
  error.code = code;
  return error;
}

vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  const open: typeof actual.open = async (file, flags, mode) => {
    const fault = state.fault;
    if (fault === 'EACCES' || fault === 'EROFS') throw errno(fault);
    const handle = await actual.open(file, flags, mode);
    if (fault !== 'ENOSPC') return handle;
    let written = 0;
    // the first 64 KiB fit, then the disk is full
    const write = (async (buffer: Uint8Array, ...rest: unknown[]) => {
      if (written + buffer.byteLength > 64 * 1024) throw errno('ENOSPC');
      written += buffer.byteLength;
      return (handle.write as (b: Uint8Array, ...r: unknown[]) => Promise<unknown>)(buffer, ...rest);
    }) as typeof handle.write;
    return new Proxy(handle, {
      get(target, prop) {
        if (prop === 'write') return write;
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };
  const mkdir: typeof actual.mkdir = (async (...args: Parameters<typeof actual.mkdir>) => {
    if (state.fault === 'EACCES' || state.fault === 'EROFS') throw errno(state.fault);
    return actual.mkdir(...args);
  }) as typeof actual.mkdir;
  const patched = { ...actual, open, mkdir };
  return { ...patched, default: patched };
});

let cookie = '';
let userId = '';
let uploadsDir = '';

function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

beforeAll(async () => {
  const { getAuth } = await import('@/lib/auth/auth');
  const { getConfig } = await import('@/lib/config');
  const { ensureDbReady } = await import('@/lib/db/client');
  await ensureDbReady();
  const appUrl = getConfig().appUrl;
  uploadsDir = getConfig().uploadsDir;
  const email = `disk-${Date.now()}@example.test`;
  const post = (path: string, body: unknown) =>
    getAuth().handler(
      new Request(`${appUrl}/api/auth${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: appUrl },
        body: JSON.stringify(body),
      }),
    );
  // sign-up opens no session (it answers alike for a taken email): sign in next
  expect((await post('/sign-up/email', { email, password: 'a-long-password-1', name: 'Disk' })).status).toBe(200);
  const response = await post('/sign-in/email', { email, password: 'a-long-password-1' });
  expect(response.status).toBe(200);
  userId = ((await response.json()) as { user: { id: string } }).user.id;
  cookie = response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  expect(cookie).toContain('session_token');
});

afterAll(() => {
  state.fault = null;
});

async function postUpload(bytes: number): Promise<Response> {
  const { POST } = await import('@/app/api/documents/upload/route');
  const { getConfig } = await import('@/lib/config');
  const body = Buffer.alloc(bytes, 'The disk fault test writes plain text. ');
  return POST(
    new Request(`${getConfig().appUrl}/api/documents/upload`, {
      method: 'POST',
      headers: {
        cookie,
        'x-file-name': 'big-notes.txt',
        'content-type': 'text/plain',
        'content-length': String(bytes),
      },
      body,
    }),
    { params: Promise.resolve({}) },
  );
}

describe('disk full or data folder not writable at upload', () => {
  const cases: { fault: Fault; message: RegExp }[] = [
    { fault: 'ENOSPC', message: /out of disk space/ },
    { fault: 'EACCES', message: /cannot write to its data folder/ },
    { fault: 'EROFS', message: /cannot write to its data folder/ },
  ];
  for (const c of cases) {
    it(`${c.fault}: 503 with a clear message, no Document row, no partial file`, async () => {
      const { getDb } = await import('@/lib/db/client');
      const rowsBefore = await getDb().document.count({ where: { ownerId: userId } });
      const filesBefore = listFiles(uploadsDir).length;
      state.fault = c.fault;
      let response: Response;
      try {
        response = await postUpload(2 * 1024 * 1024);
      } finally {
        state.fault = null;
      }
      const body = (await response.json()) as { error: { code: string; message: string } };
      console.log(`[disk-faults] ${c.fault}: ${response.status} ${body.error.code}: ${body.error.message}`);
      expect(response.status).toBe(503);
      expect(body.error.message).toMatch(c.message);
      expect(await getDb().document.count({ where: { ownerId: userId } })).toBe(rowsBefore);
      expect(listFiles(uploadsDir).length).toBe(filesBefore);
    });
  }

  it('control: once the disk is writable again the same upload is stored and queued', async () => {
    const response = await postUpload(2 * 1024 * 1024);
    expect(response.status).toBe(201);
    const { getDb } = await import('@/lib/db/client');
    expect(await getDb().document.count({ where: { ownerId: userId, status: 'PENDING' } })).toBe(1);
  });
});
