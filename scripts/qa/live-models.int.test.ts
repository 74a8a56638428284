import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgent } from '@/lib/agent/run-agent';
import { buildFixture, OWNER } from '@/test/support/agent/fixtures';
import { type FakeOllama, startFakeOllama } from '@/test/support/llm/fake-ollama';
import { liveModels } from './live-models';

/** The `eval:agent -- --live` model path against the fake Ollama: probe, metered calls and tokens, embeddings. */
describe('live eval models', () => {
  let fake: FakeOllama;
  beforeAll(async () => {
    fake = await startFakeOllama({ port: 0 });
  });
  afterAll(async () => {
    await fake.close();
  });

  it('runs the agent through the configured server and counts model calls and tokens', async () => {
    const live = await liveModels({ LLM_PROVIDER: 'ollama', OLLAMA_BASE_URL: fake.url });
    expect(live.models.names.decision).toBe('qwen3:8b');
    const { index, catalog, chunks } = await buildFixture();
    const embedded = [chunks.rateLimits];
    await live.embedChunks(embedded);
    expect(embedded[0]?.vector?.length).toBe(768);
    const result = await runAgent(
      { question: 'What are the API rate limits per token?', ownerId: OWNER, mode: 'agent', style: 'concise' },
      { index, catalog, embedder: live.queryEmbedder, models: live.models },
    );
    expect(result.models.extractive).toBe(false);
    expect(live.meter.calls).toBeGreaterThan(0);
    expect(live.meter.inputTokens + live.meter.outputTokens).toBeGreaterThan(0);
    expect(fake.counts.chat).toBe(live.meter.calls);
  });

  it('refuses to run live without a reachable chat model', async () => {
    await expect(liveModels({ LLM_PROVIDER: 'ollama', OLLAMA_BASE_URL: 'http://127.0.0.1:9' })).rejects.toThrow(
      /--live needs a reachable chat model/,
    );
  });
});
