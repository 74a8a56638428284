import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { recordFigures } from '../scripts/figures';
import { buildTextPdf } from '../test/support/ingest/minimal-pdf';
import { ask, lastAnswer, openTrace, uploadDocument } from './chat-helpers';
import { expect, newCredentials, signUp, test } from './fixtures';

// axe on every page, at desktop size and on a phone (390×844): no serious or critical violation (WCAG 2.x A/AA
// rules). Also: overlays close with Escape, and on a phone the chat's banner and composer leave the answer at least
// three quarters of the screen. `npm run a11y:report` records the count in docs/figures.json.

const POLICY = `# Refund policy

Customers can return any product for a full refund. The refund window is 30 days from the date of delivery.
Refunds are paid to the original payment method within 5 business days after the return arrives.
`;

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

const found: Array<{ page: string; viewport: string; id: string; impact: string; targets: string[] }> = [];

async function audit(page: Page, label: string, viewport: string): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  for (const v of serious)
    found.push({
      page: label,
      viewport,
      id: v.id,
      impact: v.impact ?? '',
      targets: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`.slice(0, 300)),
    });
  expect
    .soft(
      serious.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`),
      `${label} at ${viewport}`,
    )
    .toEqual([]);
}

test.describe
  .serial('accessibility', () => {
    test.afterAll(() => {
      console.log(`[a11y] serious or critical violations: ${found.length}`);
      for (const f of found)
        console.log(`[a11y] ${f.viewport} ${f.page}: ${f.id} (${f.impact})\n  ${f.targets.join('\n  ')}`);
      if (process.env.RECORD_FIGURES === '1')
        recordFigures({
          'a11y.serious_violations': { value: found.length, unit: 'violations', command: 'npm run a11y:report' },
        });
    });

    for (const vp of VIEWPORTS) {
      test(`every page at ${vp.name} size`, async ({ browser }) => {
        test.setTimeout(180_000);
        const b = randomBytes(3);
        const context = await browser.newContext({
          viewport: { width: vp.width, height: vp.height },
          // a client address of its own, as the fixtures give every test (per-address rate limits)
          extraHTTPHeaders: { 'x-forwarded-for': `10.${b[0]}.${b[1]}.${((b[2] ?? 1) % 250) + 1}` },
        });
        const page = await context.newPage();

        await page.goto('/sign-in');
        await audit(page, 'sign-in', vp.name);
        await page.goto('/sign-up');
        await audit(page, 'sign-up', vp.name);

        await signUp(page, newCredentials('a11y'));
        const documentId = await uploadDocument(page, 'refund-policy.md', POLICY);
        await page.goto('/documents');
        await expect(page.getByTestId('document-row')).toHaveCount(1);
        await expect(page.getByRole('button', { name: 'Delete refund-policy.md' })).toBeVisible();
        await audit(page, 'documents', vp.name);

        await page.goto(`/documents/${documentId}/view`);
        await expect(page.locator('main')).toBeVisible();
        await audit(page, 'document view', vp.name);

        // A PDF's view: the page fits the screen's width (nothing clipped on a phone).
        const pdf = buildTextPdf(
          [['Product handbook', 'The warranty period is 24 months from the date of purchase.']],
          { title: 'Product handbook' },
        );
        const upload = await page.request.post('/api/documents/upload', {
          data: Buffer.from(pdf),
          headers: { 'x-file-name': 'handbook.pdf', 'content-type': 'application/pdf' },
        });
        expect(upload.status()).toBeLessThan(300);
        let pdfId = '';
        await expect
          .poll(
            async () => {
              const body = (await (await page.request.get('/api/documents')).json()) as {
                documents: Array<{ id: string; filename: string; status: string }>;
              };
              const doc = body.documents.find((d) => d.filename === 'handbook.pdf');
              pdfId = doc?.id ?? '';
              return doc?.status;
            },
            { timeout: 60_000 },
          )
          .toBe('INDEXED');
        await page.goto(`/documents/${pdfId}/view`);
        const pdfPage = page.getByTestId('pdf-page');
        await expect(pdfPage.locator('canvas')).toBeVisible({ timeout: 30_000 });
        await expect
          .poll(async () => {
            const box = await pdfPage.boundingBox();
            return box ? box.x >= 0 && box.x + box.width <= vp.width : false;
          })
          .toBe(true);
        await audit(page, 'PDF view', vp.name);

        await page.goto('/chat');
        await audit(page, 'new chat', vp.name);
        if (vp.name === 'phone') {
          // Banner and composer together take at most a quarter of the screen.
          const banner = (await page.getByTestId('extractive-banner').boundingBox())?.height ?? 0;
          const composer = (await page.locator('form:has(textarea)').boundingBox())?.height ?? 0;
          expect(banner + composer, `banner ${banner}px + composer ${composer}px`).toBeLessThanOrEqual(vp.height / 4);
          // The conversations drawer: opens as a dialog, closes with Escape.
          await page.getByRole('button', { name: 'Show conversations' }).click();
          await expect(page.getByRole('dialog', { name: 'Conversations' })).toBeVisible();
          await audit(page, 'conversations drawer', vp.name);
          await page.keyboard.press('Escape');
          await expect(page.getByRole('dialog', { name: 'Conversations' })).toHaveCount(0);
        }

        await ask(page, 'How long is the refund window?');
        await expect(lastAnswer(page)).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
        await openTrace(page);
        await expect(lastAnswer(page).getByTestId('trace-event').first()).toBeVisible();
        if (process.env.SCREENSHOTS_DIR)
          await page.screenshot({ path: `${process.env.SCREENSHOTS_DIR}/chat-answer-${vp.name}.png` });
        await lastAnswer(page).getByRole('button', { name: 'Show source 1' }).first().click();
        await expect(page.getByTestId('citation-panel')).toBeVisible();
        await expect(page.getByTestId('citation-panel').getByTestId('quoted-span').first()).toBeVisible();
        if (process.env.SCREENSHOTS_DIR)
          await page.screenshot({ path: `${process.env.SCREENSHOTS_DIR}/chat-source-${vp.name}.png` });
        await audit(page, 'chat with an answer and a source open', vp.name);
        await page.keyboard.press('Escape');
        await expect(page.getByTestId('citation-panel')).toHaveCount(0);
        // (the sidebar is hidden on a phone until its drawer opens)
        if (vp.name === 'desktop')
          await expect(page.getByRole('button', { name: /^Rename conversation “/ }).first()).toBeAttached();

        const answerId = await page.evaluate(async () => {
          const id = location.pathname.split('/').pop() ?? '';
          const res = await fetch(`/api/conversations/${id}`);
          const body = (await res.json()) as { messages: Array<{ metadata?: { answerId?: string } }> };
          return body.messages.find((m) => m.metadata?.answerId)?.metadata?.answerId ?? '';
        });
        const shared = await page.request.post('/api/shares', { data: { answerId } });
        expect(shared.status()).toBe(201);
        const { share } = (await shared.json()) as { share: { slug: string } };
        await page.goto('/shares');
        await audit(page, 'shares', vp.name);
        await page.goto(`/share/${share.slug}`);
        await audit(page, 'share page', vp.name);
        await context.close();
      });
    }
  });
