import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { makeChunk, makeDocument, OWNER } from '../../test/support/agent/fixtures';
import { createMemoryChunkIndex } from '../../test/support/agent/memory-chunk-index';
import { failingModel, scriptedModel } from '../../test/support/agent/mock-models';
import { extractiveSummaries, SUMMARY_MAX_CHARS } from './extractive';
import { modelSummaries } from './model';
import { summaryRoute } from './route';
import { rankSummaries, type SummaryRecord } from './search';
import { buildSections, LONG_DOCUMENT_TOKENS, SECTION_MAX_TOKENS, type SectionChunk } from './sections';

const TOPICS = [
  'Installing the pump. Mount the pump on a level concrete base and bolt the feet before connecting the pipes.',
  'Priming the pump. Fill the casing with water through the priming plug until no air bubbles escape.',
  'Cleaning the filter. Close the valves, open the filter housing and rinse the mesh basket under running water.',
  'Winter storage. Drain every pipe and the casing so that frost cannot crack the housing during cold months.',
];

function pages(perTopic: number, tokens = 300): SectionChunk[] {
  const out: SectionChunk[] = [];
  for (const topic of TOPICS)
    for (let i = 0; i < perTopic; i++)
      out.push({
        index: out.length,
        text: `${topic} Step ${i + 1} of this part repeats the advice with more detail for the reader.`,
        page: out.length + 1,
        sheet: null,
        headingPath: null,
        unitOrdinal: out.length,
        tokenCount: tokens,
      });
  return out;
}

describe('sections', () => {
  it('a short document has no sections; a long one is cut at page boundaries near the target size', () => {
    expect(buildSections(pages(1, 100))).toEqual([]);
    const sections = buildSections(pages(4));
    expect(sections.length).toBeGreaterThan(1);
    expect(sections[0]).toMatchObject({ ordinal: 0, chunkStart: 0, pageStart: 1 });
    expect(sections.map((s) => s.label)[0]).toMatch(/^pp\. 1–\d+$/);
  });

  it('cuts where the top two heading levels change', () => {
    const chunks = pages(4).map((c, i) => ({
      ...c,
      page: null,
      headingPath: `Manual > ${TOPICS[Math.floor(i / 4)]?.split('.')[0]} > Detail`,
    }));
    const sections = buildSections(chunks);
    expect(sections.map((s) => s.label)).toEqual(TOPICS.map((t) => `Manual > ${t.split('.')[0]}`));
  });

  it('tiles the chunks without gaps or overlaps and respects the maximum (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            tokens: fc.integer({ min: 1, max: 900 }),
            heading: fc.integer({ min: 0, max: 3 }),
            newUnit: fc.boolean(),
          }),
          { minLength: 1, maxLength: 80 },
        ),
        (spec) => {
          let unit = 0;
          const chunks: SectionChunk[] = spec.map((s, i) => {
            if (s.newUnit) unit++;
            return {
              index: i,
              text: 'x',
              page: unit + 1,
              sheet: null,
              headingPath: s.heading === 0 ? null : `H${s.heading}`,
              unitOrdinal: unit,
              tokenCount: s.tokens,
            };
          });
          const sections = buildSections(chunks);
          const total = chunks.reduce((n, c) => n + c.tokenCount, 0);
          if (total < LONG_DOCUMENT_TOKENS) expect(sections).toEqual([]);
          let next = 0;
          for (const s of sections) {
            expect(s.chunkStart).toBe(next);
            next = s.chunkEnd + 1;
            const size = chunks.slice(s.chunkStart, s.chunkEnd + 1).reduce((n, c) => n + c.tokenCount, 0);
            if (s.chunkEnd > s.chunkStart) expect(size).toBeLessThanOrEqual(SECTION_MAX_TOKENS);
          }
          if (sections.length > 0) expect(next).toBe(chunks.length);
        },
      ),
    );
  });
});

describe('extractive summaries', () => {
  it("name each section's distinctive words and stay within the size bound", async () => {
    const chunks = pages(4);
    const sections = buildSections(chunks);
    const summaries = await extractiveSummaries(sections, chunks);
    expect(summaries).toHaveLength(sections.length);
    for (const s of summaries) {
      expect(s.source).toBe('extractive');
      expect(s.text.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    }
    expect(summaries.some((s) => /priming|priming plug/i.test(s.text))).toBe(true);
  });
});

describe('model summaries', () => {
  it('use the model when it answers and fall back to extractive per section when it fails', async () => {
    const chunks = pages(4);
    const sections = buildSections(chunks);
    const ok = await modelSummaries({
      model: scriptedModel({ json: ['This part explains how to prime the pump before first use.'] }),
      timeoutMs: 1000,
      sections,
      chunks,
    });
    expect(ok.failed).toBe(0);
    expect(ok.summaries.every((s) => s.source === 'model' && s.text.includes('prime the pump'))).toBe(true);
    const bad = await modelSummaries({ model: failingModel(), timeoutMs: 1000, sections, chunks });
    expect(bad.failed).toBe(sections.length);
    expect(bad.summaries).toEqual(await extractiveSummaries(sections, chunks));
  });
});

function record(
  documentId: string,
  ordinal: number,
  text: string,
  chunkStart: number,
  chunkEnd: number,
): SummaryRecord {
  return { documentId, ordinal, label: `s${ordinal}`, chunkStart, chunkEnd, pageStart: null, pageEnd: null, text };
}

describe('summary search and the summary → segment route', () => {
  it('ranks the summary that shares the rare query terms first and ignores queries without terms', () => {
    const list = [
      record('d', 0, 'Installing the pump on a base', 0, 1),
      record('d', 1, 'Draining pipes for winter frost', 2, 3),
    ];
    expect(rankSummaries('protect against frost in winter', list, 3).map((s) => s.ordinal)).toEqual([1]);
    expect(rankSummaries('the of and', list, 3)).toEqual([]);
  });

  it('returns only passages inside the chosen sections, of the owner only', async () => {
    const doc = makeDocument({ filename: 'pump.pdf' });
    const index = createMemoryChunkIndex();
    await index.upsert([
      makeChunk(doc, 0, 'Mount the pump on a level base.'),
      makeChunk(doc, 1, 'The pump base must be level before bolting.'),
      makeChunk(doc, 2, 'Drain the pump casing before frost.'),
    ]);
    const source = {
      listSummaries: async (ownerId: string) =>
        ownerId === OWNER
          ? [
              record(doc.documentId, 0, 'Installation on a level base', 0, 1),
              record(doc.documentId, 1, 'Winter frost storage', 2, 2),
            ]
          : [],
    };
    const route = await summaryRoute({
      index,
      source,
      ownerId: OWNER,
      query: 'pump frost',
      mode: 'keyword',
      topK: 5,
      topSections: 1,
    });
    expect(route.sections.map((s) => s.ordinal)).toEqual([1]);
    expect(route.hits.map((h) => h.index)).toEqual([2]);
    expect(route.hits[0]?.section).toBe('s1');
    const foreign = await summaryRoute({
      index,
      source,
      ownerId: 'someone-else',
      query: 'pump frost',
      mode: 'keyword',
      topK: 5,
    });
    expect(foreign).toMatchObject({ sections: [], hits: [], scanned: 0 });
  });
});
