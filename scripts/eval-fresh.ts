// npx tsx scripts/eval-fresh.ts – the fresh-documents bed (eval/fresh): 12 documents in eight formats and their
// questions, written for the "Fresh documents check" of docs/benchmarks-agent.md, asked in extractive mode (no model)
// as `scripts/eval-agent.ts` asks the own set. Prints every outcome and the answers per confidence label; records
// nothing (no figures, no docs section). `--mode quick` asks in quick mode; `--verbose` prints every answer.
// Rebuild the DOCX/PDF/XLSX files with `npx tsx scripts/fresh-documents.ts`.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { runAgent } from '@/lib/agent/run-agent';
import type { AgentResult } from '@/lib/agent/types';
import { admitsMissing } from '@/lib/agent/validate';
import { openEvalIndex } from '@/test/support/agent/corpus';
import { NO_MODELS } from '@/test/support/agent/fixtures';
import { createMemoryCatalog } from '@/test/support/agent/memory-catalog';
import { ingestQaDocuments } from './qa/qa-corpus';
import { citesGold, containsGold, loadQaSet } from './qa/qa-set';

const BED = path.resolve(import.meta.dirname, '../eval/fresh');
const DOCUMENTS = path.join(BED, 'documents');

/** A decline, as the own set counts one: the gap disclosed and no cited claim. */
function declines(r: AgentResult): boolean {
  const discloses = r.clarification !== null || r.insufficiencies.length > 0 || admitsMissing(r.answer);
  return discloses && !/\[\d+\]/.test(r.answer);
}

type Outcome = 'correct' | 'wrong' | 'declined-right' | 'declined-wrong';

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { mode: { type: 'string' }, verbose: { type: 'boolean' } } });
  const mode = values.mode === 'quick' ? 'quick' : 'agent';
  const questions = loadQaSet(path.join(BED, 'questions.jsonl'));
  const owner = 'fresh-bed';
  const corpus = await ingestQaDocuments(DOCUMENTS, readdirSync(DOCUMENTS), owner);
  if (corpus.failed.length > 0) console.log('failed to ingest:', corpus.failed);
  const dir = mkdtempSync(path.join(tmpdir(), 'fresh-'));
  const { index } = await openEvalIndex(dir);
  await index.upsert(corpus.chunks);
  const catalog = createMemoryCatalog(corpus.docs);
  const byLabel = new Map<string, Map<Outcome, number>>();
  for (const q of questions) {
    const r = await runAgent(
      { question: q.question, ownerId: owner, mode, style: 'concise' },
      { index, catalog, embedder: null, models: NO_MODELS },
    );
    const cited = new Set(r.citations.map((c) => corpus.pathOf.get(c.documentId) ?? c.filename));
    const declined = declines(r);
    const outcome: Outcome = declined
      ? q.answerable
        ? 'declined-wrong'
        : 'declined-right'
      : q.answerable && containsGold(r.answer, q.answers) && citesGold(cited, q.documents)
        ? 'correct'
        : 'wrong';
    const label = declined ? 'declined' : r.confidence;
    const counts = byLabel.get(label) ?? new Map<Outcome, number>();
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    byLabel.set(label, counts);
    const bad = outcome === 'wrong' || outcome === 'declined-wrong';
    if (bad || values.verbose)
      console.log(
        `${q.id} ${q.type} [${label}] ${outcome}: ${q.question}\n    → ${r.answer.replace(/\s+/g, ' ').slice(0, 300)}`,
      );
  }
  console.log('\n| label | answers | correct | wrong | share correct |');
  console.log('| --- | --- | --- | --- | --- |');
  for (const label of ['high', 'medium', 'low']) {
    const c = byLabel.get(label);
    const right = c?.get('correct') ?? 0;
    const wrong = c?.get('wrong') ?? 0;
    const n = right + wrong;
    console.log(`| ${label} | ${n} | ${right} | ${wrong} | ${n ? `${((100 * right) / n).toFixed(1)}%` : 'n/a'} |`);
  }
  const d = byLabel.get('declined');
  console.log(
    `| declined | ${(d?.get('declined-right') ?? 0) + (d?.get('declined-wrong') ?? 0)} | ${d?.get('declined-right') ?? 0} (unanswerable) | ${d?.get('declined-wrong') ?? 0} (answerable) | |`,
  );
  const answerable = questions.filter((q) => q.answerable).length;
  const right = [...byLabel.values()].reduce((s, c) => s + (c.get('correct') ?? 0), 0);
  const declinedRight = d?.get('declined-right') ?? 0;
  console.log(
    `\n${mode} mode: answerable correct ${right}/${answerable}, unanswerable declined ${declinedRight}/${questions.length - answerable}; ${corpus.docs.length} documents, ${corpus.chunks.length} chunks`,
  );
  rmSync(dir, { recursive: true, force: true });
}

await main();
process.exit(0);
