import { type FakeOllama, startFakeOllama } from '../test/support/llm/fake-ollama';
import { ask, lastAnswer, openTrace, uploadDocument } from './chat-helpers';
import { FAKE_PORT, fakeRequests, fakeUp, script } from './fake-llm-control';
import { expect, test } from './fixtures';

// These specs run in the `chromium-llm` project, whose app server talks to the fake model (playwright.config.ts
// starts test/support/llm/fake-ollama-server.ts on FAKE_OLLAMA_PORT, default 11999). The fake server is started here,
// in this process, unless one answers.

const POLICY = `# Refund policy

Customers can return any product for a full refund. The refund window is 30 days from the date of delivery.
Refunds are paid to the original payment method within 5 business days after the return arrives.

## Shipping

Standard shipping takes 4 to 6 business days. Express shipping takes 1 to 2 business days and costs 12 euros.
`;

const PLAN = {
  intent: 'qa',
  buckets: [],
  dateFrom: '',
  dateTo: '',
  subQueries: ['refund window'],
  outputFormat: 'natural_language',
  steps: ['search_docs for the refund window', 'open_citation the best result', 'answer with a citation'],
};
const SEARCH = { action: 'tool_call', calls: [{ tool: 'search_docs', query: 'refund window days' }] };
const OPEN = { action: 'tool_call', calls: [{ tool: 'open_citation', handle: 'r1' }] };
const FINAL = { action: 'final', reason: 'the opened source answers the question' };

test.describe('chat with a (fake) language model', () => {
  let fake: FakeOllama | null = null;

  test.beforeAll(async () => {
    if (await fakeUp()) return;
    fake = await startFakeOllama({ port: FAKE_PORT });
  });

  test.afterAll(async () => {
    await fake?.close();
  });

  test('trace events and tokens stream in order; a misquote is rejected and rewritten', async ({ page, user }) => {
    expect(user.email).toContain('@');
    await uploadDocument(page, 'refund-policy.md', POLICY);
    await script({
      plan: [PLAN],
      decision: [SEARCH, OPEN, FINAL, FINAL],
      text: [
        { text: 'The refund window is "45 days from the date of delivery" [1].', tokenDelayMs: 100 },
        {
          text: 'The refund window is "30 days from the date of delivery" [1], and refunds are paid within 5 business days [1].',
          tokenDelayMs: 100,
        },
      ],
    });
    await page.goto('/chat');
    await expect(page.getByTestId('extractive-banner')).toHaveCount(0);

    // Record, in the page, when the first trace event and the first answer token appear, and every answer text.
    await page.evaluate(() => {
      const w = window as unknown as {
        __lat: {
          submit: number;
          trace: number | null;
          token: number | null;
          texts: string[];
          order: string[];
          seen: Record<string, number>;
        };
      };
      w.__lat = { submit: 0, trace: null, token: null, texts: [], order: [], seen: {} };
      const observer = new MutationObserver(() => {
        const now = performance.now();
        if (w.__lat.submit === 0) return;
        if (w.__lat.trace === null && document.querySelector('[data-testid="trace-event"]')) w.__lat.trace = now;
        const answer = document.querySelector('[data-testid="assistant-message"] [data-testid="answer"]');
        const text = answer?.textContent ?? '';
        if (text && w.__lat.token === null) w.__lat.token = now;
        if (text && text !== w.__lat.texts[w.__lat.texts.length - 1]) w.__lat.texts.push(text);
        for (const el of document.querySelectorAll('[data-testid="trace-event"]')) {
          const key = `${el.getAttribute('data-event-id')}`;
          if (!w.__lat.order.includes(key)) {
            w.__lat.order.push(key);
            w.__lat.seen[key] = Math.round(now - w.__lat.submit);
          }
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      // When the stream's bytes arrive (to tell network delay from rendering delay).
      const original = window.fetch.bind(window);
      (w.__lat as unknown as { chunks: string[] }).chunks = [];
      window.fetch = async (input, init) => {
        const response = await original(input, init);
        const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
        if (!url.includes('/api/chat') || !response.body) return response;
        const [a, b] = response.body.tee();
        void (async () => {
          const reader = b.getReader();
          const decoder = new TextDecoder();
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            const ids = [
              ...decoder.decode(value, { stream: true }).matchAll(/"type":"(data-trace|text-start)","id":"([^"]+)"/g),
            ].map((m) => m[2]);
            if (ids.length > 0)
              (w.__lat as unknown as { chunks: string[] }).chunks.push(
                `${ids.join(',')}@${Math.round(performance.now() - w.__lat.submit)}`,
              );
          }
        })();
        return new Response(a, { status: response.status, statusText: response.statusText, headers: response.headers });
      };
    });
    const box = page.getByLabel('Your question');
    await box.fill('How long is the refund window?');
    await page.evaluate(() => {
      (window as unknown as { __lat: { submit: number } }).__lat.submit = performance.now();
    });
    const submittedAt = Date.now();
    await box.press('Enter');

    const answer = lastAnswer(page);
    // The rejected draft is shown struck through while the rewrite streams.
    await expect(answer.getByTestId('rejected-draft')).toContainText('45 days', { timeout: 30_000 });
    await expect(answer).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
    await expect(answer.getByTestId('answer')).toContainText('30 days from the date of delivery');
    await expect(answer.getByTestId('answer')).not.toContainText('45 days');

    await openTrace(page);
    const trace = answer.getByTestId('trace');
    const types = await trace
      .locator('[data-testid="trace-event"]')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-type')));
    const firstIndex = (t: string) => types.indexOf(t);
    expect(firstIndex('plan')).toBe(0);
    expect(firstIndex('tool_result')).toBeGreaterThan(firstIndex('plan'));
    const failed = trace.locator('[data-type="validation"]', { hasText: 'not found' }).first();
    await expect(failed).toContainText('1 quote not found in the sources');
    await expect(failed).toContainText('— rewriting');
    await expect(trace.locator('[data-type="draft_rejected"]')).toContainText('Set draft 1 aside');
    await expect(trace.locator('[data-type="reprompt"]')).toContainText('Asked the model to rewrite');
    await expect(trace.locator('[data-type="validation"]', { hasText: 'match your documents' })).toHaveCount(1);
    const order = ['plan', 'tool_result', 'validation', 'draft_rejected', 'reprompt'];
    const positions = order.map((t) => firstIndex(t));
    expect(positions, `trace order ${types.join(' > ')}`).toEqual([...positions].sort((a, b) => a - b));
    expect(types[types.length - 1]).toBe('final');
    await expect(trace.locator('[data-type="tool_result"]', { hasText: 'Searched' }).first()).toContainText(
      'refund window days',
    );

    const lat = await page.evaluate(
      () =>
        (
          window as unknown as {
            __lat: {
              submit: number;
              trace: number | null;
              token: number | null;
              texts: string[];
              seen: Record<string, number>;
            };
          }
        ).__lat,
    );
    console.log(`[latency] trace cards first shown after submit (ms): ${JSON.stringify(lat.seen)}`);
    console.log(
      `[latency] stream chunks received after submit: ${(lat as unknown as { chunks: string[] }).chunks.join(' ')}`,
    );
    expect(lat.trace).not.toBeNull();
    expect(lat.token).not.toBeNull();
    // (the order of the stream itself is checked above; a loaded machine may paint both in the same frame)
    expect(lat.trace ?? 0).toBeLessThanOrEqual(lat.token ?? 0);
    // Token by token: the visible draft grew in several steps, each extending the previous text (per draft).
    // (A loaded machine may batch a few tokens per paint; slow tokens keep several separate updates.)
    expect(lat.texts.length, JSON.stringify(lat.texts)).toBeGreaterThan(4);
    let grows = 0;
    for (let i = 1; i < lat.texts.length; i++)
      if ((lat.texts[i] ?? '').startsWith(lat.texts[i - 1] ?? '\u0000')) grows++;
    expect(grows, JSON.stringify(lat.texts)).toBeGreaterThan(3);
    console.log(
      `[latency] submit → first trace event ${Math.round((lat.trace ?? 0) - lat.submit)} ms; submit → first answer token ${Math.round((lat.token ?? 0) - lat.submit)} ms; ${lat.texts.length} text updates`,
    );

    // What the app sent the model: a context size on every chat call, and the rejected draft's errors on the rewrite.
    const sent = await fakeRequests();
    const firstModelCall = sent.find((r) => r.kind !== 'embed');
    const firstDraft = sent.find((r) => r.kind === 'text');
    console.log(
      `[latency] submit → first model request ${(firstModelCall?.at ?? submittedAt) - submittedAt} ms; submit → first synthesis request ${(firstDraft?.at ?? submittedAt) - submittedAt} ms; ${sent.filter((r) => r.kind !== 'embed').length} model calls`,
    );
    console.log(
      `[latency] model calls after submit (ms): ${sent.map((r) => `${r.kind}@${r.at - submittedAt}`).join(' ')}`,
    );
    const chats = sent.filter((r) => r.kind !== 'embed');
    expect(chats.length).toBeGreaterThan(4);
    for (const r of chats) expect(r.options?.num_ctx ?? 0).toBeGreaterThan(2048);
    const drafts = chats.filter((r) => r.kind === 'text');
    expect(drafts.length).toBeGreaterThanOrEqual(2);
    expect(drafts[1]?.messages?.map((m) => m.content).join('\n')).toContain('YOUR PREVIOUS DRAFT WAS REJECTED');

    await answer.getByRole('button', { name: 'Show source 1' }).first().click();
    await expect(page.getByTestId('citation-panel').getByTestId('quoted-span')).toBeVisible();
    await page.setViewportSize({ width: 1440, height: 1200 });
    await page.getByTestId('chat-scroller').evaluate((el) => {
      el.scrollTop = 0;
    });
    await page.screenshot({ path: '/tmp/chat-llm.png', fullPage: false });
    await page.getByTestId('chat-scroller').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await page.screenshot({ path: '/tmp/chat-llm-bottom.png', fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Close source' }).click();
    await page.screenshot({ path: '/tmp/chat-mobile.png', fullPage: false });
  });

  test('Stop mid-answer keeps what was written and saves the answer as stopped', async ({ page, user }) => {
    expect(user.email).toContain('@');
    await uploadDocument(page, 'refund-policy.md', POLICY);
    const slow = Array.from({ length: 80 }, (_, i) => (i === 0 ? 'The refund window is 30 days [1].' : 'More')).join(
      ' ',
    );
    await script({ plan: [PLAN], decision: [SEARCH, OPEN, FINAL], text: [{ text: slow, tokenDelayMs: 150 }] });
    await page.goto('/chat');
    await ask(page, 'How long is the refund window?');
    const answer = lastAnswer(page);
    await expect(answer.getByTestId('answer')).toContainText('refund window', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect(answer).toHaveAttribute('data-status', 'stopped');
    await expect(answer.getByTestId('answer-stopped')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send' })).toBeVisible();
    await expect(page).toHaveURL(/\/chat\/[0-9a-f-]{36}$/);
    const conversationId = page.url().split('/').pop() ?? '';

    // The server aborted the model call and saved the partial answer as stopped.
    await expect
      .poll(async () => {
        const res = await page.request.get(`/api/conversations/${conversationId}`);
        const body = (await res.json()) as { messages: Array<{ role: string; metadata?: { status?: string } }> };
        return body.messages.find((m) => m.role === 'assistant')?.metadata?.status ?? null;
      })
      .toBe('stopped');
    const sent = await fakeRequests();
    const draft = sent.filter((r) => r.kind === 'text').pop();
    expect(draft?.aborted).toBe(true);
    expect(draft?.tokensSent ?? 0).toBeLessThan(80);

    await page.reload();
    await expect(lastAnswer(page)).toHaveAttribute('data-status', 'stopped');
    await expect(lastAnswer(page).getByTestId('answer-stopped')).toBeVisible();

    // Retry re-asks the same question as a new turn of the same conversation.
    await script({ plan: [PLAN], decision: [SEARCH, OPEN, FINAL], text: ['The refund window is 30 days [1].'] });
    await lastAnswer(page).getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('assistant-message')).toHaveCount(2);
    await expect(lastAnswer(page)).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
    await expect(page.getByTestId('user-message')).toHaveCount(2);
    await expect(page.getByTestId('user-message').last()).toHaveText('How long is the refund window?');
    await expect(page).toHaveURL(new RegExp(`/chat/${conversationId}$`));
    await page.reload();
    await expect(page.getByTestId('assistant-message')).toHaveCount(2);
  });
});
