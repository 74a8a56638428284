import { ask, uploadDocument } from './chat-helpers';
import { expect, test } from './fixtures';

/**
 * Research mode in the browser, without a model (extractive), on a phone-sized screen: the composer's Research
 * mode, clarifying questions answered in the chat, the plan edited (task edited, moved, deleted) and approved,
 * each task's progress with its own trace, the report with sections and per-section sources; the run survives a
 * reload while it waits; the report is shared and the share page shows its sections' sources.
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

  // The run waits on the server: a reload shows the same questions.
  await page.reload();
  await expect(page.getByTestId('research')).toHaveAttribute('data-status', 'clarifying');
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
  await plan.getByRole('button', { name: 'Delete task 3' }).click();
  await expect(page.getByTestId('plan-task')).toHaveCount(2);
  await plan.getByRole('button', { name: 'Approve plan' }).click();

  await expect(page.getByTestId('research')).toHaveAttribute('data-status', 'done', { timeout: 120_000 });
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

  // Reloaded, the finished run shows its report again.
  await page.reload();
  await expect(page.getByTestId('research-report').getByTestId('report-section')).toHaveCount(2);

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
});
