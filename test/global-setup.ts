import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    dataDir: string;
  }
}

/**
 * Integration tests run against the database in DATABASE_URL (npm test sets a throwaway SQLite file, then a
 * throwaway PostgreSQL cluster). Without one, a temporary SQLite file is used. Migrations are applied first,
 * through the same offline migrator that `npm start` uses.
 */
export default function setup({ provide }: TestProject): void {
  if (!process.env.DATABASE_URL) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-int-'));
    process.env.DATABASE_URL = `file:${path.join(dir, 'test.db')}`;
    process.env.DATA_DIR ??= dir;
  }
  process.env.DATA_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-int-data-'));
  execFileSync(process.execPath, ['--experimental-wasm-modules', '--no-warnings', 'scripts/migrate.mjs', 'deploy'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: process.env,
    stdio: 'inherit',
  });
  provide('databaseUrl', process.env.DATABASE_URL);
  provide('dataDir', process.env.DATA_DIR);
}
