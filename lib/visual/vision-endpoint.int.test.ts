import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createModelRegistry } from '@/lib/llm/registry';
import { buildTextPdf } from '../../test/support/ingest/minimal-pdf';
import { type FakeOllama, startFakeOllama } from '../../test/support/llm/fake-ollama';
import { createVisionPort } from './port';
import { renderPdfPage, scaleImage } from './render';

/** The vision path over real HTTP: a rendered PDF page goes to an Ollama-compatible vision endpoint (the fake). */

let fake: FakeOllama;
let pdf: string;

beforeAll(async () => {
  fake = await startFakeOllama({ models: ['qwen3:8b', 'nomic-embed-text', 'fake-vl'] });
  const dir = await mkdtemp(path.join(tmpdir(), 'vision-endpoint-'));
  pdf = path.join(dir, 'chart.pdf');
  await writeFile(pdf, buildTextPdf([['Sales by region'], ['Figure 2: sales by region, 2024']]));
});

afterAll(async () => {
  await fake.close();
});

describe('vision endpoint', () => {
  it('sends one bounded page image to the configured vision model and returns its reading', async () => {
    const registry = createModelRegistry({
      provider: 'ollama',
      baseURL: fake.url,
      decisionModel: 'qwen3:8b',
      synthesisModel: 'qwen3:8b',
      embeddingModel: 'nomic-embed-text',
      numCtx: 4096,
      timeouts: { planMs: 5000, decisionMs: 5000, synthesisMs: 5000, embedMs: 5000 },
    });
    const port = createVisionPort({
      model: registry.chat('fake-vl'),
      modelName: 'fake-vl',
      timeoutMs: 10_000,
      maxImagePx: 640,
      flaggedPages: async () => [],
      locate: async (ownerId) => (ownerId === 'alice' ? { path: pdf, mime: 'application/pdf' } : null),
      renderPdfPage,
      scaleImage,
    });
    const reading = await port.read({
      ownerId: 'alice',
      documentId: 'doc',
      page: 2,
      question: 'Which region sold most?',
    });
    expect(reading?.text).toContain('bar chart');
    const size = /\((\d+)x(\d+) pixels\)/.exec(reading?.text ?? '');
    expect(size).not.toBeNull();
    expect(Math.max(Number(size?.[1]), Number(size?.[2]))).toBeLessThanOrEqual(640);
    const calls = fake.requests.filter((r) => r.path === '/api/chat');
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ model: 'fake-vl', images: 1 });
    expect(await port.read({ ownerId: 'bob', documentId: 'doc', page: 2, question: 'q' })).toBeNull();
    expect(fake.requests.filter((r) => r.path === '/api/chat')).toHaveLength(1);
  });
});
