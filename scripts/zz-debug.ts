import path from 'node:path';
import { runAgent } from '@/lib/agent/run-agent';
import { createMemoryCatalog } from '@/lib/agent/testing/memory-catalog';
import { createMemoryChunkIndex } from '@/lib/agent/testing/memory-chunk-index';
import { clapnqCorpus, loadClapnq } from '@/lib/agent/testing/corpus';
import { NO_MODELS } from '@/lib/agent/testing/fixtures';
const rows = loadClapnq(path.resolve('../shared/data/clapnq/clapnq_dev_flat.jsonl'));
const { docs, chunks, goldDoc } = clapnqCorpus(rows, 'o');
const index = createMemoryChunkIndex(); await index.upsert(chunks);
const catalog = createMemoryCatalog(docs);
for (const row of rows.filter((r) => r.answerable).slice(0, 3)) {
  const r = await runAgent({ question: row.question, ownerId: 'o', mode: 'agent', style: 'concise' }, { index, catalog, embedder: null, models: NO_MODELS });
  console.log('Q', row.question, '\nA', r.answer, '\nGOLD', row.gold_sentences, '\n', r.citations.map(c=>c.documentId===goldDoc.get(row.id)));
}
