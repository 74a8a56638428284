import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { parseTrustedProxies } from '@/lib/net/client-ip';

/**
 * The one place that reads the environment. Every variable is optional: with none set the app runs on its
 * embedded defaults (SQLite, the embedded chunk index, local files, Ollama on localhost if it answers).
 */

const intFrom = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);
const optionalUrl = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .pipe(z.url().optional())
  .optional();

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATA_DIR: z.string().default('data'),
  DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .refine((v) => v === undefined || v === '' || /^(file:|postgres(ql)?:\/\/)/.test(v), {
      message: 'DATABASE_URL must start with file: or postgresql://',
    }),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  /** Unset: `http://localhost:$PORT`, so `PORT=3920 npm start` needs nothing else. */
  APP_URL: z
    .string()
    .trim()
    .transform((v) => (v === '' ? undefined : v))
    .pipe(z.url().optional())
    .optional(),
  BETTER_AUTH_SECRET: z.string().min(32).optional(),
  TRUSTED_ORIGINS: z.string().default(''),
  /** Comma-separated IPs/CIDRs of reverse proxies whose forwarding headers are believed; empty: none. */
  TRUSTED_PROXIES: z.string().default(''),

  /** Memory bound (MB) for loaded owners' keyword indexes in the embedded chunk index (LRU owners unloaded). */
  INDEX_MEMORY_BUDGET_MB: intFrom(1024, 16),
  /**
   * Worker threads scoring keyword queries of large owners in the embedded chunk index (they share the loaded
   * segments' memory). Unset: the number of CPUs; 0 or 1: every query is scored on the main thread.
   */
  KEYWORD_SEARCH_THREADS: z.coerce.number().int().min(0).max(64).optional(),
  /** Keyword queries whose term lists hold fewer postings stay on the main thread (unset: keyword-pool.ts default). */
  KEYWORD_POOL_MIN_POSTINGS: z.coerce.number().int().min(0).optional(),

  QDRANT_URL: optionalUrl,
  QDRANT_API_KEY: z.string().optional(),
  QDRANT_COLLECTION_PREFIX: z.string().default('docuchat'),
  QDRANT_SHARDS: z.coerce.number().int().min(1).optional(),
  QDRANT_REPLICATION_FACTOR: z.coerce.number().int().min(1).optional(),
  QDRANT_WRITE_CONSISTENCY_FACTOR: z.coerce.number().int().min(1).optional(),
  QDRANT_TENANT_IDF: z.enum(['true', 'false']).default('true'),

  LLM_PROVIDER: z.enum(['ollama', 'openai-compatible']).default('ollama'),
  OLLAMA_BASE_URL: z.url().default('http://127.0.0.1:11434'),
  OPENAI_COMPATIBLE_BASE_URL: optionalUrl,
  OPENAI_COMPATIBLE_API_KEY: z.string().optional(),
  LLM_DECISION_MODEL: z.string().min(1).default('qwen3:8b'),
  LLM_SYNTHESIS_MODEL: z.string().min(1).default('qwen3:8b'),
  EMBEDDING_MODEL: z.string().min(1).default('nomic-embed-text'),
  EMBEDDING_DIMENSIONS: intFrom(768, 1),
  LLM_NUM_CTX: intFrom(16384, 2048),
  LLM_PLAN_TIMEOUT_MS: intFrom(60_000, 100),
  LLM_DECISION_TIMEOUT_MS: intFrom(60_000, 100),
  LLM_SYNTHESIS_TIMEOUT_MS: intFrom(180_000, 100),
  EMBED_TIMEOUT_MS: intFrom(60_000, 100),
  /** A vision-capable chat model (e.g. qwen2.5vl:7b); unset = no visual_interpretation tool. */
  LLM_VISION_MODEL: z.string().min(1).optional(),
  LLM_VISION_TIMEOUT_MS: intFrom(90_000, 100),
  /** Longest side, in pixels, of a page image sent to the vision model. */
  VISION_MAX_IMAGE_PX: intFrom(1024, 128),
  /** A chat model that writes section summaries at ingest; unset = extractive summaries. */
  LLM_SUMMARY_MODEL: z.string().min(1).optional(),

  UPLOAD_MAX_BYTES: intFrom(100 * 1024 * 1024, 1),
  REQUEST_JSON_MAX_BYTES: intFrom(64 * 1024, 1024),
  REQUEST_AGENT_MAX_BYTES: intFrom(256 * 1024, 1024),
  REQUEST_AUTH_MAX_BYTES: intFrom(16 * 1024, 1024),
  INGEST_CONCURRENCY: intFrom(2, 1),
  INGEST_OWNER_CONCURRENCY: intFrom(1, 1),
  QUOTA_MAX_BYTES: intFrom(5 * 1024 * 1024 * 1024, 1),
  QUOTA_MAX_DOCUMENTS: intFrom(10_000, 1),
  PARSE_TIMEOUT_MS: intFrom(120_000, 1000),
  PARSE_MAX_MEMORY_MB: intFrom(1024, 64),
  /** Tesseract languages for OCR, joined by "+" (each needs its @tesseract.js-data package installed). */
  OCR_LANGUAGES: z
    .string()
    .trim()
    .regex(/^[a-z]{3}(_[a-z]+)?(\+[a-z]{3}(_[a-z]+)?)*$/, 'language codes joined by "+", e.g. eng+fra')
    .default('eng'),
  /**
   * Languages tried one at a time on a page that OCR read with low confidence in OCR_LANGUAGES (a page in another
   * script); codes without an installed @tesseract.js-data package are skipped; "" turns the fallback off.
   */
  OCR_FALLBACK_LANGUAGES: z
    .string()
    .trim()
    .regex(/^([a-z]{3}(_[a-z]+)?(\+[a-z]{3}(_[a-z]+)?)*)?$/, 'language codes joined by "+", e.g. chi_sim+fra')
    .default('chi_sim'),
  /** Most scanned pages OCR reads per document; 0 turns OCR off. */
  OCR_MAX_PAGES: intFrom(40, 0),

  AGENT_MAX_TOOL_CALLS: intFrom(5, 1),
  AGENT_MAX_ITERATIONS: intFrom(10, 1),
  AGENT_MAX_REPROMPTS: intFrom(3, 0),
  AGENT_WALL_CLOCK_MS: intFrom(300_000, 1000),

  RATE_LIMIT_SIGN_IN_PER_MINUTE: intFrom(5, 1),
  RATE_LIMIT_SIGN_UP_PER_MINUTE: intFrom(5, 1),
  SIGN_IN_ACCOUNT_FREE_ATTEMPTS: intFrom(5, 1),
  SIGN_IN_ACCOUNT_MAX_DELAY_SECONDS: intFrom(900, 1),
  RATE_LIMIT_UPLOADS_PER_MINUTE: intFrom(120, 1),
  RATE_LIMIT_AGENT_RUNS_PER_MINUTE: intFrom(30, 1),
  RATE_LIMIT_API_KEY_PER_MINUTE: intFrom(300, 1),
  RATE_LIMIT_API_USER_PER_MINUTE: intFrom(600, 1),
});

export type Env = z.infer<typeof envSchema>;

export interface AppConfig {
  env: Env['NODE_ENV'];
  rootDir: string;
  dataDir: string;
  uploadsDir: string;
  indexDir: string;
  /** Memory budget of the embedded index's loaded keyword partitions, in MB. */
  indexMemoryBudgetMb: number;
  /** Keyword search worker threads of the embedded index (undefined: one per CPU; 0/1: none). */
  keywordSearchThreads: number | undefined;
  /** Smallest keyword query (postings in its term lists) sent to the workers (undefined: the pool's default). */
  keywordPoolMinPostings: number | undefined;
  database: { url: string; provider: 'sqlite' | 'postgresql' };
  port: number;
  appUrl: string;
  secureCookies: boolean;
  authSecret: string;
  trustedOrigins: string[];
  /** Raw TRUSTED_PROXIES entries (validated by lib/auth/client-ip.ts). */
  trustedProxies: string[];
  qdrant: {
    url: string;
    apiKey: string | undefined;
    collectionPrefix: string;
    shards: number | undefined;
    replicationFactor: number | undefined;
    writeConsistencyFactor: number | undefined;
    tenantIdf: boolean;
  } | null;
  llm: {
    provider: Env['LLM_PROVIDER'];
    baseURL: string;
    apiKey: string | undefined;
    decisionModel: string;
    synthesisModel: string;
    embeddingModel: string;
    embeddingDimensions: number;
    numCtx: number;
    timeouts: { planMs: number; decisionMs: number; synthesisMs: number; embedMs: number };
    /** The vision model for visual_interpretation, or null when none is configured. */
    vision: { model: string; timeoutMs: number; maxImagePx: number } | null;
    /** The model that writes section summaries at ingest, or null (extractive summaries). */
    summaryModel: string | null;
  };
  /**
   * `concurrency`: jobs one worker (app instance) runs at once; `ownerConcurrency`: jobs one owner may run while
   * another owner waits; past it an owner only gets a slot when one more stays free (see lib/ingest/jobs.ts).
   */
  ingest: {
    maxUploadBytes: number;
    concurrency: number;
    ownerConcurrency: number;
    parseTimeoutMs: number;
    parseMaxMemoryMb: number;
    ocr: { enabled: boolean; languages: string[]; fallbackLanguages: string[]; maxPages: number };
  };
  /** Per-user storage: bytes of stored files and number of documents (uploads past either are refused). */
  quota: { maxBytes: number; maxDocuments: number };
  /**
   * Caps on request bodies other than uploads, in bytes; a larger body is refused (413) before it is buffered.
   * `json`: ordinary JSON bodies (renames, metadata, shares); `agent`: a question with its options (chat and the
   * agent API: a 20,000-character question may take 4 bytes a character, or 6 escaped); `auth`: the signed-out
   * Better Auth routes (sign-up, sign-in).
   */
  requestLimits: { jsonBytes: number; agentBytes: number; authBytes: number };
  agent: { maxToolCalls: number; maxIterations: number; maxReprompts: number; wallClockMs: number };
  rateLimits: {
    signInPerMinute: number;
    signUpPerMinute: number;
    /** Per-account sign-in attempts before exponential backoff (lib/auth/account-throttle.ts). */
    signInFreeAttemptsPerAccount: number;
    signInMaxDelaySeconds: number;
    uploadsPerMinute: number;
    agentRunsPerMinute: number;
    /** Requests per minute for one API key, and for all of one user's keys together. */
    apiKeyPerMinute: number;
    apiUserPerMinute: number;
  };
}

/** Reads and validates an environment into the app's configuration (pure apart from the secret file). */
export function parseConfig(source: Record<string, string | undefined>, rootDir = process.cwd()): AppConfig {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  const trustedProxies = e.TRUSTED_PROXIES.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    parseTrustedProxies(trustedProxies);
  } catch (error) {
    throw new Error(`Invalid configuration:\n  ${error instanceof Error ? error.message : String(error)}`);
  }
  const dataDir = path.resolve(rootDir, e.DATA_DIR);
  const dbUrl = e.DATABASE_URL ? e.DATABASE_URL : `file:${path.join(dataDir, 'docuchat.db')}`;
  const provider = /^postgres(ql)?:/.test(dbUrl) ? 'postgresql' : 'sqlite';
  const appUrl = (e.APP_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  const llmBase =
    e.LLM_PROVIDER === 'ollama' ? e.OLLAMA_BASE_URL : (e.OPENAI_COMPATIBLE_BASE_URL ?? 'http://127.0.0.1:8000/v1');
  return {
    env: e.NODE_ENV,
    rootDir,
    dataDir,
    uploadsDir: path.join(dataDir, 'uploads'),
    indexDir: path.join(dataDir, 'index'),
    indexMemoryBudgetMb: e.INDEX_MEMORY_BUDGET_MB,
    keywordSearchThreads: e.KEYWORD_SEARCH_THREADS,
    keywordPoolMinPostings: e.KEYWORD_POOL_MIN_POSTINGS,
    database: { url: dbUrl, provider },
    port: e.PORT,
    appUrl,
    secureCookies: appUrl.startsWith('https://'),
    authSecret: e.BETTER_AUTH_SECRET ?? readOrCreateSecret(dataDir),
    trustedOrigins: [
      appUrl,
      ...e.TRUSTED_ORIGINS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ],
    trustedProxies,
    qdrant: e.QDRANT_URL
      ? {
          url: e.QDRANT_URL,
          apiKey: e.QDRANT_API_KEY,
          collectionPrefix: e.QDRANT_COLLECTION_PREFIX,
          shards: e.QDRANT_SHARDS,
          replicationFactor: e.QDRANT_REPLICATION_FACTOR,
          writeConsistencyFactor: e.QDRANT_WRITE_CONSISTENCY_FACTOR,
          tenantIdf: e.QDRANT_TENANT_IDF === 'true',
        }
      : null,
    llm: {
      provider: e.LLM_PROVIDER,
      baseURL: llmBase.replace(/\/$/, ''),
      apiKey: e.OPENAI_COMPATIBLE_API_KEY,
      decisionModel: e.LLM_DECISION_MODEL,
      synthesisModel: e.LLM_SYNTHESIS_MODEL,
      embeddingModel: e.EMBEDDING_MODEL,
      embeddingDimensions: e.EMBEDDING_DIMENSIONS,
      numCtx: e.LLM_NUM_CTX,
      timeouts: {
        planMs: e.LLM_PLAN_TIMEOUT_MS,
        decisionMs: e.LLM_DECISION_TIMEOUT_MS,
        synthesisMs: e.LLM_SYNTHESIS_TIMEOUT_MS,
        embedMs: e.EMBED_TIMEOUT_MS,
      },
      vision: e.LLM_VISION_MODEL
        ? { model: e.LLM_VISION_MODEL, timeoutMs: e.LLM_VISION_TIMEOUT_MS, maxImagePx: e.VISION_MAX_IMAGE_PX }
        : null,
      summaryModel: e.LLM_SUMMARY_MODEL ?? null,
    },
    ingest: {
      maxUploadBytes: e.UPLOAD_MAX_BYTES,
      concurrency: e.INGEST_CONCURRENCY,
      ownerConcurrency: e.INGEST_OWNER_CONCURRENCY,
      parseTimeoutMs: e.PARSE_TIMEOUT_MS,
      parseMaxMemoryMb: e.PARSE_MAX_MEMORY_MB,
      ocr: {
        enabled: e.OCR_MAX_PAGES > 0,
        languages: e.OCR_LANGUAGES.split('+'),
        fallbackLanguages: e.OCR_FALLBACK_LANGUAGES ? e.OCR_FALLBACK_LANGUAGES.split('+') : [],
        maxPages: e.OCR_MAX_PAGES,
      },
    },
    quota: { maxBytes: e.QUOTA_MAX_BYTES, maxDocuments: e.QUOTA_MAX_DOCUMENTS },
    requestLimits: {
      jsonBytes: e.REQUEST_JSON_MAX_BYTES,
      agentBytes: e.REQUEST_AGENT_MAX_BYTES,
      authBytes: e.REQUEST_AUTH_MAX_BYTES,
    },
    agent: {
      maxToolCalls: e.AGENT_MAX_TOOL_CALLS,
      maxIterations: e.AGENT_MAX_ITERATIONS,
      maxReprompts: e.AGENT_MAX_REPROMPTS,
      wallClockMs: e.AGENT_WALL_CLOCK_MS,
    },
    rateLimits: {
      signInPerMinute: e.RATE_LIMIT_SIGN_IN_PER_MINUTE,
      signUpPerMinute: e.RATE_LIMIT_SIGN_UP_PER_MINUTE,
      signInFreeAttemptsPerAccount: e.SIGN_IN_ACCOUNT_FREE_ATTEMPTS,
      signInMaxDelaySeconds: e.SIGN_IN_ACCOUNT_MAX_DELAY_SECONDS,
      uploadsPerMinute: e.RATE_LIMIT_UPLOADS_PER_MINUTE,
      agentRunsPerMinute: e.RATE_LIMIT_AGENT_RUNS_PER_MINUTE,
      apiKeyPerMinute: e.RATE_LIMIT_API_KEY_PER_MINUTE,
      apiUserPerMinute: e.RATE_LIMIT_API_USER_PER_MINUTE,
    },
  };
}

/** A per-installation signing secret kept in the data folder, so a fresh clone needs no configuration. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // first run: create it below
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(32).toString('base64url');
  fs.writeFileSync(file, secret, { mode: 0o600, flag: 'w' });
  return secret;
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A start-up warning when APP_URL names a port the server does not listen on: the browser's Origin then differs
 * from APP_URL and Better Auth refuses every sign-up and sign-in with "Invalid origin". Behind a reverse proxy the
 * ports legitimately differ, so only a loopback host or an explicit port in APP_URL is checked.
 */
export function appUrlPortWarning(config: Pick<AppConfig, 'appUrl' | 'port'>): string | null {
  const url = new URL(config.appUrl);
  if (!url.port && !LOOPBACK_HOSTS.has(url.hostname)) return null;
  const appPort = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  if (appPort === config.port) return null;
  return `APP_URL (${config.appUrl}) names port ${appPort} but the server listens on ${config.port}: sign-up and sign-in will fail with "Invalid origin" unless a proxy forwards ${appPort} to ${config.port}. Unset APP_URL or set it to http://localhost:${config.port}.`;
}

let cached: AppConfig | undefined;

/** The configuration, read from process.env once per process. */
export function getConfig(): AppConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
