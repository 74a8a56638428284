import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDbReady, getDb } from '@/lib/db/client';
import { claimNextJob } from '@/lib/db/jobs';
import { listDocumentSections, listSectionSummaries } from '@/lib/db/summaries';
import { listVisualPages } from '@/lib/db/visual-pages';
import { registerUpload } from '@/lib/ingest/intake';
import { runJob, type WorkerDeps } from '@/lib/ingest/jobs';
import { shutdownParseWorkers } from '@/lib/ingest/sandbox';
import { saveUploadStream } from '@/lib/ingest/storage';
import { createEmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import type { ChunkIndex } from '@/lib/retrieval/types';
import { createTestUser } from '@/test/factories';
import { scriptedModel } from '@/test/support/agent/mock-models';

/** Ingest writes section summaries (extractive, or the summary model's) and visual page flags, owner-scoped. */

const TOPICS = [
  ['Installation', 'Mount the pump on a level concrete base and bolt the feet before connecting the suction pipe.'],
  ['Priming', 'Fill the casing with water through the priming plug until no air bubbles escape from the vent.'],
  ['Cleaning', 'Close both valves, open the filter housing and rinse the mesh basket under running water.'],
  ['Storage', 'Drain every pipe and the casing so that frost cannot crack the housing during the cold months.'],
];
const MANUAL = `# Pump manual\n\n${TOPICS.map(
  ([h, body]) =>
    `## ${h}\n\n${Array.from({ length: 40 }, (_, i) => `${body} Paragraph ${i + 1} adds more detail for the reader.`).join('\n\n')}`,
).join('\n\n')}\n`;
const FIGURE_PDF = '/work/shared/data/documents/pdfplumber/figure_structure.pdf';

async function* once(bytes: Uint8Array) {
  yield bytes;
}

let index: ChunkIndex;
let indexDir: string;

beforeAll(async () => {
  await ensureDbReady();
  indexDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docuchat-summaries-'));
  index = await createEmbeddedChunkIndex({ dir: indexDir });
  await getDb().document.updateMany({ where: { status: 'PENDING' }, data: { status: 'FAILED' } });
});

afterAll(async () => {
  await index.close();
  await shutdownParseWorkers();
  fs.rmSync(indexDir, { recursive: true, force: true });
});

async function upload(ownerId: string, name: string, bytes: Uint8Array, mime: string) {
  const stored = await saveUploadStream({ body: once(bytes), maxBytes: 5_000_000 });
  return registerUpload({ ownerId, stored, filename: name, declaredMime: mime, bucketId: null });
}

async function processAll(extra: Partial<WorkerDeps> = {}) {
  const deps: WorkerDeps = {
    index,
    concurrency: 1,
    limits: { parseTimeoutMs: 60_000, parseMaxMemoryMb: 512 },
    resolveEmbedder: async () => null,
    ...extra,
  };
  for (;;) {
    const id = await claimNextJob('test');
    if (!id) return;
    await runJob(deps, id, () => false);
  }
}

describe('summaries and visual flags at ingest', () => {
  it('writes extractive section summaries for a long document, readable by its owner only', async () => {
    const alice = await createTestUser('sum-a');
    const bob = await createTestUser('sum-b');
    const { document } = await upload(alice.id, 'pump.md', Buffer.from(MANUAL), 'text/markdown');
    await processAll();
    const summaries = await listSectionSummaries(alice.id);
    expect(summaries.map((s) => s.label)).toEqual(TOPICS.map(([h]) => `Pump manual > ${h}`));
    expect(summaries.every((s) => s.documentId === document.id)).toBe(true);
    expect(summaries[1]?.text).toMatch(/prim/i);
    const rows = await getDb().sectionSummary.findMany({ where: { documentId: document.id } });
    expect(rows.every((r) => r.source === 'extractive')).toBe(true);
    expect(await listSectionSummaries(bob.id)).toEqual([]);
    expect(await listSectionSummaries(bob.id, [document.id])).toEqual([]);
    const api = await listDocumentSections(alice.id, document.id);
    expect(api[0]).toMatchObject({ ordinal: 0, label: 'Pump manual > Installation', source: 'extractive' });
    expect(api[0]?.summary).toBe(summaries[0]?.text);
    expect(await listDocumentSections(bob.id, document.id)).toEqual([]);
  });

  it('stores the same extractive summaries when a configured summary model does not answer', async () => {
    // The parse worker skips the extractive summaries when a model is configured; the pipeline computes them when
    // the model does not answer: the stored rows must equal those of an install without a model.
    const frank = await createTestUser('sum-f');
    const grace = await createTestUser('sum-g');
    await upload(frank.id, 'pump.md', Buffer.from(MANUAL), 'text/markdown');
    await processAll();
    await upload(grace.id, 'pump.md', Buffer.from(MANUAL), 'text/markdown');
    let asked = 0;
    await processAll({
      summaryModelConfigured: true,
      resolveSummaryModel: async () => {
        asked++;
        return null;
      },
    });
    expect(asked).toBe(1);
    const stored = async (ownerId: string) =>
      (await getDb().sectionSummary.findMany({ where: { ownerId }, orderBy: { ordinal: 'asc' } })).map(
        ({ ordinal, label, chunkStart, chunkEnd, pageStart, pageEnd, text, source, tokenCount }) => ({
          ordinal,
          label,
          chunkStart,
          chunkEnd,
          pageStart,
          pageEnd,
          text,
          source,
          tokenCount,
        }),
      );
    const withoutModel = await stored(frank.id);
    expect(withoutModel).toHaveLength(TOPICS.length);
    expect(await stored(grace.id)).toEqual(withoutModel);
  });

  it('uses the summary model when one is resolved', async () => {
    const carol = await createTestUser('sum-c');
    await upload(carol.id, 'pump-2.md', Buffer.from(MANUAL.replace('Pump manual', 'Pump guide')), 'text/markdown');
    const model = scriptedModel({ json: ['This section explains one step of looking after the pump.'] });
    await processAll({ summaryModelConfigured: true, resolveSummaryModel: async () => ({ model, timeoutMs: 5000 }) });
    const rows = await getDb().sectionSummary.findMany({ where: { ownerId: carol.id } });
    expect(rows.length).toBe(TOPICS.length);
    expect(rows.every((r) => r.source === 'model' && r.text.includes('looking after the pump'))).toBe(true);
  });

  it.skipIf(!fs.existsSync(FIGURE_PDF))('flags a PDF page that draws a figure, for its owner only', async () => {
    const dave = await createTestUser('vis-d');
    const erin = await createTestUser('vis-e');
    const { document } = await upload(dave.id, 'figure.pdf', fs.readFileSync(FIGURE_PDF), 'application/pdf');
    await processAll();
    const flags = await listVisualPages(dave.id, [document.id]);
    expect(flags).toHaveLength(1);
    expect(flags[0]).toMatchObject({ documentId: document.id, page: 1 });
    expect(await listVisualPages(erin.id, [document.id])).toEqual([]);
  });
});
