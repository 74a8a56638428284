import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { ask, uploadDocument } from './chat-helpers';
import { expect, test } from './fixtures';

/**
 * Research mode in the browser, without a model (extractive), on a phone-sized screen: the composer's Research
 * mode, clarifying questions answered in the chat, the plan edited (task edited, moved, deleted) and approved,
 * each task's progress with its own trace, the report with sections and per-section sources; the run survives a
 * reload while it waits; the report is shared and the share page shows its sections' sources. The research
 * timeline (one card per research-level event) grows live while the run streams and reads the same after a reload;
 * screenshots of the finished panel at phone and desktop size go to RESEARCH_SCREENSHOT_DIR (docs/screenshots).
 */

const RUNBOOK = `# Release runbook

## Deploy day

We deploy on Tuesdays after the smoke tests pass. Deployments run through the release pipeline: build the image,
run the migrations, then switch traffic gradually.

## Rollback

Roll back by redeploying the previous image tag. The on-call engineer owns every rollback.

## Rate limits

The public API allows 100 requests per minute per token.
`;

test.use({ viewport: { width: 390, height: 844 } });

const cards = (page: Page, type?: string) =>
  page
    .getByTestId('research-timeline')
    .getByTestId('research-event')
    .and(type ? page.locator(`[data-type="${type}"]`) : page.locator('[data-type]'));

function noSidewaysScroll(page: Page) {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

test('research: clarify, edit and approve the plan, follow the tasks, read and share the report', async ({
  page,
  user,
}) => {
  expect(user.email).toBeTruthy();
  test.setTimeout(180_000);
  await uploadDocument(page, 'release-runbook.md', RUNBOOK);
  await page.goto('/chat');

  await page.getByText('Research', { exact: true }).click();
  await ask(page, 'Tell me about deployments');

  const panel = page.getByTestId('research');
  await expect(panel).toHaveAttribute('data-status', 'clarifying');
  const questions = panel.getByRole('region', { name: 'Clarifying questions' });
  await expect(questions.getByRole('textbox').first()).toBeVisible();
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  await expect(cards(page, 'questions')).toContainText(/Asked \d clarifying questions? before searching/);

  // The run waits on the server: a reload shows the same questions and the same timeline.
  await page.reload();
  await expect(page.getByTestId('research')).toHaveAttribute('data-status', 'clarifying');
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page, 'questions')).toBeVisible();
  const firstAnswer = page
    .getByTestId('research')
    .getByRole('region', { name: 'Clarifying questions' })
    .getByRole('textbox')
    .first();
  await firstAnswer.fill('the deploy day and rollbacks');
  await page.getByRole('button', { name: 'Submit answers' }).click();

  const plan = page.getByRole('region', { name: 'Research plan' });
  await expect(plan).toBeVisible();
  await expect(page.getByTestId('plan-task')).toHaveCount(3);
  // Edit the first task, move the last one up to second place, delete the one that is then last.
  await plan.getByLabel('Task 1 title').fill('Deploy day');
  await plan.getByLabel('Task 1 question').fill('On which day do we deploy?');
  await plan.getByRole('button', { name: 'Move task 3 up' }).click();
  await plan.getByLabel('Task 2 title').fill('Rollback');
  await plan.getByLabel('Task 2 question').fill('How do we roll back a deployment?');
  await expect(cards(page, 'answers')).toContainText('Got 1 answer');
  await expect(cards(page, 'plan')).toContainText('Proposed a plan of 3 tasks');
  await plan.getByRole('button', { name: 'Delete task 3' }).click();
  await expect(page.getByTestId('plan-task')).toHaveCount(2);

  // Record, for each timeline card as it appears, the run's status then: cards added while it runs came live.
  await page.evaluate(() => {
    const seen: Array<{ type: string; status: string }> = [];
    (window as unknown as { researchCards: typeof seen }).researchCards = seen;
    new MutationObserver((records) => {
      const status = document.querySelector('[data-testid="research"]')?.getAttribute('data-status') ?? '';
      for (const r of records)
        for (const node of r.addedNodes)
          if (node instanceof HTMLElement && node.dataset.testid === 'research-event')
            seen.push({ type: node.dataset.type ?? '', status });
    }).observe(document.body, { childList: true, subtree: true });
  });
  // Without a model the run takes well under a second, so its stream could reach the page in one piece; a slow
  // connection makes it arrive piece by piece, as a long run's does.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: 16_000,
    uploadThroughput: -1,
  });
  // Keep a copy of the approve stream inside the page (a tee of the response the panel reads): Chromium drops the
  // body of a response once the page's URL changes, which it does when the run ends, so reading it through the
  // protocol raced that change.
  await page.evaluate(() => {
    const w = window as unknown as { approveBody?: Promise<string> };
    const original = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const response = await original(input, init);
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith('/approve')) w.approveBody = response.clone().text();
      return response;
    };
  });
  await plan.getByRole('button', { name: 'Approve plan' }).click();

  await expect(page.getByTestId('research')).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  // The stream carried each new log entry as a typed `log` event, and the run last.
  const streamed = await page.evaluate(() => (window as unknown as { approveBody?: Promise<string> }).approveBody);
  expect(streamed, 'the approve stream was captured').toBeTruthy();
  const lines = (streamed ?? '')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { event: string; data: { type: string; entry?: { type: string } } });
  const logged = lines.flatMap((l) => (l.data.type === 'log' && l.data.entry ? [l.data.entry.type] : []));
  expect(logged.slice(0, 5)).toEqual(['approved', 'task_start', 'task_done', 'task_start', 'task_done']);
  expect(logged.slice(-3)).toEqual(['synthesis', 'report', 'status']);
  expect(lines.at(-1)?.data.type).toBe('run');
  // ... and the page drew the task cards as they came, while the run was still running.
  const live = await page.evaluate(
    () => (window as unknown as { researchCards: Array<{ type: string; status: string }> }).researchCards,
  );
  const whileRunning = live.filter((c) => c.status === 'running' || c.status === 'synthesising').map((c) => c.type);
  expect(whileRunning).toEqual(expect.arrayContaining(['approved', 'task_start', 'task_done']));

  // The timeline, in order: the edit counted, the plan approved, each task started and finished, the quality
  // check, the synthesis and the delivered report.
  await expect(cards(page, 'plan_edited')).toHaveText(/You edited the plan: 2 tasks \(2 edited, 1 deleted\)/);
  await expect(cards(page, 'approved')).toContainText('Plan approved with 2 tasks');
  await expect(cards(page, 'task_start').first()).toContainText('Started task 1 of 2: Deploy day');
  await expect(cards(page, 'task_done').first()).toContainText(/Finished task 1: Deploy day.*\d+ sources?/s);
  await expect(cards(page, 'quality').first()).toContainText(/Quality check: \d+\/100/);
  await expect(cards(page, 'synthesis')).toContainText('Wrote the report: 2 sections');
  await expect(cards(page, 'report')).toContainText(/Report delivered: 2 sections, quality \d+\/100/);
  const types = await cards(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-type')));
  expect(types.slice(0, 5)).toEqual(['questions', 'answers', 'plan', 'plan_edited', 'approved']);
  expect(types.slice(-4)).toEqual(['quality', 'synthesis', 'report', 'status']);
  // a task card's link opens that task's own trace
  await cards(page, 'task_done').nth(1).getByRole('button', { name: 'Show its trace' }).click();
  await expect(page.getByTestId('research-task').nth(1).getByTestId('trace-event').first()).toBeVisible();
  const tasks = page.getByTestId('research-task');
  await expect(tasks).toHaveCount(2);
  await expect(tasks.first()).toContainText('Deploy day');
  // each task keeps its own trace
  await tasks
    .first()
    .getByRole('button', { name: /How this was found/ })
    .click();
  await expect(tasks.first().getByTestId('trace')).toContainText(/search/i);

  const report = page.getByTestId('research-report');
  await expect(report.getByTestId('report-section')).toHaveCount(2);
  await expect(report.getByRole('region', { name: 'Deploy day' })).toContainText('Tuesdays');
  await expect(report.getByRole('list', { name: 'Sources for Deploy day' })).toContainText('release-runbook.md');
  await expect(report.getByRole('region', { name: 'Rollback' })).toContainText('previous image tag');

  // Reloaded, the finished run shows its report and the same timeline again.
  await page.reload();
  await expect(page.getByTestId('research-report').getByTestId('report-section')).toHaveCount(2);
  await expect(cards(page)).toHaveCount(types.length);
  expect(await cards(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-type')))).toEqual(types);

  // Screenshots of the finished panel for review, phone then desktop: the timeline's start and its end (the chat
  // scrolls inside the page, so each is a screen with the timeline scrolled into view); nothing scrolls sideways.
  const dir = process.env.RESEARCH_SCREENSHOT_DIR ?? test.info().outputPath();
  fs.mkdirSync(dir, { recursive: true });
  for (const [size, viewport] of [
    ['phone', { width: 390, height: 844 }],
    ['desktop', { width: 1280, height: 800 }],
  ] as const) {
    await page.setViewportSize(viewport);
    await expect(cards(page)).toHaveCount(types.length);
    expect(await noSidewaysScroll(page)).toBeLessThanOrEqual(0);
    await page.getByTestId('research-timeline').evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.screenshot({ path: path.join(dir, `research-timeline-${size}.png`) });
    await cards(page)
      .last()
      .evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await page.screenshot({ path: path.join(dir, `research-timeline-end-${size}.png`) });
  }
  await page.setViewportSize({ width: 390, height: 844 });

  // Share it: the public page shows the report and each section's sources.
  const runId = await page.evaluate(async () => {
    const res = await fetch(`/api/conversations/${location.pathname.split('/').pop()}`);
    const body = (await res.json()) as { messages: { parts: { type: string; data?: { runId?: string } }[] }[] };
    return body.messages.flatMap((m) => m.parts).find((p) => p.type === 'data-research')?.data?.runId ?? '';
  });
  const { run } = (await (await page.request.get(`/api/research/${runId}`)).json()) as { run: { answerId: string } };
  const shared = await page.request.post('/api/shares', { data: { answerId: run.answerId } });
  expect(shared.status()).toBe(201);
  const { share } = (await shared.json()) as { share: { slug: string } };
  await page.goto(`/share/${share.slug}`);
  await expect(page.getByTestId('shared-answer')).toContainText('Deploy day');
  await expect(page.getByTestId('shared-report-sources')).toContainText('release-runbook.md');
});

test('research: cancel while waiting for approval', async ({ page, user }) => {
  expect(user.email).toBeTruthy();
  await uploadDocument(page, 'runbook.md', RUNBOOK);
  await page.goto('/chat');
  await page.getByText('Research', { exact: true }).click();
  await ask(page, 'What do the documents say about deploy day, rollback owners and rate limits in 2026?');
  const panel = page.getByTestId('research');
  await expect(panel).toHaveAttribute('data-status', /awaiting_approval|clarifying/);
  await panel.getByRole('button', { name: 'Cancel research' }).click();
  await expect(panel).toHaveAttribute('data-status', 'cancelled');
  await expect(panel.getByRole('button', { name: 'Approve plan' })).toHaveCount(0);
  await expect(cards(page, 'status')).toHaveText(/Cancelled.*Cancelled by you\./s);
  await page.reload();
  await expect(cards(page).last()).toContainText('Cancelled by you.');
});
