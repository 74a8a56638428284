import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors';

// The config is read on first use: point it at a private folder before the storage module needs it.
process.env.DATA_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-storage-'));
process.env.BETTER_AUTH_SECRET = 'x'.repeat(40);
const { cleanDisplayName, saveUploadStream, storedFilePath } = await import('@/lib/ingest/storage');

async function* chunks(parts: Uint8Array[]) {
  for (const p of parts) yield p;
}

describe('cleanDisplayName', () => {
  it.each([
    ['../../etc/passwd', 'passwd'],
    ['..\\..\\windows\\system32\\cmd.exe', 'cmd.exe'],
    ['report\u0000\u0007.pdf', 'report.pdf'],
    ['evil\u202Efdp.exe', 'evilfdp.exe'],
    ['<img src=x onerror=alert(1)>.txt', '<img src=x onerror=alert(1)>.txt'],
    ['..', 'untitled'],
    ['', 'untitled'],
  ])('%j → %j', (input, expected) => {
    expect(cleanDisplayName(input)).toBe(expected);
  });

  it('caps very long names and keeps the extension', () => {
    const name = cleanDisplayName(`${'a'.repeat(1000)}.pdf`);
    expect(name.length).toBeLessThanOrEqual(255);
    expect(name.endsWith('.pdf')).toBe(true);
  });
});

describe('saveUploadStream', () => {
  it('stores under a generated name with the right size and sha256', async () => {
    const data = crypto.randomBytes(100_000);
    const stored = await saveUploadStream({
      body: chunks([data.subarray(0, 5), data.subarray(5)]),
      maxBytes: 1_000_000,
    });
    expect(stored.storedName).toMatch(/^[0-9a-f]{32}$/);
    expect(stored.size).toBe(100_000);
    expect(stored.sha256).toBe(crypto.createHash('sha256').update(data).digest('hex'));
    expect(fs.readFileSync(stored.path).equals(data)).toBe(true);
  });

  it('stops at the size cap with 413 and leaves no partial file', async () => {
    const before = countFiles(process.env.DATA_DIR ?? '');
    const big = [crypto.randomBytes(600), crypto.randomBytes(600)];
    await expect(saveUploadStream({ body: chunks(big), maxBytes: 1000 })).rejects.toMatchObject({ status: 413 });
    expect(countFiles(process.env.DATA_DIR ?? '')).toBe(before);
  });

  it('refuses stored names that are not ours', () => {
    for (const bad of ['../x', 'abc', `${'a'.repeat(31)}/`, '/etc/passwd']) {
      expect(() => storedFilePath(bad)).toThrow(AppError);
    }
  });

  it('reports an unwritable data folder clearly', async () => {
    if (process.getuid?.() === 0) return; // root can write anywhere; covered by the reliability suite
    fs.chmodSync(process.env.DATA_DIR ?? '', 0o500);
    try {
      await expect(saveUploadStream({ body: chunks([Buffer.from('x')]), maxBytes: 10 })).rejects.toMatchObject({
        status: 503,
      });
    } finally {
      fs.chmodSync(process.env.DATA_DIR ?? '', 0o700);
    }
  });
});

function countFiles(dir: string): number {
  if (!fs.existsSync(dir)) return 0;
  let n = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (entry.isFile()) n++;
  return n;
}
