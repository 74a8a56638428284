import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '@/lib/config';

const root = path.join(os.tmpdir(), 'docuchat-config-test');

describe('parseConfig', () => {
  it('runs on embedded defaults with no variables set', () => {
    const config = parseConfig({ BETTER_AUTH_SECRET: 'x'.repeat(40) }, root);
    expect(config.database.provider).toBe('sqlite');
    expect(config.database.url).toBe(`file:${path.join(root, 'data', 'docuchat.db')}`);
    expect(config.qdrant).toBeNull();
    expect(config.llm.baseURL).toBe('http://127.0.0.1:11434');
    expect(config.llm.numCtx).toBeGreaterThanOrEqual(2048);
    expect(config.ingest.maxUploadBytes).toBe(100 * 1024 * 1024);
    expect(config.agent).toEqual({ maxToolCalls: 5, maxIterations: 10, maxReprompts: 3, wallClockMs: 300_000 });
    expect(config.secureCookies).toBe(false);
    expect(config.ingest.ownerConcurrency).toBe(1);
    expect(config.quota).toEqual({ maxBytes: 5 * 1024 ** 3, maxDocuments: 10_000 });
  });

  it('reads the fair-queue cap and the storage quota, refusing nonsense', () => {
    const env = { BETTER_AUTH_SECRET: 'x'.repeat(40) };
    const config = parseConfig(
      { ...env, INGEST_OWNER_CONCURRENCY: '2', QUOTA_MAX_BYTES: '1048576', QUOTA_MAX_DOCUMENTS: '50' },
      root,
    );
    expect(config.ingest.ownerConcurrency).toBe(2);
    expect(config.quota).toEqual({ maxBytes: 1_048_576, maxDocuments: 50 });
    expect(() => parseConfig({ ...env, QUOTA_MAX_BYTES: '0' }, root)).toThrow();
    expect(() => parseConfig({ ...env, QUOTA_MAX_DOCUMENTS: 'many' }, root)).toThrow();
    expect(() => parseConfig({ ...env, INGEST_OWNER_CONCURRENCY: '0' }, root)).toThrow();
  });

  it('switches to PostgreSQL, Qdrant and an OpenAI-compatible server when configured', () => {
    const config = parseConfig(
      {
        BETTER_AUTH_SECRET: 'x'.repeat(40),
        DATABASE_URL: 'postgresql://u@127.0.0.1:5432/app',
        QDRANT_URL: 'http://127.0.0.1:6333',
        LLM_PROVIDER: 'openai-compatible',
        OPENAI_COMPATIBLE_BASE_URL: 'http://127.0.0.1:8000/v1/',
        APP_URL: 'https://docs.example.org/',
      },
      root,
    );
    expect(config.database.provider).toBe('postgresql');
    expect(config.qdrant?.url).toBe('http://127.0.0.1:6333');
    expect(config.llm.baseURL).toBe('http://127.0.0.1:8000/v1');
    expect(config.appUrl).toBe('https://docs.example.org');
    expect(config.secureCookies).toBe(true);
  });

  it.each([
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ UPLOAD_MAX_BYTES: '-5' }, 'UPLOAD_MAX_BYTES'],
    [{ LLM_PROVIDER: 'gpt' }, 'LLM_PROVIDER'],
    [{ QDRANT_URL: 'not a url' }, 'QDRANT_URL'],
    [{ BETTER_AUTH_SECRET: 'short' }, 'BETTER_AUTH_SECRET'],
  ])('rejects invalid values with the variable named (%o)', (env, name) => {
    expect(() => parseConfig({ BETTER_AUTH_SECRET: 'x'.repeat(40), ...env }, root)).toThrow(name);
  });

  it('treats an empty QDRANT_URL as unset', () => {
    expect(parseConfig({ BETTER_AUTH_SECRET: 'x'.repeat(40), QDRANT_URL: '' }, root).qdrant).toBeNull();
  });
});
