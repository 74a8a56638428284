import { expect, type Page } from '@playwright/test';

/** Shared steps of the chat specs: upload a document through the API and wait until it is indexed; ask a question. */

export async function uploadDocument(
  page: Page,
  name: string,
  text: string,
  contentType = 'text/markdown',
): Promise<string> {
  const response = await page.request.post('/api/documents/upload', {
    data: Buffer.from(text, 'utf8'),
    headers: { 'x-file-name': encodeURIComponent(name), 'content-type': contentType },
  });
  expect(response.status(), await response.text()).toBeLessThan(300);
  let id: string | null = null;
  await expect
    .poll(
      async () => {
        const res = await page.request.get('/api/documents');
        const body = (await res.json()) as {
          documents: Array<{ id: string; filename: string; status: string; error: string | null }>;
        };
        const doc = body.documents.find((d) => d.filename === name);
        if (doc?.status === 'FAILED') throw new Error(`indexing failed: ${doc.error}`);
        id = doc?.id ?? null;
        return doc?.status;
      },
      { timeout: 60_000, intervals: [250, 500, 1000] },
    )
    .toBe('INDEXED');
  if (!id) throw new Error('uploaded document not found');
  return id;
}

/** Types the question into the composer and sends it with Enter. */
export async function ask(page: Page, question: string): Promise<void> {
  const box = page.getByLabel('Your question');
  await box.fill(question);
  await box.press('Enter');
}

/** The last assistant message. */
export function lastAnswer(page: Page) {
  return page.getByTestId('assistant-message').last();
}

/** Opens the trace of a message if it is collapsed. */
export async function openTrace(page: Page, message = lastAnswer(page)): Promise<void> {
  const toggle = message.getByTestId('trace').getByRole('button').first();
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

/** Fails the test when a dialog opens (an injected alert) and returns a check that no script ran. */
export function guardAgainstInjection(page: Page): () => Promise<void> {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return async () => {
    expect(dialogs, 'no dialog may open').toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
  };
}
