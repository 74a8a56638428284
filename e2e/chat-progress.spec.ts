import { recordFigures } from '../scripts/figures';
import { lastAnswer, uploadDocument } from './chat-helpers';
import { expect, test } from './fixtures';

// How soon the page shows that it is working: from the Enter that sends a question to the first trace card or
// answer text painted in the new answer (a "Starting…" placeholder does not count). A first question, then twenty
// more, in extractive mode (the default e2e server has no model). `npm run bench:ui` records the p95 in
// docs/figures.json.

const POLICY = `# Refund policy

Customers can return any product for a full refund. The refund window is 30 days from the date of delivery.
Refunds are paid to the original payment method within 5 business days after the return arrives.

## Shipping

Standard shipping takes 4 to 6 business days. Express shipping takes 1 to 2 business days and costs 12 euros.
`;

const ASKED = [
  // The first question is the server's first answer since it started (cold: modules load, caches fill); it is
  // reported on its own and kept out of the percentiles of the ten that follow.
  'What does the refund policy say?',
  'How long is the refund window?',
  'How are refunds paid?',
  'How long does standard shipping take?',
  'How much does express shipping cost?',
  'Can customers return any product?',
  'When are refunds paid after the return arrives?',
  'How long does express shipping take?',
  'What is the refund policy?',
  'Which payment method receives the refund?',
  'What does shipping cost?',
];

// Twenty warm samples (the ten questions twice): with ten, the nearest-rank p95 is simply the slowest one.
const QUESTIONS = [...ASKED, ...ASKED.slice(1)];

/** Nearest-rank percentile. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

test('first visible progress after submit, over a first question and twenty more', async ({ page, user }) => {
  test.setTimeout(240_000);
  expect(user.email).toContain('@');
  await uploadDocument(page, 'refund-policy.md', POLICY);
  await page.goto('/chat');
  const samples: number[] = [];
  for (const [i, question] of QUESTIONS.entries()) {
    const box = page.getByLabel('Your question');
    await box.fill(question);
    // Arm an observer in the page: the clock starts at the Enter keydown, stops at the first paint of a trace
    // card or answer text inside answer number i+1.
    await page.evaluate((index) => {
      const w = window as unknown as { __progress: { start: number; first: number | null } };
      w.__progress = { start: 0, first: null };
      const area = document.querySelector('textarea');
      area?.addEventListener(
        'keydown',
        (e) => {
          if (e.key === 'Enter') w.__progress.start = performance.now();
        },
        { capture: true, once: true },
      );
      const seen = () => {
        const answer = document.querySelectorAll('[data-testid="assistant-message"]')[index];
        if (!answer) return false;
        return Boolean(
          answer.querySelector('[data-testid="trace-event"]') ||
            answer.querySelector('[data-testid="answer"]')?.textContent?.trim(),
        );
      };
      const observer = new MutationObserver(() => {
        if (w.__progress.first === null && w.__progress.start > 0 && seen()) {
          w.__progress.first = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    }, i);
    await box.press('Enter');
    await expect(page.getByTestId('assistant-message')).toHaveCount(i + 1);
    await expect(lastAnswer(page)).toHaveAttribute('data-status', 'complete', { timeout: 60_000 });
    const p = await page.evaluate(
      () => (window as unknown as { __progress: { start: number; first: number | null } }).__progress,
    );
    expect(p.first, 'a trace card or answer text appeared').not.toBeNull();
    samples.push((p.first ?? 0) - p.start);
  }
  const [cold = Number.NaN, ...warm] = samples;
  const p95 = percentile(warm, 95);
  const p50 = percentile(warm, 50);
  console.log(`[progress] submit → first trace card or text (ms): ${samples.map((s) => Math.round(s)).join(' ')}`);
  console.log(
    `[progress] first question ${Math.round(cold)} ms; then p50 ${Math.round(p50)} ms, p95 ${Math.round(p95)} ms`,
  );
  if (process.env.RECORD_FIGURES === '1') {
    recordFigures({
      'ui.first_progress_ms_p95': { value: Math.round(p95), unit: 'ms', command: 'npm run bench:ui' },
      'ui.first_progress_ms_p50': { value: Math.round(p50), unit: 'ms', command: 'npm run bench:ui' },
      'ui.first_progress_ms_first_question': { value: Math.round(cold), unit: 'ms', command: 'npm run bench:ui' },
    });
  }
  // A regression bound, not the target: the target (150 ms) is what docs/benchmarks.md reports against.
  expect(p95).toBeLessThan(2_000);
});
