import path from 'node:path';
import { defineConfig } from 'vitest/config';

const alias = { '@': path.resolve(import.meta.dirname) };

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
          fileParallelism: false,
          globalSetup: ['test/global-setup.ts'],
          setupFiles: ['test/setup-env.ts'],
        },
      },
    ],
  },
});
