/**
 * Does the summary → segment route find the right section of a long document more often than segment search
 * alone? Parses and chunks the long documents of ../shared/data/documents (over 20,000 characters of text),
 * builds their sections and extractive summaries (lib/summaries), indexes the chunks in a fresh embedded chunk
 * index, and asks the hand-written conceptual questions of eval/summary-route/questions.json both ways (keyword
 * mode: no model is needed). A question is a section hit when the top result lies in a section that holds one of
 * its gold pages, a page hit when the top result is on a gold page.
 * Usage: npm run eval:summary-route [-- --verbose]
 */

import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseAndChunkPath } from '@/lib/ingest/parse-and-chunk';
import { createEmbeddedChunkIndex } from '@/lib/retrieval/embedded-chunk-index';
import type { IndexedChunk, SearchHit } from '@/lib/retrieval/types';
import { extractiveSummaries } from '@/lib/summaries/extractive';
import { summaryRoute } from '@/lib/summaries/route';
import type { SummaryRecord } from '@/lib/summaries/search';
import { buildSections, type Section } from '@/lib/summaries/sections';
import { recordFigures } from './figures';

const DATA = path.resolve(import.meta.dirname, '../../shared/data/documents');
const LONG_CHARS = 20_000;
const OWNER = 'eval-summary-route';
const verbose = process.argv.includes('--verbose');

const questionsSchema = z.object({
  questions: z.array(z.object({ document: z.string(), question: z.string(), goldPages: z.array(z.number()).min(1) })),
});

function longDocuments(): string[] {
  const manifest = readFileSync(path.join(DATA, 'MANIFEST.tsv'), 'utf8').split('\n').slice(1);
  return manifest
    .map((line) => line.split('\t'))
    .filter((cols) => Number(cols[7] ?? 0) > LONG_CHARS)
    .map((cols) => cols[0] ?? '')
    .filter(Boolean)
    .sort();
}

async function main() {
  const { questions } = questionsSchema.parse(
    JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../eval/summary-route/questions.json'), 'utf8')),
  );
  const dir = await mkdtemp(path.join(tmpdir(), 'eval-summary-route-'));
  const index = await createEmbeddedChunkIndex({ dir });
  const summaries: SummaryRecord[] = [];
  const sectionsByDoc = new Map<string, Section[]>();
  let summaryMs = 0;
  let sectionCount = 0;
  try {
    for (const doc of longDocuments()) {
      const out = await parseAndChunkPath(path.join(DATA, doc), {
        filename: path.basename(doc),
        ocr: { enabled: false },
      }).catch((error: unknown) => {
        console.warn(`skipped ${doc}: ${error instanceof Error ? error.message : String(error)}`);
        return null;
      });
      if (!out) continue;
      const chunks: IndexedChunk[] = out.chunks.map((c) => ({
        chunkId: `${doc}#${c.index}`,
        documentId: doc,
        ownerId: OWNER,
        index: c.index,
        text: c.text,
        contextPrefix: c.contextPrefix,
        tokenCount: c.tokenCount,
        page: c.page,
        sheet: c.sheet,
        rowStart: c.rowStart,
        rowEnd: c.rowEnd,
        headingPath: c.headingPath,
        charStart: c.charStart,
        charEnd: c.charEnd,
        vector: null,
        embeddingModel: null,
        bucketId: null,
        mime: 'application/pdf',
        filename: path.basename(doc),
        title: out.parsed.title ?? null,
        documentDate: null,
        tags: [],
        fields: {},
      }));
      await index.upsert(chunks);
      const t = performance.now();
      const sections = buildSections(out.chunks);
      const written = await extractiveSummaries(sections, out.chunks);
      summaryMs += performance.now() - t;
      sectionCount += sections.length;
      sectionsByDoc.set(doc, sections);
      for (const [i, s] of sections.entries()) summaries.push({ documentId: doc, ...s, text: written[i]?.text ?? '' });
      console.log(`${doc}: ${out.chunks.length} chunks, ${sections.length} sections`);
    }
    const source = { listSummaries: async () => summaries };
    const sectionOf = (hit: SearchHit | undefined) =>
      hit
        ? sectionsByDoc.get(hit.documentId)?.find((s) => hit.index >= s.chunkStart && hit.index <= s.chunkEnd)
        : undefined;
    const holdsGold = (section: Section | undefined, gold: number[]) =>
      section?.pageStart != null &&
      section.pageEnd != null &&
      gold.some((p) => p >= (section.pageStart ?? 0) && p <= (section.pageEnd ?? 0));
    const tally = { routeSection: 0, segSection: 0, routePage: 0, segPage: 0, routeMs: 0, segMs: 0 };
    for (const q of questions) {
      let t = performance.now();
      const seg = await index.search({ ownerId: OWNER, query: q.question, mode: 'keyword', topK: 10 });
      tally.segMs += performance.now() - t;
      t = performance.now();
      const route = await summaryRoute({ index, source, ownerId: OWNER, query: q.question, mode: 'keyword', topK: 10 });
      tally.routeMs += performance.now() - t;
      const segTop = seg[0];
      const routeTop = route.hits[0];
      const segOk = segTop?.documentId === q.document && holdsGold(sectionOf(segTop), q.goldPages);
      const routeSection = routeTop
        ? sectionOf(routeTop)
        : sectionsByDoc.get(route.sections[0]?.documentId ?? '')?.[route.sections[0]?.ordinal ?? -1];
      const routeDoc = routeTop?.documentId ?? route.sections[0]?.documentId;
      const routeOk = routeDoc === q.document && holdsGold(routeSection, q.goldPages);
      if (segOk) tally.segSection++;
      if (routeOk) tally.routeSection++;
      if (segTop?.documentId === q.document && q.goldPages.includes(segTop.page ?? -1)) tally.segPage++;
      if (routeTop?.documentId === q.document && q.goldPages.includes(routeTop.page ?? -1)) tally.routePage++;
      if (verbose)
        console.log(
          `${routeOk ? 'R+' : 'R-'} ${segOk ? 'S+' : 'S-'} gold ${q.goldPages.join(',')} | route p.${routeTop?.page ?? '-'} (${routeSection?.label ?? '-'}) | segment p.${segTop?.page ?? '-'} ${segTop?.documentId === q.document ? '' : `(${segTop?.documentId ?? 'none'})`} | ${q.question}`,
        );
    }
    const n = questions.length;
    const pct = (x: number) => Math.round((1000 * x) / n) / 10;
    const result = {
      questions: n,
      sections: sectionCount,
      summaryMsPerSection: Math.round((1000 * summaryMs) / Math.max(1, sectionCount)) / 1000,
      routeSectionHitPct: pct(tally.routeSection),
      segmentOnlySectionHitPct: pct(tally.segSection),
      routePageHitPct: pct(tally.routePage),
      segmentOnlyPageHitPct: pct(tally.segPage),
      routeMsPerQuery: Math.round((10 * tally.routeMs) / n) / 10,
      segmentMsPerQuery: Math.round((10 * tally.segMs) / n) / 10,
    };
    console.log(JSON.stringify(result, null, 2));
    const command = 'npm run eval:summary-route';
    recordFigures({
      'summary_route.section_hit_pct': { value: result.routeSectionHitPct, unit: '%', command },
      'summary_route.segment_only_hit_pct': { value: result.segmentOnlySectionHitPct, unit: '%', command },
      'summary_route.page_hit_pct': { value: result.routePageHitPct, unit: '%', command },
      'summary_route.segment_only_page_hit_pct': { value: result.segmentOnlyPageHitPct, unit: '%', command },
      'summary_route.route_ms_per_query': { value: result.routeMsPerQuery, unit: 'ms', command },
      'summary_route.extractive_ms_per_section': { value: result.summaryMsPerSection, unit: 'ms', command },
    });
  } finally {
    await index.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
