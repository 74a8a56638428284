import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import { z } from 'zod';
import { answerSchema, chunkSchema, documentSchema, searchResultSchema, shareSchema } from '../lib/http/api-schemas';
import { readmeApiExamples } from '../lib/http/readme-examples';
import { listRouteExports } from '../lib/http/route-inventory';
import { newApiUser, upload, waitForFinal } from '../test/reliability/api-client';
import { expect, test } from './fixtures';

/**
 * Issue 19, the API as a product, against the production build: the README's curl examples run as written with a
 * real key, the OpenAPI document lists every route file's methods, live responses match the documented schemas,
 * and the API keys page creates (shown once, copy button), lists and revokes keys on desktop and phone.
 */

const BASE = `http://localhost:${process.env.E2E_PORT ?? 3210}`;
const run = promisify(execFile);

async function createKey(ctx: APIRequestContext, scopes = ['read', 'write']) {
  const response = await ctx.post('/api/api-keys', {
    data: { name: `e2e ${scopes.join('+')}`, scopes, expiresInDays: 1 },
    headers: { origin: BASE },
  });
  expect(response.status(), await response.text()).toBe(201);
  return z.object({ key: z.string() }).parse(await response.json()).key;
}

test('the README "Use the API" examples run as written against the app', async () => {
  test.setTimeout(240_000);
  const user = await newApiUser(BASE, 'readme');
  const key = await createKey(user.ctx);
  const examples = readmeApiExamples(fs.readFileSync(path.resolve('README.md'), 'utf8'));
  expect(examples.length).toBeGreaterThanOrEqual(6);
  // The first block sets the two variables to placeholders; the test sets them to this server and key instead.
  expect(examples[0]?.code).toMatch(/export DOCUCHAT_URL=.*\nexport DOCUCHAT_KEY=/);
  const script = examples
    .slice(1)
    .map((e, i) => `echo "::example ${i + 1}"\n${e.code}`)
    .join('\n');
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-readme-'));
  const { stdout, stderr } = await run('bash', ['-euo', 'pipefail', '-c', script], {
    cwd,
    env: { ...process.env, DOCUCHAT_URL: BASE, DOCUCHAT_KEY: key },
    timeout: 200_000,
    maxBuffer: 10 * 1024 * 1024,
  }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
    throw new Error(`README examples failed: ${error.message}\nstdout:\n${error.stdout}\nstderr:\n${error.stderr}`);
  });
  console.log(stdout);
  expect(stderr).toBe('');
  expect(stdout).toMatch(/[0-9a-f-]{36} INDEXED/); // upload and poll
  expect(stdout).toMatch(/^runbook\.md: \S/m); // search, then open the passage
  expect(stdout).toMatch(/Tuesdays/); // the answer
  expect(stdout).toMatch(/\[1\] runbook\.md: /); // a citation with its quote
  expect(stdout).toMatch(/^\s+\d+ event: complete$/m); // SSE
  expect(stdout).toMatch(/^\s+\d+ event: trace$/m);
  expect(stdout).toMatch(/redeploying the previous image tag|previous image/); // NDJSON complete answer
  expect(stdout).toContain('shared: 200');
  expect(stdout).toContain('active: false');
  expect(stdout).toContain('revoked: 404');
  expect(stdout).toContain('not_found:document');
  expect(stdout).toMatch(/chunkId=[0-9a-f-]{36} documentId=[0-9a-f-]{36} "runbook\.md"/); // MCP search_text
  expect(stdout).toContain('deleted: 204');
  await user.ctx.dispose();
});

test('the OpenAPI document lists every route file method, and live responses match its schemas', async () => {
  test.setTimeout(180_000);
  const anon = await playwrightRequest.newContext({ baseURL: BASE });
  const docResponse = await anon.get('/api/openapi.json');
  expect(docResponse.status()).toBe(200);
  const doc = (await docResponse.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
  expect(doc.openapi).toBe('3.1.0');
  const routes = listRouteExports(process.cwd());
  const missing = routes
    .filter((r) => !doc.paths[r.key.split(' ')[1] ?? '']?.[r.method.toLowerCase()])
    .map((r) => r.key);
  expect(missing).toEqual([]);
  console.log(`[api] ${routes.length} route handlers, all in /api/openapi.json`);

  const user = await newApiUser(BASE, 'contract');
  const key = await createKey(user.ctx);
  const keyed = await playwrightRequest.newContext({
    baseURL: BASE,
    extraHTTPHeaders: { authorization: `Bearer ${key}` },
  });
  const up = await upload(
    keyed,
    'contract.md',
    '# Contract\n\nThe contract renews every March with a 30 day notice.\n',
    {
      'content-type': 'text/markdown',
    },
  );
  expect(up.response.status()).toBe(201);
  documentSchema.parse(up.document);
  await waitForFinal(keyed, up.document?.id ?? '');
  z.object({ documents: z.array(documentSchema) }).parse(await (await keyed.get('/api/documents')).json());
  const search = z
    .object({ results: z.array(searchResultSchema) })
    .parse(await (await keyed.get('/api/search?q=contract+renews&mode=keyword')).json());
  expect(search.results[0]?.filename).toBe('contract.md');
  const answer = answerSchema.parse(
    await (await keyed.post('/api/agent/run', { data: { question: 'When does the contract renew?' } })).json(),
  );
  expect(answer.citations.length).toBeGreaterThan(0);
  chunkSchema.parse((await (await keyed.get(`/api/chunks/${answer.citations[0]?.chunkId}`)).json()).chunk);
  const share = await keyed.post('/api/shares', { data: { answerId: answer.answerId } });
  expect(share.status()).toBe(201);
  shareSchema.parse((await share.json()).share);
  // no Origin needed with a key, even for a state change; a cookie request from another site is still refused
  const cross = { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' };
  expect((await keyed.post('/api/buckets', { data: { name: 'from-ci' }, headers: cross })).status()).toBe(201);
  expect((await user.ctx.post('/api/buckets', { data: { name: 'from-evil' }, headers: cross })).status()).toBe(403);
  await Promise.all([anon.dispose(), keyed.dispose(), user.ctx.dispose()]);
});

test('the API reference page renders the document under the strict CSP', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  await page.goto('/api-docs');
  await expect(page.getByRole('heading', { name: 'DocuChat API' })).toBeVisible();
  expect(await page.getByTestId('api-operation').count()).toBeGreaterThan(25);
  await page.locator('summary', { hasText: '/api/agent/run' }).first().click();
  await expect(page.getByText('Request body (application/json)').first()).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('api-docs.png') });
  expect(problems).toEqual([]);
});

for (const viewport of [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`API keys page: create (shown once, copy), use, revoke – ${viewport.name}`, async ({ page, user, context }) => {
    void user;
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: BASE });
    await page.goto('/documents');
    await page.getByRole('link', { name: 'API keys', exact: true }).click();
    await expect(page).toHaveURL(/\/settings\/api-keys$/);
    await expect(page.getByText('No API keys yet')).toBeVisible();
    await page.getByLabel('Name').fill('nightly CI');
    await page.getByLabel(/^write/).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByTestId('new-api-key-value');
    await expect(shown).toHaveText(/^dc_[A-Za-z0-9_-]{43}$/);
    const key = (await shown.textContent()) ?? '';
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, 'no horizontal scrolling').toBeLessThanOrEqual(0);
    const navOverflow = await page
      .getByRole('navigation', { name: 'Main' })
      .evaluate((nav) => nav.scrollWidth - nav.clientWidth);
    expect(navOverflow, 'every header link visible').toBeLessThanOrEqual(0);
    await page.screenshot({ path: test.info().outputPath(`api-keys-${viewport.name}.png`), fullPage: true });

    const keyed = await playwrightRequest.newContext({
      baseURL: BASE,
      extraHTTPHeaders: { authorization: `Bearer ${key}` },
    });
    expect((await keyed.get('/api/documents')).status()).toBe(200);

    await page.reload();
    await expect(page.getByTestId('new-api-key')).toHaveCount(0);
    expect(await page.content()).not.toContain(key);
    const row = page.getByTestId('api-key-row').filter({ hasText: 'nightly CI' });
    await expect(row).toContainText(key.slice(0, 9));
    await expect(row).toContainText('read + write');
    await expect(row).toContainText('last used');
    page.once('dialog', (d) => d.accept());
    await row.getByRole('button', { name: 'Revoke' }).click();
    await expect(row).toContainText('Revoked');
    const after = await keyed.get('/api/documents');
    expect(after.status()).toBe(401);
    expect(await after.json()).toEqual({
      error: { code: 'unauthorized:auth', message: 'Please sign in to continue.' },
    });
    await keyed.dispose();
  });
}
