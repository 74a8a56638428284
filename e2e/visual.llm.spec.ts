import fs from 'node:fs';
import path from 'node:path';
import { type FakeOllama, startFakeOllama } from '../test/support/llm/fake-ollama';
import { ask, lastAnswer, openTrace } from './chat-helpers';
import { FAKE_PORT, fakeRequests, fakeUp, script } from './fake-llm-control';
import { expect, test } from './fixtures';

// Runs in the `chromium-llm` project, whose server has LLM_VISION_MODEL=fake-vl (playwright.config.ts): the agent
// reads a PDF page flagged at ingest as a picture with visual_interpretation, and the fake Ollama answers the
// vision call with a fixed description naming the image size it received.

// The shared corpus sits beside the repository (../shared/data/documents).
const FIGURE_PDF = path.resolve(process.cwd(), '../shared/data/documents/pdfplumber/figure_structure.pdf');

const PLAN = {
  intent: 'qa',
  buckets: [],
  dateFrom: '',
  dateTo: '',
  subQueries: ['chart figure'],
  outputFormat: 'natural_language',
  steps: ['search_docs for the chart', 'visual_interpretation of its page', 'answer with a citation'],
};

test.describe('visual pages with a (fake) vision model', () => {
  let fake: FakeOllama | null = null;

  test.beforeAll(async () => {
    if (await fakeUp()) return;
    fake = await startFakeOllama({ port: FAKE_PORT });
  });

  test.afterAll(async () => {
    await fake?.close();
  });

  test('a flagged page is read as a picture, cited with its page, and never accepted as a quote', async ({
    page,
    user,
  }) => {
    expect(user.email).toContain('@');
    test.skip(!fs.existsSync(FIGURE_PDF), 'the shared test data is not on this machine');
    const upload = await page.request.post('/api/documents/upload', {
      data: fs.readFileSync(FIGURE_PDF),
      headers: { 'x-file-name': 'figures.pdf', 'content-type': 'application/pdf' },
    });
    expect(upload.status(), await upload.text()).toBeLessThan(300);
    await expect
      .poll(
        async () => {
          const body = (await (await page.request.get('/api/documents')).json()) as {
            documents: Array<{ filename: string; status: string }>;
          };
          return body.documents.find((d) => d.filename === 'figures.pdf')?.status;
        },
        { timeout: 60_000, intervals: [250, 500, 1000] },
      )
      .toBe('INDEXED');

    await script({
      plan: [PLAN],
      decision: [
        { action: 'tool_call', calls: [{ tool: 'search_docs', query: 'chart figure colonne' }] },
        { action: 'tool_call', calls: [{ tool: 'visual_interpretation', handle: 'r1' }] },
        { action: 'final', reason: 'the page was read' },
        { action: 'final', reason: 'the page was read' },
      ],
      text: [
        // A quote from a model's reading of a picture is refused by the gate; the rewrite cites it without quoting.
        'The chart shows that "South being the tallest" [1].',
        'The chart shows three bars labelled North, South and West, South being the tallest [1].',
      ],
    });
    await page.goto('/chat');
    await ask(page, 'What does the chart in figures.pdf show?');
    const answer = lastAnswer(page);
    await expect(answer).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
    await expect(answer.getByTestId('answer')).toContainText('three bars labelled North, South and West');
    await expect(answer.getByTestId('answer')).not.toContainText('"South being the tallest"');

    await openTrace(page);
    const trace = answer.getByTestId('trace');
    await expect(trace.locator('[data-type="tool_result"]', { hasText: 'as a picture' })).toContainText(
      'figures.pdf p.1 as a picture',
    );
    await expect(trace.locator('[data-type="validation"]', { hasText: 'not found' }).first()).toContainText(
      'quote not found',
    );

    const vision = (await fakeRequests()).filter((r) => r.path === '/api/chat' && (r.images ?? 0) > 0);
    expect(vision).toHaveLength(1);
    expect(vision[0]?.model).toBe('fake-vl');
  });
});
