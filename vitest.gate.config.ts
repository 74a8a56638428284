import path from 'node:path';
import { defineConfig } from 'vitest/config';

// The trust gate's unit tests, for mutation testing (`npm run mutate:gate`). The adversarial, path and property
// suites (which run whole agent runs) stay in the normal unit project: they would make every mutant cost seconds.
const alias = { '@': path.resolve(import.meta.dirname) };

export default defineConfig({
  resolve: { alias },
  test: {
    include: ['lib/agent/gate/**/*.test.ts'],
    exclude: ['lib/agent/gate/adversarial.test.ts', 'lib/agent/gate/paths.test.ts', 'lib/agent/gate/property.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
  },
});
