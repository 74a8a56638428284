/**
 * The fake Ollama server (fake-ollama.ts) as its own process, for Playwright's webServer:
 *
 *   npx tsx test/support/llm/fake-ollama-server.ts [--port 11999]   (or FAKE_OLLAMA_PORT; default 11999)
 *
 * Models listed: FAKE_OLLAMA_MODELS (comma-separated), else LLM_DECISION_MODEL, LLM_SYNTHESIS_MODEL and
 * EMBEDDING_MODEL (defaults qwen3:8b, nomic-embed-text); vector size FAKE_OLLAMA_DIMS, else EMBEDDING_DIMENSIONS
 * (default 768). Tests drive it over HTTP (/__script, /__requests, /__reset, /__fault).
 */
import { startFakeOllama } from './fake-ollama';

const argPort = (() => {
  const i = process.argv.indexOf('--port');
  return i >= 0 ? process.argv[i + 1] : undefined;
})();
const port = Number(argPort ?? process.env.FAKE_OLLAMA_PORT ?? 11999);
const models = (
  process.env.FAKE_OLLAMA_MODELS ??
  [
    process.env.LLM_DECISION_MODEL ?? 'qwen3:8b',
    process.env.LLM_SYNTHESIS_MODEL ?? 'qwen3:8b',
    process.env.EMBEDDING_MODEL ?? 'nomic-embed-text',
  ].join(',')
)
  .split(',')
  .map((m) => m.trim())
  .filter(Boolean);
const embeddingDimensions = Number(process.env.FAKE_OLLAMA_DIMS ?? process.env.EMBEDDING_DIMENSIONS ?? 768);

const fake = await startFakeOllama({ port, models, embeddingDimensions });
process.stdout.write(
  `fake-ollama listening on ${fake.url} (models: ${[...new Set(models)].join(', ')}; ${embeddingDimensions} dims)\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void fake.close().then(() => process.exit(0));
  });
}
