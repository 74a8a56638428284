import { describe, expect, it } from 'vitest';
import { extractiveSections } from '@/lib/summaries/extractive';
import { parseAndChunkBytes } from './parse-and-chunk';

const BODY = 'Mount the pump on a level concrete base and bolt the feet before connecting the suction pipe.';
const MANUAL = `# Manual\n\n${['Installation', 'Priming', 'Cleaning']
  .map(
    (h) =>
      `## ${h}\n\n${Array.from({ length: 40 }, (_, i) => `${BODY} Paragraph ${i + 1} adds more detail for the reader.`).join('\n\n')}`,
  )
  .join('\n\n')}\n`;

describe('parseAndChunkBytes derived summaries', () => {
  it('computes the extractive summaries by default and skips them when asked, with the same chunks', async () => {
    const bytes = new TextEncoder().encode(MANUAL);
    const withSummaries = await parseAndChunkBytes(bytes, { filename: 'manual.md' });
    const without = await parseAndChunkBytes(bytes, { filename: 'manual.md', extractiveSummaries: false });
    expect(withSummaries.derived.summaries).toEqual(await extractiveSections(withSummaries.chunks));
    expect(withSummaries.derived.summaries?.length).toBeGreaterThan(0);
    expect(without.derived.summaries).toBeNull();
    expect(without.chunks).toEqual(withSummaries.chunks);
    expect(without.derived.languages).toEqual(withSummaries.derived.languages);
  });
});
