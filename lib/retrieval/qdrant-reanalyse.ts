import type { QdrantClient, Schemas } from '@qdrant/js-client-rest';
import { z } from 'zod';
import { yieldToEventLoop } from '@/lib/event-loop';
import { ANALYZER_VERSION } from '@/lib/retrieval/analyzer';
import { indexedText } from '@/lib/retrieval/qdrant-payload';
import { SPARSE_VECTOR } from '@/lib/retrieval/qdrant-requests';
import { type Bm25Params, documentSparseVector } from '@/lib/retrieval/sparse-bm25';

/**
 * Re-analysis of Qdrant sparse vectors made by another analyser version. Each point stores the version its `bm25`
 * vector was made with (`analyzer` in the payload; absent on points written before versions were stored); when
 * the analyser's rules change (ANALYZER_VERSION), the points of other versions are found with one indexed filter
 * and their sparse vectors rebuilt from the text in their payload, a page at a time, then marked current. Dense
 * vectors and every other payload key are untouched. Idempotent: two app instances doing it at once write the
 * same vectors, and a run cut short is resumed by the next start. It runs in the background after start-up
 * (qdrant-chunk-index.ts): searches are answered meanwhile, and a query in Chinese, Japanese, Thai, Lao, Khmer or
 * Burmese may miss a point not re-analysed yet (its old vector holds a whole run of those characters as one term;
 * text in other scripts analyses the same in both versions, so those queries are exact).
 */

/** Points whose sparse vector was not made by the current analyser. */
export const STALE_ANALYSIS_FILTER: Schemas['Filter'] = {
  must_not: [{ key: 'analyzer', match: { value: ANALYZER_VERSION } }],
};

const PAGE = 256;

const storedText = z.object({
  text: z.string().catch(''),
  contextPrefix: z.string().catch(''),
  language: z.string().optional().catch(undefined),
});

/** Runs one client call (the index's wrapper, which translates failures). */
type Call = <T>(operation: string, run: () => Promise<T>) => Promise<T>;

/**
 * Rebuilds the sparse vectors of every stale point of `collection`; returns how many points were rewritten.
 * `shouldStop` is read between pages (the index is closing): the rest is left for the next start; `onPage` hears
 * how many points each page marked current.
 */
export async function reanalyseStalePoints(
  client: QdrantClient,
  collection: string,
  bm25: Bm25Params,
  call: Call,
  control: { shouldStop?: () => boolean; onPage?: (points: number) => void } = {},
): Promise<number> {
  let total = 0;
  for (;;) {
    if (control.shouldStop?.()) return total;
    // A page's analysis is main-thread work: let waiting requests run first.
    await yieldToEventLoop();
    const page = await call('scroll stale analyses', () =>
      client.scroll(collection, {
        filter: STALE_ANALYSIS_FILTER,
        limit: PAGE,
        with_payload: ['text', 'contextPrefix', 'language'],
        with_vector: false,
      }),
    );
    if (page.points.length === 0) return total;
    const points = page.points.map((point) => {
      const stored = storedText.parse(point.payload ?? {});
      return {
        id: point.id,
        vector: { [SPARSE_VECTOR]: documentSparseVector(indexedText(stored), bm25, stored.language) },
      };
    });
    await call('re-analyse sparse vectors', () => client.updateVectors(collection, { points, wait: true }));
    await call('mark analyser version', () =>
      client.setPayload(collection, {
        payload: { analyzer: ANALYZER_VERSION },
        points: page.points.map((point) => point.id),
        wait: true,
      }),
    );
    total += page.points.length;
    control.onPage?.(page.points.length);
  }
}
