import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appUrlPortWarning, parseConfig } from '@/lib/config';

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

describe('APP_URL and PORT', () => {
  const secret = { BETTER_AUTH_SECRET: 'x'.repeat(40) };

  it('APP_URL follows PORT when unset', () => {
    expect(parseConfig({ ...secret, PORT: '3920' }, root).appUrl).toBe('http://localhost:3920');
    expect(parseConfig({ ...secret, PORT: '3920', APP_URL: '' }, root).appUrl).toBe('http://localhost:3920');
    expect(parseConfig(secret, root).appUrl).toBe('http://localhost:3000');
    expect(parseConfig({ ...secret, PORT: '3920' }, root).trustedOrigins).toContain('http://localhost:3920');
  });

  it('warns when APP_URL names another port than the server listens on', () => {
    const warn = (env: Record<string, string>) => appUrlPortWarning(parseConfig({ ...secret, ...env }, root));
    expect(warn({ PORT: '3920', APP_URL: 'http://localhost:3000' })).toMatch(/3000.*3920/);
    expect(warn({ PORT: '3920', APP_URL: 'http://127.0.0.1' })).toMatch(/port 80/);
    expect(warn({ PORT: '3920', APP_URL: 'http://docs.example.org:8080' })).toMatch(/8080/);
    expect(warn({ PORT: '3920' })).toBeNull();
    expect(warn({ PORT: '3920', APP_URL: 'http://localhost:3920/' })).toBeNull();
    // behind a reverse proxy on the default port: nothing to warn about
    expect(warn({ PORT: '3000', APP_URL: 'https://docs.example.org' })).toBeNull();
  });

  it('rejects a PORT that is not a port', () => {
    expect(() => parseConfig({ ...secret, PORT: '70000' }, root)).toThrow('PORT');
  });
});

describe('Qdrant defaults', () => {
  it('scopes IDF to each tenant unless QDRANT_TENANT_IDF=false', () => {
    const base = { BETTER_AUTH_SECRET: 'x'.repeat(40), QDRANT_URL: 'http://127.0.0.1:6333' };
    expect(parseConfig(base, root).qdrant?.tenantIdf).toBe(true);
    expect(parseConfig({ ...base, QDRANT_TENANT_IDF: 'false' }, root).qdrant?.tenantIdf).toBe(false);
  });
});

describe('TRUSTED_PROXIES', () => {
  it('is off by default and a comma list otherwise', () => {
    const secret = { BETTER_AUTH_SECRET: 'x'.repeat(40) };
    expect(parseConfig(secret, root).trustedProxies).toEqual([]);
    expect(parseConfig({ ...secret, TRUSTED_PROXIES: ' 10.0.0.0/8, ::1 ,' }, root).trustedProxies).toEqual([
      '10.0.0.0/8',
      '::1',
    ]);
  });

  it('refuses an entry that is not an IP or CIDR, naming it', () => {
    const secret = { BETTER_AUTH_SECRET: 'x'.repeat(40) };
    expect(() => parseConfig({ ...secret, TRUSTED_PROXIES: '10.0.0.0/8, proxy.local' }, root)).toThrow(
      /TRUSTED_PROXIES.*proxy\.local/,
    );
  });
});
