import type { APIRequestContext } from '@playwright/test';
import { expect, newCredentials, signUp, test } from './fixtures';

const DOC = `# Runbook

## Reindex

To rebuild the search index run REINDEX TABLE orders; every night at 02:00. The job takes about 40 minutes.

## Secrets

The staging database password is kept in the vault, never in this file.
`;

async function uploadAndWait(request: APIRequestContext, name: string, body: string): Promise<string> {
  const upload = await request.post('/api/documents/upload', {
    data: Buffer.from(body),
    headers: { 'x-file-name': encodeURIComponent(name), 'content-type': 'text/markdown' },
  });
  expect(upload.status()).toBe(201);
  const { document } = await upload.json();
  await expect
    .poll(async () => (await (await request.get(`/api/documents/${document.id}`)).json()).document.status, {
      timeout: 30_000,
    })
    .toBe('INDEXED');
  return document.id as string;
}

test('share an answer, read it signed out, revoke it, and redact a deleted source', async ({ page, user, browser }) => {
  const documentId = await uploadAndWait(page.request, 'runbook.md', DOC);
  const run = await page.request.post('/api/agent/run', {
    data: { question: 'When does the reindex of the orders table run?', mode: 'agent' },
  });
  expect(run.ok()).toBeTruthy();
  const answer = await run.json();
  expect(answer.citations.length).toBeGreaterThan(0);

  const shared = await page.request.post('/api/shares', { data: { answerId: answer.answerId } });
  expect(shared.status()).toBe(201);
  const { share } = await shared.json();
  expect(share.slug).toMatch(/^[A-Za-z0-9_-]{22,}$/);
  // sharing again returns the same link
  const again = await (await page.request.post('/api/shares', { data: { answerId: answer.answerId } })).json();
  expect(again.share.slug).toBe(share.slug);

  // a fresh, signed-out visitor
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  const response = await visitor.goto(`/share/${share.slug}`);
  expect(response?.status()).toBe(200);
  const headers = response?.headers() ?? {};
  expect(headers['cache-control']).toContain('no-store');
  expect(headers['cache-control']).toContain('private');
  expect(headers['referrer-policy']).toBe('no-referrer');
  await expect(visitor.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expect(visitor.locator('meta[property="og:title"]')).toHaveAttribute('content', /reindex/i);
  await expect(visitor.getByTestId('shared-question')).toHaveText('When does the reindex of the orders table run?');
  await expect(visitor.getByTestId('shared-answer')).toContainText('02:00');
  await visitor.getByTestId('shared-answer').getByRole('button', { name: 'Show source 1' }).click();
  await expect(visitor.getByTestId('quoted-span').first()).toBeVisible();
  await expect(visitor.getByTestId('quoted-span').first()).toContainText('02:00');
  // only what was cited: the other section of the document is not on the page
  await expect(visitor.locator('body')).not.toContainText('vault');

  // another signed-in user can neither list nor revoke it
  const otherContext = await browser.newContext();
  const other = await otherContext.newPage();
  await signUp(other, newCredentials('other'));
  const otherList = await (await other.request.get('/api/shares')).json();
  expect(otherList.shares).toEqual([]);
  const otherRevoke = await other.request.delete(`/api/shares/${share.id}`);
  expect(otherRevoke.status()).toBe(404);
  expect(await otherRevoke.text()).not.toContain(share.slug);
  expect((await visitor.goto(`/share/${share.slug}`))?.status()).toBe(200);

  // deleting the cited document redacts its quotes from the share
  expect((await page.request.delete(`/api/documents/${documentId}`)).status()).toBe(204);
  await visitor.goto(`/share/${share.slug}`);
  await expect(visitor.getByTestId('redacted-source').first()).toContainText('Source deleted by its owner');
  await expect(visitor.getByTestId('quoted-span')).toHaveCount(0);

  // the owner revokes it on the Shared links page; the link then answers 404 like an unknown one
  await page.goto('/shares');
  const row = page.locator(`[data-testid="share-row"][data-slug="${share.slug}"]`);
  await expect(row).toBeVisible();
  page.once('dialog', (dialog) => dialog.accept());
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(row).toContainText('Revoked');
  expect((await visitor.goto(`/share/${share.slug}`))?.status()).toBe(404);
  expect((await visitor.goto(`/share/${'x'.repeat(24)}`))?.status()).toBe(404);
  await expect(visitor.getByRole('heading', { name: 'This link is not available' })).toBeVisible();

  await visitorContext.close();
  await otherContext.close();
  expect(user.email).toContain('@');
});
