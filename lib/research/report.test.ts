import { describe, expect, it } from 'vitest';
import { failingModel, scriptedModel } from '../../test/support/agent/mock-models';
import { keyFindings, numberSections, reportMarkdown, sectionQuality } from './report';
import type { ResearchCitation, ResearchTask } from './schema';

const cite = (n: number, chunkId: string, filename: string): ResearchCitation => ({
  n,
  documentId: `doc-${filename}`,
  chunkId,
  filename,
  title: null,
  page: 2,
  sheet: null,
  headingPath: null,
  chunkIndex: 0,
  snippet: 's',
  quote: `quote from ${filename}`,
  quoteStart: 0,
  quoteEnd: 5,
  charStart: 0,
  charEnd: 10,
  score: 1,
});

const task = (
  id: string,
  answer: string,
  citations: ResearchCitation[],
  over: Partial<ResearchTask> = {},
): ResearchTask => ({
  id,
  title: `Task ${id}`,
  query: 'How do deployments run through the release pipeline?',
  order: 0,
  status: 'done',
  answer,
  citations,
  confidence: 'high',
  validated: true,
  trace: [],
  remediated: false,
  ...over,
});

const T1 = task(
  't1',
  'Deployments run through the release pipeline with migrations [1]. Traffic switches gradually [2].',
  [cite(1, 'c-guide', 'guide.md'), cite(2, 'c-traffic', 'traffic.md')],
);
const T2 = task('t2', 'The release pipeline deploys only after smoke tests pass [1]. It uses the guide [2].', [
  cite(1, 'c-release', 'release.md'),
  cite(2, 'c-guide', 'guide.md'),
]);

describe('numberSections', () => {
  it('numbers sources across the report, one number per passage, and lists each section’s sources', () => {
    const { sections, citations } = numberSections([T1, T2]);
    expect(citations.map((c) => [c.n, c.chunkId])).toEqual([
      [1, 'c-guide'],
      [2, 'c-traffic'],
      [3, 'c-release'],
    ]);
    expect(sections[1]?.text).toBe(
      'The release pipeline deploys only after smoke tests pass [3]. It uses the guide [1].',
    );
    expect(sections[1]?.sources.map((s) => s.n).sort()).toEqual([1, 3]);
    expect(sections[0]?.sources.map((s) => s.filename)).toEqual(['guide.md', 'traffic.md']);
  });

  it('leaves a marker with no source of its task as written (the gate already removed invented ones)', () => {
    const { sections } = numberSections([task('t', 'A claim about the release pipeline [7].', [])]);
    expect(sections[0]?.text).toBe('A claim about the release pipeline [7].');
    expect(sections[0]?.sources).toEqual([]);
  });
});

describe('sectionQuality', () => {
  it('scores cited, validated, relevant answers above uncited, unvalidated ones', () => {
    const good = sectionQuality(T1);
    const bad = sectionQuality(
      task('t3', 'Nothing in the documents covers this subject at all, sadly.', [], {
        validated: false,
        confidence: 'low',
      }),
    );
    expect(good).toBeGreaterThan(80);
    expect(bad).toBeLessThan(40);
  });
});

describe('keyFindings', () => {
  const { sections } = numberSections([T1, T2]);

  it('takes the first cited sentence of each section without a model', async () => {
    const out = await keyFindings('deployments?', sections, null);
    expect(out.source).toBe('extractive');
    expect(out.summary.split('\n')).toEqual([
      '- **Task t1**: Deployments run through the release pipeline with migrations [1].',
      '- **Task t2**: The release pipeline deploys only after smoke tests pass [3].',
    ]);
  });

  it('lets a model choose sentences by index, never write them', async () => {
    const model = scriptedModel({
      json: [
        {
          picks: [
            { section: 1, sentence: 1 },
            { section: 9, sentence: 0 },
          ],
        },
      ],
    });
    const out = await keyFindings('deployments?', sections, { model, timeoutMs: 5_000 });
    expect(out).toMatchObject({ source: 'model', summary: '- **Task t2**: It uses the guide [1].' });
  });

  it('falls back to the extractive findings when the model fails or picks nothing that exists', async () => {
    const extractive = (await keyFindings('deployments?', sections, null)).summary;
    for (const model of [failingModel(), scriptedModel({ json: [{ picks: [{ section: 5, sentence: 5 }] }] })]) {
      const out = await keyFindings('deployments?', sections, { model, timeoutMs: 5_000 });
      expect(out.source).toBe('extractive');
      expect(out.summary).toBe(extractive);
    }
  });
});

describe('reportMarkdown', () => {
  it('writes the title, key findings and one heading per section', () => {
    const { sections } = numberSections([T1]);
    expect(reportMarkdown({ title: 'Deployments', summary: '- x [1]', sections })).toBe(
      `# Deployments\n\n## Key findings\n\n- x [1]\n\n## Task t1\n\n${sections[0]?.text}`,
    );
  });
});
