import os from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '@': path.resolve(import.meta.dirname) };
/**
 * Under CI a failed test runs once more, so one unlucky timing on a busy machine does not sink the run; npm test's
 * summary still names every test that passed only on its retry (scripts/test.mjs), and those are bugs to fix.
 */
const RETRY = process.env.CI ? 1 : 0;
/**
 * Unit test files run on every core: Vitest's default (cores - 1) leaves one of a 2-core machine's two idle, and the
 * main process only hands out files and their transformed modules (the unit files share no state: each has its own
 * process). Integration files stay one at a time (they share one database and data folder).
 */
const UNIT_WORKERS = Math.max(2, os.availableParallelism());

// unit: fast, no services, beside the code (*.test.ts)
// integration: real SQLite / PostgreSQL / index on disk (*.int.test.ts)
export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'unit',
          include: [
            'lib/**/*.test.ts',
            'app/**/*.test.ts',
            'components/**/*.test.ts',
            'scripts/**/*.test.ts',
            'test/**/*.test.ts',
          ],
          exclude: ['**/*.int.test.ts', 'node_modules/**', '.stryker-tmp/**'],
          environment: 'node',
          testTimeout: 20_000,
          maxWorkers: UNIT_WORKERS,
          retry: RETRY,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'integration',
          include: ['**/*.int.test.ts'],
          exclude: ['node_modules/**', 'e2e/**', '.stryker-tmp/**'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          retry: RETRY,
          fileParallelism: false,
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/setup-env.ts'],
        },
      },
    ],
  },
});
