// The command-line tools (npm run user, npm run ingest) may be the first thing run on a fresh data folder, before
// any `npm start`: they apply the migrations first, through the same offline migrator `npm start` uses.
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/** Applies pending migrations to the configured database (DATABASE_URL / DATA_DIR); throws with its output. */
export function migrateFirst(): void {
  const result = spawnSync(
    process.execPath,
    ['--experimental-wasm-modules', '--no-warnings', path.join(root, 'scripts', 'migrate.mjs'), 'deploy'],
    { cwd: root, env: process.env, encoding: 'utf8' },
  );
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`Could not migrate the database:\n${result.stderr || result.stdout}`.trim());
  }
  const applied = /applied .*/.exec(result.stdout);
  if (applied) console.error(`[docuchat] migrate: ${applied[0]}`);
}
