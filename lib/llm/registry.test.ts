import { embedMany, generateText, Output, streamText } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createModelRegistry,
  type LlmConfig,
  ollamaApiBaseURL,
  ollamaOptionsMiddleware,
  ollamaRootURL,
} from '@/lib/llm/registry';
import { type FakeServer, type RecordedRequest, sendJson, startFakeServer } from '@/test/support/llm/fake-llm-server';

const timeouts = { planMs: 1000, decisionMs: 1000, synthesisMs: 1000, embedMs: 1000 };

function ollamaConfig(baseURL: string, extra: Partial<LlmConfig> = {}): LlmConfig {
  return {
    provider: 'ollama',
    baseURL,
    decisionModel: 'qwen3:8b',
    synthesisModel: 'llama3.1:8b',
    embeddingModel: 'nomic-embed-text',
    numCtx: 16384,
    timeouts,
    ...extra,
  };
}

function body(request: RecordedRequest | undefined): Record<string, unknown> {
  const value = request?.body;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected a JSON body');
  return value as Record<string, unknown>;
}

let server: FakeServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** Answers like Ollama 0.x: /api/chat (JSON or NDJSON stream) and /api/embed. */
async function startFakeOllama(reply: (request: RecordedRequest) => string): Promise<FakeServer> {
  return startFakeServer((request, response) => {
    const created_at = new Date(0).toISOString();
    if (request.path === '/api/chat') {
      const b = body(request);
      const text = reply(request);
      if (b.stream === true) {
        response.writeHead(200, { 'content-type': 'application/x-ndjson' });
        for (const piece of text.match(/.{1,4}/gs) ?? []) {
          response.write(
            `${JSON.stringify({ model: b.model, created_at, done: false, message: { role: 'assistant', content: piece } })}\n`,
          );
        }
        response.end(
          `${JSON.stringify({ model: b.model, created_at, done: true, done_reason: 'stop', message: { role: 'assistant', content: '' }, prompt_eval_count: 12, eval_count: 5 })}\n`,
        );
        return;
      }
      sendJson(response, 200, {
        model: b.model,
        created_at,
        done: true,
        done_reason: 'stop',
        message: { role: 'assistant', content: text },
        prompt_eval_count: 12,
        eval_count: 5,
      });
      return;
    }
    if (request.path === '/api/embed') {
      const input = body(request).input;
      const values = Array.isArray(input) ? input : [input];
      sendJson(response, 200, {
        model: body(request).model,
        embeddings: values.map((_, i) => [i, 1, 0.5]),
        total_duration: 1,
        load_duration: 1,
        prompt_eval_count: values.length,
      });
      return;
    }
    sendJson(response, 404, { error: 'not found' });
  });
}

describe('Ollama URLs', () => {
  it('always talks to the /api base and finds the root for /api/tags', () => {
    expect(ollamaApiBaseURL('http://127.0.0.1:11434')).toBe('http://127.0.0.1:11434/api');
    expect(ollamaApiBaseURL('http://127.0.0.1:11434/')).toBe('http://127.0.0.1:11434/api');
    expect(ollamaApiBaseURL('http://127.0.0.1:11434/api')).toBe('http://127.0.0.1:11434/api');
    expect(ollamaApiBaseURL('https://gpu.example/ollama/api/')).toBe('https://gpu.example/ollama/api');
    expect(ollamaRootURL('http://127.0.0.1:11434/api')).toBe('http://127.0.0.1:11434');
    expect(ollamaRootURL('https://gpu.example/ollama')).toBe('https://gpu.example/ollama');
  });
});

describe('createModelRegistry (Ollama, real provider over HTTP)', () => {
  it('structured output: POST /api/chat with num_ctx, think=false, the JSON schema as format, system first', async () => {
    server = await startFakeOllama(() => JSON.stringify({ action: 'search', query: 'invoice totals' }));
    const registry = createModelRegistry(ollamaConfig(server.url));
    const schema = z.object({ action: z.enum(['search', 'final']), query: z.string() });
    const result = await generateText({
      model: registry.decision,
      instructions: 'You are the decision step. Answer with JSON.',
      prompt: 'What were the invoice totals?',
      output: Output.object({ schema }),
    });
    expect(result.output).toEqual({ action: 'search', query: 'invoice totals' });

    expect(server.requests).toHaveLength(1);
    const request = server.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/api/chat');
    const sent = body(request);
    expect(sent.model).toBe('qwen3:8b');
    expect(sent.stream).toBe(false);
    expect(sent.think).toBe(false);
    expect(sent.options).toEqual({ num_ctx: 16384 });
    expect(sent.format).toMatchObject({
      type: 'object',
      properties: { action: { type: 'string', enum: ['search', 'final'] }, query: { type: 'string' } },
      required: ['action', 'query'],
    });
    const messages = sent.messages as Array<{ role: string; content: string }>;
    expect(messages[0]).toEqual({ role: 'system', content: 'You are the decision step. Answer with JSON.' });
    expect(messages[1]?.role).toBe('user');
  });

  it('streaming synthesis: stream=true, num_ctx, maxOutputTokens as num_predict, tokens arrive in order', async () => {
    server = await startFakeOllama(() => 'The total was 1,200 EUR [1].');
    const registry = createModelRegistry(ollamaConfig(server.url, { numCtx: 8192 }));
    const result = streamText({ model: registry.synthesis, prompt: 'Answer.', maxOutputTokens: 300 });
    const parts: string[] = [];
    for await (const delta of result.textStream) parts.push(delta);
    expect(parts.join('')).toBe('The total was 1,200 EUR [1].');
    expect(parts.length).toBeGreaterThan(1);
    const sent = body(server.requests[0]);
    expect(sent.model).toBe('llama3.1:8b');
    expect(sent.stream).toBe(true);
    expect(sent.think).toBe(false);
    expect(sent.options).toEqual({ num_ctx: 8192, num_predict: 300 });
    expect(sent.format).toBeUndefined();
  });

  it("keeps the caller's own Ollama options (and lets an explicit num_ctx win)", async () => {
    server = await startFakeOllama(() => 'ok');
    const registry = createModelRegistry(ollamaConfig(server.url));
    await generateText({
      model: registry.decision,
      prompt: 'x',
      providerOptions: { ollama: { think: true, options: { temperature: 0, num_ctx: 4096 } } },
    });
    const sent = body(server.requests[0]);
    expect(sent.think).toBe(true);
    expect(sent.options).toEqual({ num_ctx: 4096, temperature: 0 });
  });

  it('embeddings: one batched POST /api/embed with every value', async () => {
    server = await startFakeOllama(() => '');
    const registry = createModelRegistry(ollamaConfig(`${server.url}/api/`));
    const { embeddings } = await embedMany({ model: registry.embedding, values: ['alpha', 'beta', 'gamma'] });
    expect(embeddings).toEqual([
      [0, 1, 0.5],
      [1, 1, 0.5],
      [2, 1, 0.5],
    ]);
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /api/embed']);
    expect(body(server.requests[0])).toEqual({ model: 'nomic-embed-text', input: ['alpha', 'beta', 'gamma'] });
  });

  it('sends a bearer token when an API key is configured (Ollama behind a proxy)', async () => {
    server = await startFakeOllama(() => 'ok');
    const registry = createModelRegistry(ollamaConfig(server.url, { apiKey: 'secret-token' }));
    await generateText({ model: registry.decision, prompt: 'x' });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer secret-token');
  });

  it('moves user:pass from the URL into a Basic header (fetch refuses credentialed URLs)', async () => {
    server = await startFakeOllama(() => 'ok');
    const withCredentials = server.url.replace('http://', 'http://alice:s%40cret@');
    const registry = createModelRegistry(ollamaConfig(withCredentials));
    await generateText({ model: registry.decision, prompt: 'x' });
    expect(server.requests[0]?.headers.authorization).toBe(`Basic ${Buffer.from('alice:s@cret').toString('base64')}`);
    expect(registry.names.baseURL).toBe(`${server.url}/api`);
  });

  it('reports names, timeouts and the context size', () => {
    const registry = createModelRegistry(ollamaConfig('http://127.0.0.1:1'));
    expect(registry.names).toEqual({
      provider: 'ollama',
      baseURL: 'http://127.0.0.1:1/api',
      decision: 'qwen3:8b',
      synthesis: 'llama3.1:8b',
      embedding: 'nomic-embed-text',
    });
    expect(registry.timeouts).toEqual(timeouts);
    expect(registry.numCtx).toBe(16384);
    expect(registry.embedding.modelId).toBe('nomic-embed-text');
  });
});

describe('ollamaOptionsMiddleware', () => {
  it('adds num_ctx to calls through any model (checked with the AI SDK mock)', async () => {
    const { wrapLanguageModel } = await import('ai');
    const mock = new MockLanguageModelV4({
      doGenerate: {
        content: [{ type: 'text', text: 'hi' }],
        finishReason: { unified: 'stop', raw: 'stop' },
        usage: {
          inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 1, text: 1, reasoning: 0 },
        },
        warnings: [],
      },
    });
    const model = wrapLanguageModel({ model: mock, middleware: ollamaOptionsMiddleware(32768) });
    await generateText({ model, prompt: 'x', providerOptions: { other: { keep: true } } });
    expect(mock.doGenerateCalls[0]?.providerOptions).toEqual({
      other: { keep: true },
      ollama: { options: { num_ctx: 32768 } },
    });
  });

  it('refuses a nonsensical context size', () => {
    expect(() => ollamaOptionsMiddleware(0)).toThrow();
    expect(() => ollamaOptionsMiddleware(1.5)).toThrow();
  });
});

describe('createModelRegistry (OpenAI-compatible, real provider over HTTP)', () => {
  it('chat with json_schema response_format, embeddings, bearer auth, all under the /v1 base', async () => {
    server = await startFakeServer((request, response) => {
      if (request.path === '/v1/chat/completions') {
        sendJson(response, 200, {
          id: 'c1',
          object: 'chat.completion',
          created: 0,
          model: body(request).model,
          choices: [{ index: 0, message: { role: 'assistant', content: '{"answer":"yes"}' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
        });
        return;
      }
      if (request.path === '/v1/embeddings') {
        const input = body(request).input as string[];
        sendJson(response, 200, {
          object: 'list',
          data: input.map((_, index) => ({ object: 'embedding', index, embedding: [index, 0.25] })),
          model: body(request).model,
          usage: { prompt_tokens: 2, total_tokens: 2 },
        });
        return;
      }
      sendJson(response, 404, {});
    });
    const registry = createModelRegistry({
      provider: 'openai-compatible',
      baseURL: `${server.url}/v1/`,
      apiKey: 'sk-local',
      decisionModel: 'Qwen/Qwen3-8B',
      synthesisModel: 'Qwen/Qwen3-8B',
      embeddingModel: 'BAAI/bge-m3',
      numCtx: 16384,
      timeouts,
    });
    const result = await generateText({
      model: registry.decision,
      prompt: 'Is it?',
      output: Output.object({ schema: z.object({ answer: z.string() }) }),
    });
    expect(result.output).toEqual({ answer: 'yes' });
    const chat = body(server.requests[0]);
    expect(chat.model).toBe('Qwen/Qwen3-8B');
    expect(chat.response_format).toMatchObject({ type: 'json_schema' });
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-local');

    const { embeddings } = await embedMany({ model: registry.embedding, values: ['a', 'b'] });
    expect(embeddings).toEqual([
      [0, 0.25],
      [1, 0.25],
    ]);
    expect(server.requests[1]?.path).toBe('/v1/embeddings');
    expect(body(server.requests[1]).input).toEqual(['a', 'b']);
  });
});
