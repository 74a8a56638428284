import { z } from 'zod';
import { authHeaders, type LlmConfig, type LlmProvider, ollamaRootURL, openAiBaseURL } from '@/lib/llm/registry';

/**
 * Whether the LLM server answers and has the configured models. Used by /api/health, the chat banner and the
 * agent (no usable chat model → extractive mode; no embedding model → keyword-only indexing and search).
 */

export type LlmReachabilityStatus = 'ok' | 'models-missing' | 'unreachable';

export interface ModelPresence {
  role: 'decision' | 'synthesis' | 'embedding';
  name: string;
  present: boolean;
}

export interface LlmReachability {
  status: LlmReachabilityStatus;
  provider: LlmProvider;
  /** The URL that was probed, without credentials. */
  url: string;
  /** Decision and synthesis models are both present. */
  canGenerate: boolean;
  /** The embedding model is present. */
  canEmbed: boolean;
  models: ModelPresence[];
  /** Configured model names the server does not list. */
  missing: string[];
  /** Up to 50 model names the server lists (to help fix a typo). */
  available: string[];
  /** Round trip of the probe, null when the server did not answer. */
  latencyMs: number | null;
  /** One readable sentence for the health page and banner. */
  detail: string;
  checkedAt: string;
}

export interface LlmProbeOptions {
  fetch?: typeof globalThis.fetch;
  /** Per-probe timeout. Default 1500 ms. */
  timeoutMs?: number;
  /** How long a result is reused. Default 5000 ms. */
  cacheMs?: number;
  /** Clock, for tests. */
  now?: () => number;
}

export interface LlmProbe {
  /** The cached status, or a fresh probe when the cache is stale (or `force`). Never throws. */
  check(options?: { force?: boolean }): Promise<LlmReachability>;
}

const ollamaTags = z.object({
  models: z.array(z.object({ name: z.string(), model: z.string().optional() })),
});
const openAiModels = z.object({ data: z.array(z.object({ id: z.string() })) });

/** Ollama treats `name` and `name:latest` as the same model. */
function ollamaName(name: string): string {
  const trimmed = name.trim().toLowerCase();
  return trimmed.includes(':') ? trimmed : `${trimmed}:latest`;
}

/** OpenAI-compatible servers: exact id, case-insensitively, or a path-like id ending in the name. */
function openAiMatches(listed: string, wanted: string): boolean {
  const a = listed.trim().toLowerCase();
  const b = wanted.trim().toLowerCase();
  return a === b || a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}

function safeUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return raw;
  }
}

/** The endpoint that lists models: Ollama `GET /api/tags`, OpenAI-compatible `GET <base>/models`. */
export function modelListURL(config: Pick<LlmConfig, 'provider' | 'baseURL'>): string {
  if (config.provider === 'ollama') return `${ollamaRootURL(config.baseURL)}/api/tags`;
  return `${openAiBaseURL(config.baseURL)}/models`;
}

/** Probes the server once (no cache). Never throws: failures come back as status `unreachable`. */
export async function probeLlm(config: LlmConfig, options: LlmProbeOptions = {}): Promise<LlmReachability> {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const timeoutMs = options.timeoutMs ?? 1500;
  const wanted: Omit<ModelPresence, 'present'>[] = [
    { role: 'decision', name: config.decisionModel },
    { role: 'synthesis', name: config.synthesisModel },
    { role: 'embedding', name: config.embeddingModel },
  ];
  let url = '';
  const base = {
    provider: config.provider,
    checkedAt: new Date(now()).toISOString(),
  };
  const started = now();
  try {
    url = modelListURL(config);
    const headers: Record<string, string> = { accept: 'application/json', ...authHeaders(config) };
    const response = await fetchImpl(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    const latencyMs = Math.max(0, now() - started);
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`${response.status} ${response.statusText}`.trim());
    }
    const body: unknown = await response.json();
    let listed: string[];
    let present: (name: string) => boolean;
    if (config.provider === 'ollama') {
      const parsed = ollamaTags.parse(body);
      listed = parsed.models.map((m) => m.name);
      const names = new Set(
        parsed.models.flatMap((m) => [ollamaName(m.name), ...(m.model ? [ollamaName(m.model)] : [])]),
      );
      present = (name) => names.has(ollamaName(name));
    } else {
      listed = openAiModels.parse(body).data.map((m) => m.id);
      present = (name) => listed.some((id) => openAiMatches(id, name));
    }
    const models = wanted.map((m) => ({ ...m, present: present(m.name) }));
    const missing = [...new Set(models.filter((m) => !m.present).map((m) => m.name))];
    const canGenerate = models.every((m) => m.role === 'embedding' || m.present);
    const canEmbed = models.some((m) => m.role === 'embedding' && m.present);
    const hint = config.provider === 'ollama' ? ` (run: ${missing.map((m) => `ollama pull ${m}`).join('; ')})` : '';
    return {
      ...base,
      status: missing.length === 0 ? 'ok' : 'models-missing',
      url: safeUrl(url),
      canGenerate,
      canEmbed,
      models,
      missing,
      available: listed.slice(0, 50),
      latencyMs,
      detail:
        missing.length === 0
          ? `${config.provider} answers with all configured models`
          : `${config.provider} answers but lacks ${missing.join(', ')}${hint}`,
    };
  } catch (error) {
    const reason =
      error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')
        ? `no answer within ${timeoutMs} ms`
        : error instanceof z.ZodError
          ? 'unexpected response (is this the right URL?)'
          : error instanceof Error
            ? (error.cause instanceof Error ? error.cause.message : '') || error.message
            : String(error);
    const shown = safeUrl(url || config.baseURL);
    return {
      ...base,
      status: 'unreachable',
      url: shown,
      canGenerate: false,
      canEmbed: false,
      models: wanted.map((m) => ({ ...m, present: false })),
      missing: [],
      available: [],
      latencyMs: null,
      detail: `${config.provider} at ${shown} is not reachable: ${reason.replaceAll(config.baseURL, shown)}`,
    };
  }
}

/**
 * A probe that reuses its last answer for `cacheMs` and shares one in-flight request between concurrent
 * callers, so a busy health page or many chat requests cost one model-list call every few seconds.
 */
export function createLlmProbe(config: LlmConfig, options: LlmProbeOptions = {}): LlmProbe {
  const now = options.now ?? Date.now;
  const cacheMs = options.cacheMs ?? 5000;
  let last: { at: number; result: LlmReachability } | null = null;
  let inflight: Promise<LlmReachability> | null = null;
  return {
    check({ force = false } = {}) {
      if (!force && last && now() - last.at < cacheMs) return Promise.resolve(last.result);
      inflight ??= probeLlm(config, options).then((result) => {
        last = { at: now(), result };
        inflight = null;
        return result;
      });
      return inflight;
    },
  };
}
