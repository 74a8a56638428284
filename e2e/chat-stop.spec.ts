import { ask, lastAnswer, uploadDocument } from './chat-helpers';
import { expect, test } from './fixtures';

// Issue #17: Stop pressed before the first byte of the answer reached the page said "No answer was saved" although
// the server went on and saved the whole answer, and a reload showed an empty new chat (the page had never learnt
// the new conversation's id). Reproduced by holding the server's response back from the page: the server runs
// and saves as usual, the page sees nothing until it stops.

const POLICY = `# Refund policy

Customers can return any product for a full refund. The refund window is 30 days from the date of delivery.
Refunds are paid to the original payment method within 5 business days after the return arrives.
`;

test('Stop before the first byte shows what the server saved, and the conversation survives a reload', async ({
  page,
  user,
}) => {
  expect(user.email).toContain('@');
  await uploadDocument(page, 'refund-policy.md', POLICY);
  let serverDone: () => void = () => {};
  const serverFinished = new Promise<void>((resolve) => {
    serverDone = resolve;
  });
  await page.route('**/api/chat', async (route) => {
    // The whole run happens on the server (and is saved); the page gets nothing of it.
    const response = await route.fetch();
    await response.body();
    serverDone();
    await new Promise((r) => setTimeout(r, 30_000));
    await route.fulfill({ response }).catch(() => {});
  });
  await page.goto('/chat');
  await ask(page, 'How long is the refund window?');
  await serverFinished;
  await page.getByRole('button', { name: 'Stop' }).click();

  await expect(page.getByRole('button', { name: 'Send' })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText('No answer was saved')).toHaveCount(0);
  await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
  const url = page.url();
  // The run had finished on the server: the page shows the saved answer as it was saved.
  await expect(lastAnswer(page)).toHaveAttribute('data-status', 'complete');
  await expect(lastAnswer(page).getByTestId('answer')).toContainText('30 days');
  await expect(page.getByTestId('conversation-link').first()).toContainText('refund window');

  await page.unrouteAll({ behavior: 'ignoreErrors' });
  await page.reload();
  await expect(page).toHaveURL(url);
  await expect(page.getByTestId('user-message')).toHaveText('How long is the refund window?');
  await expect(lastAnswer(page).getByTestId('answer')).toContainText('30 days');
});
