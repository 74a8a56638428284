// Mutation testing of the trust gate (lib/agent/gate): `npm run mutate:gate`. Not part of `npm test`.
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'vitest.gate.config.ts', related: false },
  mutate: ['lib/agent/gate/**/*.ts', '!lib/agent/gate/**/*.test.ts'],
  coverageAnalysis: 'perTest',
  // Reruns only mutants whose code or covering tests changed since the last run (reports/ is not committed).
  incremental: true,
  // Static mutants (module-level constants: regexes, word tables) re-run every test per mutant; they are reported
  // as ignored, not counted in the score (docs/benchmarks-agent.md says how many).
  ignoreStatic: true,
  // Regex mutants (hundreds, from the patterns of every written form) would double the run on a shared 2-core
  // machine; the regexes are pinned by the table-driven unit tests instead (see docs/benchmarks-agent.md).
  mutator: { excludedMutations: ['Regex'] },
  incrementalFile: 'reports/mutation/gate-incremental.json',
  concurrency: 2,
  timeoutMS: 30_000,
  reporters: ['clear-text', 'json', 'progress'],
  jsonReporter: { fileName: 'reports/mutation/gate.json' },
  // TypeScript 7 has no JS API for Stryker's tsconfig rewriting; vitest resolves the paths itself.
  tsconfigFile: 'tsconfig.stryker-unused.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
  ignorePatterns: ['.next', 'data', 'playwright-report', 'test-results', 'e2e', 'lib/generated', 'reports'],
};
