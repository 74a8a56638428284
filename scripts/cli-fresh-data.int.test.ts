import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';

/**
 * `npm run user` and `npm run ingest` on a data folder no server has touched yet: they migrate it first instead of
 * failing with "table main.user does not exist".
 */

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');

function cli(script: string, args: string[], dataDir: string) {
  const { DATABASE_URL: _unused, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    DATA_DIR: dataDir,
    OLLAMA_BASE_URL: 'http://127.0.0.1:9',
    NODE_ENV: 'production',
  };
  const result = spawnSync(tsx, [path.join(root, 'scripts', script), ...args], {
    cwd: root,
    env,
    encoding: 'utf8',
    timeout: 90_000,
  });
  return { code: result.status, output: `${result.stdout}\n${result.stderr}` };
}

describe('the CLIs on a fresh data folder', () => {
  it('npm run user -- create migrates first, then npm run ingest works for that user', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-fresh-'));
    const corpus = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-corpus-'));
    fs.writeFileSync(path.join(corpus, 'note.txt'), 'Budgets are reviewed every quarter by the finance team.');
    try {
      const created = cli('user.ts', ['create', 'fresh@example.test', '--password', 'a-long-password-1'], dataDir);
      expect(created.output).not.toMatch(/does not exist/);
      expect(created.code, created.output).toBe(0);
      expect(created.output).toMatch(/Created user fresh@example\.test/);
      const ingested = cli('ingest.ts', [corpus, '--user', 'fresh@example.test'], dataDir);
      expect(ingested.code, ingested.output).toBe(0);
      expect(ingested.output).toMatch(/Indexed: 1 files/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(corpus, { recursive: true, force: true });
    }
  });

  it('npm run ingest first on a fresh folder says the user is missing (not a missing table)', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-fresh-'));
    try {
      const result = cli('ingest.ts', [dataDir, '--user', 'nobody@example.test'], dataDir);
      expect(result.output).not.toMatch(/does not exist/);
      expect(result.code, result.output).toBe(2);
      expect(result.output).toMatch(/No user with the email nobody@example\.test/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('npm run ingest after a kill -9 takes over the jobs the killed run left PROCESSING (nothing left unfinished)', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-fresh-'));
    const corpus = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-corpus-'));
    fs.writeFileSync(path.join(corpus, 'a.txt'), 'Invoices are paid within thirty days of delivery.');
    fs.writeFileSync(path.join(corpus, 'b.txt'), 'The warehouse closes for inventory in the last week of June.');
    try {
      expect(cli('user.ts', ['create', 'killed@example.test', '--password', 'a-long-password-1'], dataDir).code).toBe(
        0,
      );
      expect(cli('ingest.ts', [corpus, '--user', 'killed@example.test'], dataDir).code).toBe(0);
      // What a run killed mid-job leaves: a claimed job whose heartbeat stopped moments ago (not yet stale).
      const db = new Database(path.join(dataDir, 'docuchat.db'));
      const heartbeat = new Date(Date.now() - 5_000).toISOString().replace('Z', '+00:00');
      db.prepare(
        "UPDATE Document SET status = 'PROCESSING', lockedBy = 'cli-killed', lockedAt = ?, chunkCount = NULL WHERE filename = 'b.txt'",
      ).run(heartbeat);
      db.close();
      const resumed = cli('ingest.ts', [corpus, '--user', 'killed@example.test'], dataDir);
      expect(resumed.code, resumed.output).toBe(0);
      expect(resumed.output).not.toMatch(/Not finished/);
      expect(resumed.output).toMatch(/Indexed: 2 files/);
      const check = new Database(path.join(dataDir, 'docuchat.db'), { readonly: true });
      const rows = check.prepare('SELECT status FROM Document ORDER BY filename').all() as { status: string }[];
      check.close();
      expect(rows.map((r) => r.status)).toEqual(['INDEXED', 'INDEXED']);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(corpus, { recursive: true, force: true });
    }
  });
});
