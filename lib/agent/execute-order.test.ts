import { describe, expect, it } from 'vitest';
import { buildFixture, NO_MODELS, OWNER } from '../../test/support/agent/fixtures';
import type { ChunkIndex } from '../retrieval/types';
import { runAgent } from './run-agent';

/** The fixture's index with each search held back by `delay(query)` milliseconds. */
function delayed(index: ChunkIndex, delay: (query: string) => number): ChunkIndex {
  return new Proxy(index, {
    get(target, key, receiver) {
      if (key !== 'search') return Reflect.get(target, key, receiver);
      return async (q: Parameters<ChunkIndex['search']>[0]) => {
        const hits = await target.search(q);
        await new Promise((resolve) => setTimeout(resolve, delay(q.query)));
        return hits;
      };
    },
  });
}

describe('searches of one step finish in any order', () => {
  // A compound question: its two parts are searched side by side.
  const question = 'What are the API rate limits per token, and what is the parking policy for visitors?';

  it('records results in the order the calls were made, so the same question gets the same answer', async () => {
    const runs: string[][] = [];
    const answers: string[] = [];
    // first part slow, then second part slow, then neither
    for (const slow of ['rate', 'parking', '']) {
      const f = await buildFixture();
      const index = delayed(f.index, (query) => (slow && query.toLowerCase().includes(slow) ? 60 : 0));
      const result = await runAgent(
        { question, ownerId: OWNER, mode: 'agent', style: 'concise' },
        { index, catalog: f.catalog, embedder: null, models: NO_MODELS },
      );
      const searched = result.trace.flatMap((e) =>
        e.type === 'tool_result' && e.tool === 'search_docs' ? [String(e.input?.query ?? '')] : [],
      );
      runs.push(searched);
      answers.push(`${result.answer}\n${JSON.stringify(result.insufficiencies)}`);
    }
    expect(runs[0]?.length).toBeGreaterThan(1);
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
    expect(answers[1]).toBe(answers[0]);
    expect(answers[2]).toBe(answers[0]);
  });
});
