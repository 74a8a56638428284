import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { EmbeddingModelV4, JSONObject, JSONValue, LanguageModelV4 } from '@ai-sdk/provider';
import { type LanguageModelMiddleware, wrapLanguageModel } from 'ai';
import { createOllama } from 'ollama-ai-provider-v2';

/** Models by role, from Ollama or any OpenAI-compatible server (vLLM, llama.cpp server, LM Studio). */

export type LlmProvider = 'ollama' | 'openai-compatible';

export interface LlmTimeouts {
  planMs: number;
  decisionMs: number;
  synthesisMs: number;
  embedMs: number;
}

/** The plain, already validated LLM configuration (lib/config.ts builds it from the environment). */
export interface LlmConfig {
  provider: LlmProvider;
  /** Ollama: the server root (`http://host:11434`) or its `/api` URL. OpenAI-compatible: the `/v1` base URL. */
  baseURL: string;
  /** Bearer token for OpenAI-compatible servers (and Ollama behind an authenticating proxy). */
  apiKey?: string | undefined;
  decisionModel: string;
  synthesisModel: string;
  embeddingModel: string;
  /** Ollama context window for every chat call (`options.num_ctx`). */
  numCtx: number;
  timeouts: LlmTimeouts;
}

export interface ModelRegistry {
  /** Plans and picks tool calls (structured JSON output). */
  decision: LanguageModelV4;
  /** Writes the streamed answer. */
  synthesis: LanguageModelV4;
  embedding: EmbeddingModelV4;
  names: { provider: LlmProvider; baseURL: string; decision: string; synthesis: string; embedding: string };
  timeouts: LlmTimeouts;
  numCtx: number;
  /** A chat model by name on the same provider (the vision and summary models). */
  chat(name: string): LanguageModelV4;
}

export interface RegistryDeps {
  /** Custom fetch (tests, proxies). */
  fetch?: typeof globalThis.fetch;
}

/**
 * fetch() refuses URLs with `user:pass@`; such credentials (e.g. a basic-auth proxy in front of Ollama) are
 * moved into an Authorization header. Returns the URL without them.
 */
export function splitCredentials(raw: string): { url: string; authorization: string | null } {
  const trimmed = raw.trim();
  let parsed: URL;
  try {
    parsed = new URL(trimmed);
  } catch {
    return { url: trimmed, authorization: null };
  }
  if (!parsed.username && !parsed.password) return { url: trimmed, authorization: null };
  const user = decodeURIComponent(parsed.username);
  const password = decodeURIComponent(parsed.password);
  parsed.username = '';
  parsed.password = '';
  const url = trimmed.endsWith('/') ? parsed.href : parsed.href.replace(/\/$/, '');
  return { url, authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` };
}

/** Headers for the LLM server: a bearer API key wins over URL credentials. */
export function authHeaders(config: Pick<LlmConfig, 'apiKey' | 'baseURL'>): Record<string, string> {
  if (config.apiKey) return { Authorization: `Bearer ${config.apiKey}` };
  const { authorization } = splitCredentials(config.baseURL);
  return authorization ? { Authorization: authorization } : {};
}

/** Ollama's native API lives under `/api`; accepts the server root or the `/api` URL, with or without a slash. */
export function ollamaApiBaseURL(baseURL: string): string {
  const trimmed = splitCredentials(baseURL).url.replace(/\/+$/, '');
  return trimmed.endsWith('/api') ? trimmed : `${trimmed}/api`;
}

/** The OpenAI-compatible base URL (e.g. `http://host:8000/v1`) without credentials or trailing slash. */
export function openAiBaseURL(baseURL: string): string {
  return splitCredentials(baseURL).url.replace(/\/+$/, '');
}

/** The Ollama server root (no `/api`), for endpoints such as `/api/tags`. */
export function ollamaRootURL(baseURL: string): string {
  return ollamaApiBaseURL(baseURL).slice(0, -'/api'.length);
}

function isJsonObject(value: JSONValue | undefined): value is JSONObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Adds Ollama's `options.num_ctx` to every call (Ollama's small default context silently drops the start of a
 * long prompt: the system prompt and tool schemas) and maps `maxOutputTokens` to `options.num_predict`
 * (the provider sends it as a top-level field Ollama's /api/chat ignores). A caller's own values win.
 * Needed because ollama-ai-provider-v2 4.0.1 ignores the settings argument of `chat(id, settings)`.
 */
export function ollamaOptionsMiddleware(numCtx: number): LanguageModelMiddleware {
  if (!Number.isInteger(numCtx) || numCtx <= 0) throw new Error(`numCtx must be a positive integer, got ${numCtx}`);
  return {
    transformParams: async ({ params }) => {
      const providerOptions = params.providerOptions ?? {};
      const existing: JSONObject = providerOptions.ollama ?? {};
      const existingOptions = isJsonObject(existing.options) ? existing.options : {};
      const options: JSONObject = { num_ctx: numCtx };
      if (params.maxOutputTokens !== undefined) options.num_predict = params.maxOutputTokens;
      return {
        ...params,
        providerOptions: { ...providerOptions, ollama: { ...existing, options: { ...options, ...existingOptions } } },
      };
    },
  };
}

/**
 * Builds the decision, synthesis and embedding models for the configured provider. Ollama goes through
 * ollama-ai-provider-v2 (base URL ending in `/api`, `num_ctx` on every call, `think: false` by default);
 * OpenAI-compatible servers through @ai-sdk/openai-compatible with JSON-schema structured outputs.
 * Pure: no network call happens until a model is used.
 */
export function createModelRegistry(config: LlmConfig, deps: RegistryDeps = {}): ModelRegistry {
  const names = {
    provider: config.provider,
    baseURL: openAiBaseURL(config.baseURL),
    decision: config.decisionModel,
    synthesis: config.synthesisModel,
    embedding: config.embeddingModel,
  };
  const timeouts = { ...config.timeouts };
  if (config.provider === 'ollama') {
    const headers = authHeaders(config);
    const provider = createOllama({
      baseURL: ollamaApiBaseURL(config.baseURL),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
    });
    const middleware = ollamaOptionsMiddleware(config.numCtx);
    return {
      decision: wrapLanguageModel({ model: provider.chat(config.decisionModel), middleware }),
      synthesis: wrapLanguageModel({ model: provider.chat(config.synthesisModel), middleware }),
      embedding: provider.embedding(config.embeddingModel),
      names: { ...names, baseURL: ollamaApiBaseURL(config.baseURL) },
      timeouts,
      numCtx: config.numCtx,
      chat: (name) => wrapLanguageModel({ model: provider.chat(name), middleware }),
    };
  }
  const headers = authHeaders(config);
  const provider = createOpenAICompatible({
    name: 'openai-compatible',
    baseURL: openAiBaseURL(config.baseURL),
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    includeUsage: true,
    supportsStructuredOutputs: true,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  });
  return {
    decision: provider.chatModel(config.decisionModel),
    synthesis: provider.chatModel(config.synthesisModel),
    embedding: provider.embeddingModel(config.embeddingModel),
    names,
    timeouts,
    numCtx: config.numCtx,
    chat: (name) => provider.chatModel(name),
  };
}
