import { afterEach, describe, expect, it } from 'vitest';
import { createLlmProbe, modelListURL, probeLlm } from '@/lib/llm/reachability';
import type { LlmConfig } from '@/lib/llm/registry';
import { type FakeServer, sendJson, startFakeServer } from '@/test/support/llm/fake-llm-server';

const timeouts = { planMs: 1000, decisionMs: 1000, synthesisMs: 1000, embedMs: 1000 };

function config(baseURL: string, extra: Partial<LlmConfig> = {}): LlmConfig {
  return {
    provider: 'ollama',
    baseURL,
    decisionModel: 'qwen3:8b',
    synthesisModel: 'qwen3:8b',
    embeddingModel: 'nomic-embed-text',
    numCtx: 16384,
    timeouts,
    ...extra,
  };
}

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

function ollamaTags(names: string[]) {
  return { models: names.map((name) => ({ name, model: name, size: 1, digest: 'x', modified_at: '' })) };
}

describe('modelListURL', () => {
  it('uses /api/tags for Ollama (root or /api base) and /models under the OpenAI base', () => {
    expect(modelListURL({ provider: 'ollama', baseURL: 'http://h:11434' })).toBe('http://h:11434/api/tags');
    expect(modelListURL({ provider: 'ollama', baseURL: 'http://h:11434/api/' })).toBe('http://h:11434/api/tags');
    expect(modelListURL({ provider: 'openai-compatible', baseURL: 'http://h:8000/v1/' })).toBe(
      'http://h:8000/v1/models',
    );
  });
});

describe('probeLlm against Ollama', () => {
  it('ok when every configured model is listed (`name` matches `name:latest`)', async () => {
    server = await startFakeServer((request, response) => {
      if (request.path === '/api/tags') sendJson(response, 200, ollamaTags(['qwen3:8b', 'nomic-embed-text:latest']));
      else sendJson(response, 404, {});
    });
    const status = await probeLlm(config(server.url));
    expect(status).toMatchObject({
      status: 'ok',
      provider: 'ollama',
      url: `${server.url}/api/tags`,
      canGenerate: true,
      canEmbed: true,
      missing: [],
    });
    expect(status.models).toEqual([
      { role: 'decision', name: 'qwen3:8b', present: true },
      { role: 'synthesis', name: 'qwen3:8b', present: true },
      { role: 'embedding', name: 'nomic-embed-text', present: true },
    ]);
    expect(status.latencyMs).toBeGreaterThanOrEqual(0);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /api/tags']);
  });

  it('models-missing names what to pull; a missing chat model means no generation, embedding still works', async () => {
    server = await startFakeServer((_, response) => sendJson(response, 200, ollamaTags(['nomic-embed-text:latest'])));
    const status = await probeLlm(config(server.url));
    expect(status.status).toBe('models-missing');
    expect(status.canGenerate).toBe(false);
    expect(status.canEmbed).toBe(true);
    expect(status.missing).toEqual(['qwen3:8b']);
    expect(status.detail).toContain('ollama pull qwen3:8b');
    expect(status.available).toEqual(['nomic-embed-text:latest']);
  });

  it('does not confuse tags: qwen3:8b is not qwen3:14b', async () => {
    server = await startFakeServer((_, response) =>
      sendJson(response, 200, ollamaTags(['qwen3:14b', 'nomic-embed-text'])),
    );
    const status = await probeLlm(config(server.url));
    expect(status.missing).toEqual(['qwen3:8b']);
    expect(status.canEmbed).toBe(true);
  });

  it('unreachable on a closed port, an HTTP error, a wrong server or a timeout, and never throws', async () => {
    const closed = await probeLlm(config('http://127.0.0.1:9'));
    expect(closed.status).toBe('unreachable');
    expect(closed.canGenerate).toBe(false);
    expect(closed.canEmbed).toBe(false);
    expect(closed.latencyMs).toBeNull();

    server = await startFakeServer((request, response) => {
      if (request.path === '/error/api/tags') sendJson(response, 500, { error: 'boom' });
      else if (request.path === '/html/api/tags') {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<html>not ollama</html>');
      } else if (request.path === '/json/api/tags') sendJson(response, 200, { hello: 'world' });
      // '/slow/api/tags' never answers
    });
    const failed = await probeLlm(config(`${server.url}/error`));
    expect(failed.status).toBe('unreachable');
    expect(failed.detail).toContain('500');
    expect((await probeLlm(config(`${server.url}/html`))).status).toBe('unreachable');
    const wrongShape = await probeLlm(config(`${server.url}/json`));
    expect(wrongShape.status).toBe('unreachable');
    expect(wrongShape.detail).toContain('unexpected response');
    const started = Date.now();
    const slow = await probeLlm(config(`${server.url}/slow`), { timeoutMs: 150 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(slow.status).toBe('unreachable');
    expect(slow.detail).toContain('150 ms');
  });

  it('never throws even when fetch itself throws synchronously', async () => {
    const status = await probeLlm(config('http://127.0.0.1:1'), {
      fetch: () => {
        throw new TypeError('exploded');
      },
    });
    expect(status.status).toBe('unreachable');
    expect(status.detail).toContain('exploded');
  });

  it('does not leak credentials from the URL into the status', async () => {
    const status = await probeLlm(config('http://user:pass@127.0.0.1:9'));
    expect(JSON.stringify(status)).not.toContain('pass');
  });
});

describe('probeLlm against an OpenAI-compatible server', () => {
  it('GET <base>/models with the bearer token; path-like ids match their short name', async () => {
    server = await startFakeServer((request, response) => {
      if (request.path === '/v1/models') {
        sendJson(response, 200, {
          object: 'list',
          data: [
            { id: 'Qwen/Qwen3-8B', object: 'model' },
            { id: 'bge-m3', object: 'model' },
          ],
        });
      } else sendJson(response, 404, {});
    });
    const status = await probeLlm(
      config(`${server.url}/v1`, {
        provider: 'openai-compatible',
        apiKey: 'sk-1',
        decisionModel: 'Qwen3-8B',
        synthesisModel: 'Qwen/Qwen3-8B',
        embeddingModel: 'BAAI/bge-m3',
      }),
    );
    expect(status.status).toBe('ok');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-1');
    expect(server.requests[0]?.path).toBe('/v1/models');
  });

  it('a 401 (wrong key) is unreachable with the status in the detail', async () => {
    server = await startFakeServer((_, response) => sendJson(response, 401, { error: 'bad key' }));
    const status = await probeLlm(config(`${server.url}/v1`, { provider: 'openai-compatible' }));
    expect(status.status).toBe('unreachable');
    expect(status.detail).toContain('401');
  });
});

describe('createLlmProbe (cache)', () => {
  it('reuses a result for cacheMs, shares one in-flight request, and re-probes when stale or forced', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    server = await startFakeServer(async (_, response) => {
      await gate;
      sendJson(response, 200, ollamaTags(['qwen3:8b', 'nomic-embed-text']));
    });
    let clock = 1_000_000;
    const probe = createLlmProbe(config(server.url), { cacheMs: 5000, now: () => clock });
    const first = probe.check();
    const second = probe.check();
    release();
    const [a, b] = await Promise.all([first, second]);
    expect(a).toBe(b);
    expect(server.requests).toHaveLength(1);

    clock += 4000;
    expect(await probe.check()).toBe(a);
    expect(server.requests).toHaveLength(1);

    clock += 2000;
    const stale = await probe.check();
    expect(stale).not.toBe(a);
    expect(server.requests).toHaveLength(2);

    await probe.check({ force: true });
    expect(server.requests).toHaveLength(3);
  });

  it('caches failures too (a dead server is not hammered)', async () => {
    let calls = 0;
    const probe = createLlmProbe(config('http://127.0.0.1:9'), {
      fetch: async () => {
        calls++;
        throw new TypeError('fetch failed');
      },
    });
    expect((await probe.check()).status).toBe('unreachable');
    expect((await probe.check()).status).toBe('unreachable');
    expect(calls).toBe(1);
  });
});
