import { runAgent } from '@/lib/agent/run-agent';
import { buildFixture, NO_MODELS, OWNER } from '@/lib/agent/testing/fixtures';
const qs = process.argv.slice(2);
for (const q of qs) {
  const f = await buildFixture({ withPlanted: true });
  const r = await runAgent({ question: q, ownerId: OWNER, mode: 'agent', style: 'concise' }, { index: f.index, catalog: f.catalog, embedder: null, models: NO_MODELS });
  console.log('Q:', q, '\n---\n' + r.answer + '\n---');
  console.log(r.confidence, r.validated, r.status, JSON.stringify(r.insufficiencies), r.citations.map((c) => `${c.n}:${c.filename}:${c.quote.slice(0, 50)}`));
  for (const e of r.trace) console.log('  ', e.type, JSON.stringify(e).slice(0, 220));
}
