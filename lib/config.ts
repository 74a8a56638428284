import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

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
  APP_URL: z.url().default('http://localhost:3000'),
  BETTER_AUTH_SECRET: z.string().min(32).optional(),
  TRUSTED_ORIGINS: z.string().default(''),

  /** Memory bound (MB) for loaded owners' keyword indexes in the embedded chunk index (LRU owners unloaded). */
  INDEX_MEMORY_BUDGET_MB: intFrom(1024, 16),

  QDRANT_URL: optionalUrl,
  QDRANT_API_KEY: z.string().optional(),
  QDRANT_COLLECTION_PREFIX: z.string().default('docuchat'),
  QDRANT_SHARDS: z.coerce.number().int().min(1).optional(),
  QDRANT_REPLICATION_FACTOR: z.coerce.number().int().min(1).optional(),
  QDRANT_WRITE_CONSISTENCY_FACTOR: z.coerce.number().int().min(1).optional(),
  QDRANT_TENANT_IDF: z.enum(['true', 'false']).default('false'),

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

  UPLOAD_MAX_BYTES: intFrom(100 * 1024 * 1024, 1),
  INGEST_CONCURRENCY: intFrom(2, 1),
  PARSE_TIMEOUT_MS: intFrom(120_000, 1000),
  PARSE_MAX_MEMORY_MB: intFrom(1024, 64),

  AGENT_MAX_TOOL_CALLS: intFrom(5, 1),
  AGENT_MAX_ITERATIONS: intFrom(10, 1),
  AGENT_MAX_REPROMPTS: intFrom(3, 0),
  AGENT_WALL_CLOCK_MS: intFrom(300_000, 1000),

  RATE_LIMIT_SIGN_IN_PER_MINUTE: intFrom(5, 1),
  RATE_LIMIT_SIGN_UP_PER_MINUTE: intFrom(5, 1),
  RATE_LIMIT_UPLOADS_PER_MINUTE: intFrom(120, 1),
  RATE_LIMIT_AGENT_RUNS_PER_MINUTE: intFrom(30, 1),
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
  database: { url: string; provider: 'sqlite' | 'postgresql' };
  appUrl: string;
  secureCookies: boolean;
  authSecret: string;
  trustedOrigins: string[];
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
  };
  ingest: { maxUploadBytes: number; concurrency: number; parseTimeoutMs: number; parseMaxMemoryMb: number };
  agent: { maxToolCalls: number; maxIterations: number; maxReprompts: number; wallClockMs: number };
  rateLimits: {
    signInPerMinute: number;
    signUpPerMinute: number;
    uploadsPerMinute: number;
    agentRunsPerMinute: number;
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
  const dataDir = path.resolve(rootDir, e.DATA_DIR);
  const dbUrl = e.DATABASE_URL ? e.DATABASE_URL : `file:${path.join(dataDir, 'docuchat.db')}`;
  const provider = /^postgres(ql)?:/.test(dbUrl) ? 'postgresql' : 'sqlite';
  const appUrl = e.APP_URL.replace(/\/$/, '');
  const llmBase =
    e.LLM_PROVIDER === 'ollama' ? e.OLLAMA_BASE_URL : (e.OPENAI_COMPATIBLE_BASE_URL ?? 'http://127.0.0.1:8000/v1');
  return {
    env: e.NODE_ENV,
    rootDir,
    dataDir,
    uploadsDir: path.join(dataDir, 'uploads'),
    indexDir: path.join(dataDir, 'index'),
    indexMemoryBudgetMb: e.INDEX_MEMORY_BUDGET_MB,
    database: { url: dbUrl, provider },
    appUrl,
    secureCookies: appUrl.startsWith('https://'),
    authSecret: e.BETTER_AUTH_SECRET ?? readOrCreateSecret(dataDir),
    trustedOrigins: [
      appUrl,
      ...e.TRUSTED_ORIGINS.split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ],
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
    },
    ingest: {
      maxUploadBytes: e.UPLOAD_MAX_BYTES,
      concurrency: e.INGEST_CONCURRENCY,
      parseTimeoutMs: e.PARSE_TIMEOUT_MS,
      parseMaxMemoryMb: e.PARSE_MAX_MEMORY_MB,
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
      uploadsPerMinute: e.RATE_LIMIT_UPLOADS_PER_MINUTE,
      agentRunsPerMinute: e.RATE_LIMIT_AGENT_RUNS_PER_MINUTE,
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

let cached: AppConfig | undefined;

/** The configuration, read from process.env once per process. */
export function getConfig(): AppConfig {
  cached ??= parseConfig(process.env);
  return cached;
}
