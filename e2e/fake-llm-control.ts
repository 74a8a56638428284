import type { FakeRequest, FakeScript } from '../test/support/llm/fake-ollama';
import { expect } from './fixtures';

/** The deterministic Ollama-compatible server the chromium-llm project talks to (playwright.config.ts). */
export const FAKE_PORT = Number(process.env.FAKE_OLLAMA_PORT ?? 11999);
const FAKE = `http://127.0.0.1:${FAKE_PORT}`;

/** Whether the fake server already answers (started by Playwright's webServer), so a spec need not start one. */
export async function fakeUp(): Promise<boolean> {
  try {
    return (await fetch(`${FAKE}/__health`)).ok;
  } catch {
    return false;
  }
}

/** Scripts the fake server's next answers (plan, decisions, texts). */
export async function script(body: FakeScript): Promise<void> {
  const res = await fetch(`${FAKE}/__script`, { method: 'POST', body: JSON.stringify(body) });
  expect(res.ok).toBe(true);
}

/** The requests the fake server has received. */
export async function fakeRequests(): Promise<FakeRequest[]> {
  const res = await fetch(`${FAKE}/__requests`);
  return ((await res.json()) as { requests: FakeRequest[] }).requests;
}
