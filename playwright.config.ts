import { defineConfig, devices } from '@playwright/test';

// Two production servers from the same build: one with no language model (extractive mode, most specs) and one
// talking to the deterministic fake Ollama server in test/support/llm/fake-ollama.ts (the *.llm.spec.ts files).
const port = Number(process.env.E2E_PORT ?? 3210);
const llmPort = port + 2;
const fakeOllamaPort = Number(process.env.FAKE_OLLAMA_PORT ?? 11999);
const executablePath = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// Real Chromium from the machine (never a downloaded browser), kept off the network.
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1 , EXCLUDE localhost',
    ],
  },
};

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 1,
  // CI runs a failed test once more; npm test's summary still names every test that needed it (scripts/test.mjs)
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: 'list',
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'chromium', testIgnore: '**/*.llm.spec.ts', use: { ...chromium, baseURL: `http://localhost:${port}` } },
    {
      name: 'chromium-llm',
      testMatch: '**/*.llm.spec.ts',
      use: { ...chromium, baseURL: `http://localhost:${llmPort}` },
    },
  ],
  webServer: [
    {
      command: `npx tsx test/support/llm/fake-ollama-server.ts --port ${fakeOllamaPort}`,
      url: `http://127.0.0.1:${fakeOllamaPort}/__health`,
      reuseExistingServer: true,
      timeout: 30_000,
    },
    {
      command: 'node scripts/e2e-server.mjs',
      url: `http://localhost:${port}/api/health`,
      env: { E2E_PORT: String(port) },
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
    {
      command: 'node scripts/e2e-server.mjs',
      url: `http://localhost:${llmPort}/api/health`,
      env: {
        E2E_PORT: String(llmPort),
        E2E_OLLAMA_BASE_URL: `http://127.0.0.1:${fakeOllamaPort}`,
        E2E_VISION_MODEL: 'fake-vl',
      },
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'pipe',
      stderr: 'pipe',
    },
  ],
});
