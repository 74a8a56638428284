import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The trust gate's own tests, for mutation testing (`npm run mutate:gate`): unit, adversarial, paths, property.
const alias = { '@': path.resolve(import.meta.dirname) };

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['lib/agent/gate/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
