// The server the Playwright suite runs against: the production build on a throwaway data folder.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, run } from './lib.mjs';

const port = process.env.E2E_PORT ?? '3210';
const dataDir = process.env.E2E_DATA_DIR
  ? `${process.env.E2E_DATA_DIR}-${port}`
  : fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-e2e-'));
fs.rmSync(dataDir, { recursive: true, force: true });
fs.mkdirSync(dataDir, { recursive: true });
const env = {
  DATA_DIR: dataDir,
  DATABASE_URL: `file:${path.join(dataDir, 'e2e.db')}`,
  APP_URL: `http://localhost:${port}`,
  NEXT_TELEMETRY_DISABLED: '1',
  NODE_ENV: 'production',
  // By default no LLM answers (extractive mode); the LLM project points this at the fake Ollama server (test/support/llm/fake-ollama-server.ts).
  OLLAMA_BASE_URL: process.env.E2E_OLLAMA_BASE_URL ?? 'http://127.0.0.1:9',
  // The LLM project also configures a vision model (the fake answers vision calls): visual_interpretation is offered.
  ...(process.env.E2E_VISION_MODEL ? { LLM_VISION_MODEL: process.env.E2E_VISION_MODEL } : {}),
  RATE_LIMIT_SIGN_IN_PER_MINUTE: '5',
  // the browser suite plays a reverse proxy on loopback: its X-Forwarded-For gives each test its own address
  TRUSTED_PROXIES: '127.0.0.1,::1',
};
migrate(env);
// As scripts/start.mjs: keep-alive sockets outlive the clients' idle ones (no ECONNRESET on a reused socket).
run('npx', ['next', 'start', '-p', port, '--keepAliveTimeout', '65000'], { env });
