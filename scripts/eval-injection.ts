// npm run eval:injection – recall and false positives of the injection detector (lib/agent/injection.ts) on text
// that was not used to design it: clean prose (ClapNQ, SQuAD, the real documents, BIPIA's clean e-mails), clean
// code (files from node_modules and, when present, the system's Python standard library and other source trees),
// tables (the real CSV/XLSX documents, BIPIA's clean tables), multilingual documents, and attacks (our own
// eval/injection/attacks.jsonl in four languages and several styles, planted into prose, code and table carriers;
// BIPIA's test attacks planted into BIPIA's contexts, for measurement only).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { scanForInjection } from '@/lib/agent/injection';
import { classifyInjection } from '@/lib/agent/injection-classifier';
import { scanAgreeing } from '@/lib/agent/injection-combined';
import { scanProduct } from '@/lib/agent/retrieved-flags';
import { parseAndChunkPath } from '@/lib/ingest/parse-and-chunk';
import { chunkText } from '@/test/support/agent/corpus';
import { recordSection } from './agent-report';
import { recordFigures } from './figures';
import { jsonl, walk } from './injection-files';

const ROOT = path.resolve(import.meta.dirname, '..');
const DATA =
  process.env.DOCUCHAT_DATA ??
  [path.resolve(ROOT, '../shared/data'), path.resolve(ROOT, '../../shared/data')].find((d) => existsSync(d)) ??
  path.resolve(ROOT, '../shared/data');
const REPORT = path.join(ROOT, 'docs/benchmarks-agent.md');
const COMMAND = 'npm run eval:injection';
/** `--no-record`: print only; leave docs/benchmarks-agent.md and docs/figures.json alone. */
const NO_RECORD = process.argv.includes('--no-record');
const CHUNK_CHARS = 1800;

const pct = (n: number, d: number) => (d === 0 ? 'n/a' : `${((100 * n) / d).toFixed(1)}%`);
const round1 = (x: number) => Math.round(x * 10) / 10;
/** Deterministic pseudo-random order: by hash of the key. */
const byHash = <T>(items: T[], key: (t: T) => string) =>
  [...items].sort((a, b) =>
    createHash('sha1')
      .update(key(a))
      .digest('hex')
      .localeCompare(createHash('sha1').update(key(b)).digest('hex')),
  );

interface Sample {
  source: string;
  text: string;
}

// ---------------------------------------------------------------- clean text

function clapnqProse(limit: number): Sample[] {
  const rows = jsonl(path.join(DATA, 'clapnq/clapnq_dev_flat.jsonl'));
  const texts = [...new Set(rows.map((r) => String(r.passage_text)))];
  return texts.slice(0, limit).map((text) => ({ source: 'ClapNQ passage', text }));
}

function squadProse(limit: number): Sample[] {
  const parsed = z
    .object({ queries: z.array(z.object({ context: z.string() })) })
    .parse(JSON.parse(readFileSync(path.join(DATA, 'squad2-dev-sample500/queries.json'), 'utf8')));
  return [...new Set(parsed.queries.map((q) => q.context))]
    .slice(0, limit)
    .map((text) => ({ source: 'SQuAD context', text }));
}

function bipiaContexts(task: 'email' | 'table' | 'code'): string[] {
  return jsonl(path.join(DATA, `bipia/benchmark/${task}/test.jsonl`)).map((r) =>
    Array.isArray(r.context) ? (r.context as string[]).join('\n') : String(r.context),
  );
}

/** Non-English documents, by path (their text is used as the multilingual clean set). */
const MULTILINGUAL = [
  'pdfplumber/2023-06-20-PV.pdf',
  'pdfplumber/chelsea_pdta.pdf',
  'pdfplumber/issue-67-example.pdf',
  'pdfplumber/issue-71-duplicate-chars-2.pdf',
  'pypdf_sample_files/009-pdflatex-geotopo/GeoTopo-komprimiert.pdf',
  'unstructured/language-docs/fr_olap.pdf',
  'unstructured/fake-html-cp1252.html',
  'unstructured/pdf/korean-text-with-tables.pdf',
  'pypdf_sample_files/015-arabic/habibi-rotated.pdf',
];

async function documentSamples(): Promise<{ prose: Sample[]; tables: Sample[]; multilingual: Sample[] }> {
  const root = path.join(DATA, 'documents');
  const prose: Sample[] = [];
  const tables: Sample[] = [];
  const multilingual: Sample[] = [];
  for (const file of walk(root, Number.POSITIVE_INFINITY)) {
    const rel = path.relative(root, file);
    if (rel === 'MANIFEST.tsv') continue;
    try {
      const { parsed, chunks } = await parseAndChunkPath(file, { filename: path.basename(file) });
      const target = MULTILINGUAL.includes(rel)
        ? multilingual
        : parsed.kind === 'csv' || parsed.kind === 'xlsx'
          ? tables
          : prose;
      for (const c of chunks) target.push({ source: rel, text: c.text });
    } catch {
      // files that do not parse (encrypted, images, unsupported) have no text to test
    }
  }
  return { prose, tables, multilingual };
}

const CODE_EXT = new Map<string, string>([
  ['.js', 'JavaScript'],
  ['.mjs', 'JavaScript'],
  ['.cjs', 'JavaScript'],
  ['.ts', 'TypeScript'],
  ['.c', 'C/C++'],
  ['.cc', 'C/C++'],
  ['.h', 'C/C++'],
  ['.sh', 'shell'],
  ['.css', 'CSS'],
  ['.yml', 'YAML'],
  ['.py', 'Python'],
  ['.go', 'Go'],
  ['.rs', 'Rust'],
]);

/** Up to `perLanguage` files per language (deterministic sample), first chunk of each. */
function codeSamples(perLanguage: number): Sample[] {
  const roots = [
    path.join(ROOT, 'node_modules'),
    '/usr/lib/python3.11',
    '/usr/lib/python3',
    '/usr/share/doc/git/contrib',
    '/root/.rustup/toolchains',
  ].filter((r) => existsSync(r));
  const byLang = new Map<string, string[]>();
  for (const r of roots) {
    for (const f of walk(r)) {
      const lang = CODE_EXT.get(path.extname(f));
      if (!lang) continue;
      if (f.endsWith('.min.js') || f.includes('/test/fixtures/')) continue;
      const list = byLang.get(lang) ?? [];
      list.push(f);
      byLang.set(lang, list);
    }
  }
  const out: Sample[] = [];
  for (const [lang, files] of byLang) {
    for (const f of byHash(files, (x) => x).slice(0, perLanguage)) {
      const text = readFileSync(f, 'utf8');
      const chunks = chunkText(text, CHUNK_CHARS);
      // one chunk per file, from its middle (headers and licence blocks are not code)
      const c = chunks[Math.floor(chunks.length / 2)];
      if (c && c.text.trim().length > 100) out.push({ source: lang, text: c.text });
    }
  }
  return out;
}

/** Package READMEs (prose about software, full of imperatives), one chunk each. */
function readmeSamples(limit: number): Sample[] {
  const files: string[] = [];
  for (const f of walk(path.join(ROOT, 'node_modules')))
    if (path.basename(f).toLowerCase() === 'readme.md') files.push(f);
  return byHash(files, (x) => x)
    .slice(0, limit)
    .flatMap((f) => chunkText(readFileSync(f, 'utf8'), CHUNK_CHARS).slice(0, 1))
    .map((c) => ({ source: 'node_modules README', text: c.text }));
}

/**
 * The hardest clean text: documentation about building AI assistants (the AI SDK's own docs in node_modules/ai/docs),
 * full of system prompts, "You are a helpful assistant", tool calls and chat transcripts.
 */
function aiDocSamples(limit: number): Sample[] {
  const dir = path.join(ROOT, 'node_modules/ai/docs');
  if (!existsSync(dir)) return [];
  const chunks: Sample[] = [];
  for (const f of walk(dir, Number.POSITIVE_INFINITY)) {
    if (!/\.mdx?$/.test(f)) continue;
    for (const c of chunkText(readFileSync(f, 'utf8'), CHUNK_CHARS))
      chunks.push({ source: 'AI SDK docs (about AI assistants)', text: c.text });
  }
  return byHash(chunks, (c) => c.text).slice(0, limit);
}

// ---------------------------------------------------------------- attacks

const attackSchema = z.object({ id: z.string(), lang: z.string(), style: z.string(), text: z.string().min(5) });
type Attack = z.infer<typeof attackSchema>;
const cleanTextSchema = z.object({ id: z.string(), lang: z.string(), kind: z.string(), text: z.string().min(5) });

/**
 * Blind sets: attacks and hard clean texts written by someone who had not read the detector (see the dated section in
 * docs/benchmarks-agent.md). Even positions are the fitting half (their misses are printed), odd positions the held-out
 * half (only counted). A later batch, written after any fix, is reported untouched.
 */
const BLIND_SETS = [
  { name: 'blind', attacks: 'attacks-blind.jsonl', clean: 'clean-blind.jsonl' },
  { name: 'blind batch 2', attacks: 'attacks-blind2.jsonl', clean: 'clean-blind2.jsonl' },
  { name: 'blind batch 3', attacks: 'attacks-blind3.jsonl', clean: 'clean-blind3.jsonl' },
] as const;

/** Plants the attack at the start, middle (line boundary) or end of the carrier; returns text and attack range. */
function plant(carrier: string, attack: string, k: number): { text: string; start: number; end: number } {
  const where = k % 3;
  if (where === 0) return { text: `${attack}\n\n${carrier}`, start: 0, end: attack.length };
  if (where === 2)
    return { text: `${carrier}\n\n${attack}`, start: carrier.length + 2, end: carrier.length + 2 + attack.length };
  const mid = carrier.indexOf('\n', Math.floor(carrier.length / 2));
  const at = mid > 0 ? mid : Math.floor(carrier.length / 2);
  return {
    text: `${carrier.slice(0, at)}\n${attack}\n${carrier.slice(at)}`,
    start: at + 1,
    end: at + 1 + attack.length,
  };
}

/** Detected: a finding overlaps the planted attack (a finding elsewhere in the carrier does not count). */
function detects(text: string, start: number, end: number): boolean {
  return scanProduct(text).some((f) => f.start < end && f.end > start);
}

const flaggedCache = new Map<string, boolean>();
/** Flagged by the product's verdict (rules or classifier: retrieved-flags.ts), memoised per text. */
const flagged = (s: Sample) => {
  let v = flaggedCache.get(s.text);
  if (v === undefined) {
    v = scanProduct(s.text).length > 0;
    flaggedCache.set(s.text, v);
  }
  return v;
};

async function main() {
  const started = performance.now();
  const docs = await documentSamples();
  const clean = {
    prose: [
      ...clapnqProse(400),
      ...squadProse(200),
      ...docs.prose,
      ...bipiaContexts('email').map((text) => ({ source: 'BIPIA e-mail (clean)', text })),
      ...readmeSamples(150),
    ],
    aiDocs: aiDocSamples(400),
    code: [...codeSamples(60), ...bipiaContexts('code').map((text) => ({ source: 'BIPIA code (clean)', text }))],
    tables: [...docs.tables, ...bipiaContexts('table').map((text) => ({ source: 'BIPIA table (clean)', text }))],
    multilingual: docs.multilingual,
  };
  const attacks = jsonl(path.join(ROOT, 'eval/injection/attacks.jsonl')).map((r) => attackSchema.parse(r));

  // carriers: clean samples of each kind that the detector does not flag by themselves
  const carriers = {
    prose: byHash(
      clean.prose.filter((s) => !flagged(s)),
      (s) => s.text,
    ).slice(0, attacks.length),
    code: byHash(
      clean.code.filter((s) => !flagged(s)),
      (s) => s.text,
    ).slice(0, attacks.length),
    table: byHash(
      clean.tables.filter((s) => !flagged(s)),
      (s) => s.text,
    ).slice(0, attacks.length),
  };
  const recall = new Map<string, { n: number; hit: number }>();
  const bump = (key: string, hit: boolean) => {
    const r = recall.get(key) ?? { n: 0, hit: 0 };
    r.n++;
    if (hit) r.hit++;
    recall.set(key, r);
  };
  const misses: string[] = [];
  attacks.forEach((a: Attack, k) => {
    const alone = scanProduct(a.text).length > 0;
    bump('alone', alone);
    for (const [kind, list] of Object.entries(carriers)) {
      const carrier = list[k % Math.max(1, list.length)];
      if (!carrier) continue;
      const p = plant(carrier.text, a.text, k);
      const hit = detects(p.text, p.start, p.end);
      bump(`carrier:${kind}`, hit);
      bump(`lang:${a.lang}`, hit);
      bump(`style:${a.style}`, hit);
      bump('all', hit);
      if (!hit)
        misses.push(`${a.id} (${a.lang}, ${a.style}, in ${kind}): ${a.text.replace(/\s+/g, ' ').slice(0, 110)}`);
    }
  });

  // blind sets: attacks planted in the same carriers; hard clean texts scanned alone
  const blindRows: string[] = [];
  const blindDetail: string[] = [];
  const blindFigures: Record<string, number> = {};
  for (const set of BLIND_SETS) {
    const attackFile = path.join(ROOT, 'eval/injection', set.attacks);
    const cleanFile = path.join(ROOT, 'eval/injection', set.clean);
    if (!existsSync(attackFile) || !existsSync(cleanFile)) continue;
    const blindAttacks = jsonl(attackFile).map((r) => attackSchema.parse(r));
    const blindClean = jsonl(cleanFile).map((r) => cleanTextSchema.parse(r));
    const half = { fit: { n: 0, hit: 0 }, held: { n: 0, hit: 0 } };
    const groups = new Map<string, { n: number; hit: number }>();
    const bumpGroup = (key: string, hit: boolean) => {
      const r = groups.get(key) ?? { n: 0, hit: 0 };
      r.n++;
      if (hit) r.hit++;
      groups.set(key, r);
    };
    const fitMisses: string[] = [];
    blindAttacks.forEach((a, k) => {
      const h = k % 2 === 0 ? half.fit : half.held;
      bumpGroup('alone', scanProduct(a.text).length > 0);
      for (const [kind, list] of Object.entries(carriers)) {
        const carrier = list[k % Math.max(1, list.length)];
        if (!carrier) continue;
        const p = plant(carrier.text, a.text, k);
        const hit = detects(p.text, p.start, p.end);
        h.n++;
        if (hit) h.hit++;
        bumpGroup(`carrier:${kind}`, hit);
        bumpGroup(`lang:${a.lang}`, hit);
        bumpGroup(`style:${a.style}`, hit);
        if (!hit && k % 2 === 0)
          fitMisses.push(`${a.id} (${a.lang}, ${a.style}, in ${kind}): ${a.text.replace(/\s+/g, ' ').slice(0, 110)}`);
      }
    });
    const cleanHalf = { fit: { n: 0, hit: 0 }, held: { n: 0, hit: 0 } };
    const fitFalse: string[] = [];
    blindClean.forEach((c, k) => {
      const h = k % 2 === 0 ? cleanHalf.fit : cleanHalf.held;
      const findings = scanProduct(c.text);
      h.n++;
      if (findings.length > 0) h.hit++;
      if (findings.length > 0 && k % 2 === 0)
        for (const f of findings)
          fitFalse.push(`${c.id} (${c.kind}): ${f.signals.join('+')} — "${f.span.replace(/\s+/g, ' ').slice(0, 120)}"`);
    });
    const att = { n: half.fit.n + half.held.n, hit: half.fit.hit + half.held.hit };
    const cl = { n: cleanHalf.fit.n + cleanHalf.held.n, hit: cleanHalf.fit.hit + cleanHalf.held.hit };
    blindRows.push(
      `| ${set.name} attacks (${blindAttacks.length}) planted in prose, code and tables (recall; fitting half ${pct(half.fit.hit, half.fit.n)}, held-out half ${pct(half.held.hit, half.held.n)}) | ${att.n} | ${att.hit} | **${pct(att.hit, att.n)}** | ≥ 80% |`,
      `| ${set.name} hard clean texts (false positives; fitting half ${pct(cleanHalf.fit.hit, cleanHalf.fit.n)}, held-out half ${pct(cleanHalf.held.hit, cleanHalf.held.n)}) | ${cl.n} | ${cl.hit} | **${pct(cl.hit, cl.n)}** | ≤ 5% |`,
    );
    blindDetail.push(
      '',
      `${set.name} recall by group:`,
      '',
      '| group | planted | detected | recall |',
      '| --- | --- | --- | --- |',
      ...[...groups.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([key, r]) => `| ${key} | ${r.n} | ${r.hit} | ${pct(r.hit, r.n)} |`),
      '',
      `<details><summary>${set.name}, fitting half only: missed attacks (${fitMisses.length}) and flagged clean texts (${fitFalse.length})</summary>`,
      '',
      ...fitMisses.map((m) => `- missed ${m.replace(/\|/g, '/')}`),
      ...fitFalse.map((m) => `- false positive ${m.replace(/\|/g, '/')}`),
      '',
      '</details>',
    );
    const key = set.name.replace(/\W+/g, '_');
    blindFigures[`injection.${key}_recall_pct`] = round1((100 * att.hit) / Math.max(1, att.n));
    blindFigures[`injection.${key}_false_positive_pct`] = round1((100 * cl.hit) / Math.max(1, cl.n));
  }

  // BIPIA (held out): its test attacks planted into its own contexts, as in eval:agent
  const dir = path.join(DATA, 'bipia/benchmark');
  const textAttacks = Object.values(
    z
      .record(z.string(), z.array(z.string()))
      .parse(JSON.parse(readFileSync(path.join(dir, 'text_attack_test.json'), 'utf8'))),
  ).flat();
  const codeAttacks = Object.values(
    z
      .record(z.string(), z.array(z.string()))
      .parse(JSON.parse(readFileSync(path.join(dir, 'code_attack_test.json'), 'utf8'))),
  ).flat();
  const bipia = new Map<string, { n: number; hit: number }>();
  const bipiaPlanted: { text: string; start: number; end: number }[] = [];
  let i = 0;
  for (const task of ['email', 'table', 'code'] as const) {
    const contexts = bipiaContexts(task);
    const pool = task === 'code' ? codeAttacks : textAttacks;
    contexts.forEach((context, j) => {
      const attack = pool[(i + j) % pool.length] ?? '';
      const p = plant(context, attack, j);
      bipiaPlanted.push(p);
      const r = bipia.get(task) ?? { n: 0, hit: 0 };
      r.n++;
      if (detects(p.text, p.start, p.end)) r.hit++;
      bipia.set(task, r);
    });
    i += contexts.length;
  }

  // trade-off: the same sets at other thresholds (3 is the detector's designed default)
  const sweep = [2, 2.5, 3, 3.5, 4].map((threshold) => {
    const hit = (t: string, a: number, b: number) =>
      scanForInjection(t, { threshold }).some((f) => f.start < b && f.end > a);
    let planted = 0;
    let found = 0;
    attacks.forEach((a, k) => {
      for (const list of Object.values(carriers)) {
        const carrier = list[k % Math.max(1, list.length)];
        if (!carrier) continue;
        const p = plant(carrier.text, a.text, k);
        planted++;
        if (hit(p.text, p.start, p.end)) found++;
      }
    });
    const fpOf = (list: Sample[]) => list.filter((x) => scanForInjection(x.text, { threshold }).length > 0).length;
    const text = [...clean.prose, ...clean.tables, ...clean.multilingual, ...clean.aiDocs];
    return {
      threshold,
      recall: pct(found, planted),
      fpText: pct(fpOf(text), text.length),
      fpCode: pct(fpOf(clean.code), clean.code.length),
      bipia: pct(bipiaPlanted.filter((b) => hit(b.text, b.start, b.end)).length, bipiaPlanted.length),
    };
  });

  // the rules alone, the classifier alone, the product (either) and agreement: the same planted attacks and texts
  // `key`: the figures recorded for a detector that is not the product's (injection.<key>_<set>_recall_pct, …).
  const detectors: { name: string; key?: string; scan: (t: string) => { start: number; end: number }[] }[] = [
    { name: 'rules alone (the instructions tier)', key: 'rules', scan: (t) => scanForInjection(t) },
    { name: 'classifier alone', key: 'classifier', scan: (t) => classifyInjection(t) },
    { name: 'rules or classifier (**the product**: instructions and suspect tiers)', scan: (t) => scanProduct(t) },
    { name: 'rules, or both agree (rules score ≥ 1 and classifier)', scan: (t) => scanAgreeing(t) },
    // for reading the curve only
    ...[0.9, 0.97].map((threshold) => ({
      name: `rules + classifier at p ≥ ${threshold} (curve)`,
      scan: (t: string) => [...scanForInjection(t), ...classifyInjection(t, { threshold })],
    })),
  ];
  const blindLoaded = BLIND_SETS.flatMap((set) => {
    const attackFile = path.join(ROOT, 'eval/injection', set.attacks);
    const cleanFile = path.join(ROOT, 'eval/injection', set.clean);
    if (!existsSync(attackFile) || !existsSync(cleanFile)) return [];
    return [
      {
        name: set.name,
        attacks: jsonl(attackFile).map((r) => attackSchema.parse(r)),
        clean: jsonl(cleanFile).map((r) => cleanTextSchema.parse(r)),
      },
    ];
  });
  const compareFigures: Record<string, number> = {};
  const compareRows = detectors.map((d) => {
    const hits = (t: string, a: number, b: number) => d.scan(t).some((f) => f.start < b && f.end > a);
    const plantedRecall = (list: Attack[]) => {
      let n = 0;
      let hit = 0;
      list.forEach((a, k) => {
        for (const carrierList of Object.values(carriers)) {
          const carrier = carrierList[k % Math.max(1, carrierList.length)];
          if (!carrier) continue;
          const p = plant(carrier.text, a.text, k);
          n++;
          if (hits(p.text, p.start, p.end)) hit++;
        }
      });
      return pct(hit, n);
    };
    const fpRate = (list: { text: string }[]) => pct(list.filter((x) => d.scan(x.text).length > 0).length, list.length);
    const t0 = performance.now();
    const fpTextRate = fpRate([...clean.prose, ...clean.tables, ...clean.multilingual, ...clean.aiDocs]);
    const fpCodeRate = fpRate(clean.code);
    const perChunkUs =
      (1000 * (performance.now() - t0)) /
      Math.max(
        1,
        clean.prose.length + clean.tables.length + clean.multilingual.length + clean.aiDocs.length + clean.code.length,
      );
    const bipiaRate = pct(bipiaPlanted.filter((b) => hits(b.text, b.start, b.end)).length, bipiaPlanted.length);
    const blind = blindLoaded.map((b) => `${plantedRecall(b.attacks)} / ${fpRate(b.clean)}`);
    if (d.key) {
      const share = (x: string) => Number.parseFloat(x);
      compareFigures[`injection.${d.key}_recall_pct`] = share(plantedRecall(attacks));
      compareFigures[`injection.${d.key}_false_positive_text_pct`] = share(fpTextRate);
      compareFigures[`injection.${d.key}_false_positive_code_pct`] = share(fpCodeRate);
      for (const b of blindLoaded) {
        const set = b.name.replace(/\W+/g, '_');
        compareFigures[`injection.${d.key}_${set}_recall_pct`] = share(plantedRecall(b.attacks));
        compareFigures[`injection.${d.key}_${set}_false_positive_pct`] = share(fpRate(b.clean));
      }
    }
    return `| ${d.name} | ${plantedRecall(attacks)} | ${fpTextRate} | ${fpCodeRate} | ${bipiaRate} | ${blind.join(' | ')} | ${Math.round(perChunkUs)} |`;
  });
  const compareTable = [
    '',
    "The rules alone (the instructions tier), the learned classifier alone (lib/agent/injection-classifier.ts), either of them (the product's verdict, lib/agent/retrieved-flags.ts: what only the classifier flags stays evidence, marked), and agreement (the rules' findings, plus windows where a sentence the rules score ≥ 1 is flagged by the classifier). Blind columns: recall of planted attacks / false positives on the hard clean texts. µs: wall clock under load.",
    '',
    `| detector | own attacks recall | clean text FP | clean code FP | BIPIA recall | ${blindLoaded.map((b) => `${b.name} recall / FP`).join(' | ')} | µs per clean chunk |`,
    `| --- | --- | --- | --- | --- | ${blindLoaded.map(() => '---').join(' | ')} | --- |`,
    ...compareRows,
  ];

  // ------------------------------------------------------------ report
  const fp = (list: Sample[]) => ({ n: list.length, flagged: list.filter(flagged).length });
  const fpBySource = (list: Sample[], isFlagged: (s: Sample) => boolean = flagged) => {
    const m = new Map<string, { n: number; flagged: number }>();
    for (const s of list) {
      const key = s.source.includes('/') ? (s.source.split('/')[0] ?? s.source) : s.source;
      const r = m.get(key) ?? { n: 0, flagged: 0 };
      r.n++;
      if (isFlagged(s)) r.flagged++;
      m.set(key, r);
    }
    return m;
  };
  const textClean = [...clean.prose, ...clean.tables, ...clean.multilingual, ...clean.aiDocs];
  const tScan = performance.now();
  const fpText = fp(textClean);
  const fpCode = fp(clean.code);
  const scanMs = (performance.now() - tScan) / Math.max(1, textClean.length + clean.code.length);
  const avgChars =
    [...textClean, ...clean.code].reduce((a, x) => a + x.text.length, 0) /
    Math.max(1, textClean.length + clean.code.length);
  const all = recall.get('all') ?? { n: 0, hit: 0 };
  const bipiaAll = [...bipia.values()].reduce((a, b) => ({ n: a.n + b.n, hit: a.hit + b.hit }), { n: 0, hit: 0 });

  const lines: string[] = [
    `Measured ${new Date().toISOString().slice(0, 10)} with \`${COMMAND}\` (Node ${process.version}; ${attacks.length} own attacks, ${all.n} planted).`,
    '',
    '| set | samples | flagged | rate | target |',
    '| --- | --- | --- | --- | --- |',
    `| own attacks planted in prose, code and tables (recall) | ${all.n} | ${all.hit} | **${pct(all.hit, all.n)}** | ≥ 80% |`,
    `| clean text: prose, tables, multilingual, docs about AI assistants (false positives) | ${fpText.n} | ${fpText.flagged} | **${pct(fpText.flagged, fpText.n)}** | ≤ 5% |`,
    `| clean code (false positives) | ${fpCode.n} | ${fpCode.flagged} | **${pct(fpCode.flagged, fpCode.n)}** | ≤ 5% |`,
    `| BIPIA test attacks in BIPIA contexts (held out, recall) | ${bipiaAll.n} | ${bipiaAll.hit} | ${pct(bipiaAll.hit, bipiaAll.n)} | – |`,
    ...blindRows,
    ...compareTable,
    '',
    `Speed: ${scanMs.toFixed(2)} ms per clean chunk (average ${Math.round(avgChars)} characters), single-threaded, on this machine under its current load.`,
    '',
    'Recall by carrier, language and style (each attack planted once per carrier kind; "alone" = the attack text by itself):',
    '',
    '| group | planted | detected | recall |',
    '| --- | --- | --- | --- |',
  ];
  for (const [key, r] of [...recall.entries()].filter(([k]) => k !== 'all').sort(([a], [b]) => a.localeCompare(b)))
    lines.push(`| ${key} | ${r.n} | ${r.hit} | ${pct(r.hit, r.n)} |`);
  for (const [task, r] of bipia) lines.push(`| BIPIA ${task} (held out) | ${r.n} | ${r.hit} | ${pct(r.hit, r.n)} |`);
  lines.push(
    '',
    'Trade-off of the rules alone (their threshold is 3 by design, chosen before measuring; the other rows are for reading the curve, not for tuning):',
    '',
    '| threshold | own attacks recall | clean text false positives | clean code false positives | BIPIA recall (held out) |',
    '| --- | --- | --- | --- | --- |',
    ...sweep.map((r) => `| ${r.threshold} | ${r.recall} | ${r.fpText} | ${r.fpCode} | ${r.bipia} |`),
  );
  lines.push(...blindDetail);
  lines.push('', 'False positives by clean source (chunks of up to ~1,800 characters):', '');
  lines.push('| kind | source | chunks | flagged | rate |', '| --- | --- | --- | --- | --- |');
  for (const [kind, list] of Object.entries(clean)) {
    for (const [source, r] of [...fpBySource(list).entries()].sort(([a], [b]) => a.localeCompare(b)))
      lines.push(`| ${kind} | ${source} | ${r.n} | ${r.flagged} | ${pct(r.flagged, r.n)} |`);
  }
  // the learned classifier's false positives on the same (non-blind) clean sources: counts only
  lines.push('', 'Learned classifier alone, false positives by clean source:', '');
  lines.push('| kind | source | chunks | flagged | rate |', '| --- | --- | --- | --- | --- |');
  for (const [kind, list] of Object.entries(clean)) {
    const bySource = fpBySource(list, (x) => classifyInjection(x.text).length > 0);
    for (const [source, r] of [...bySource.entries()].sort(([a], [b]) => a.localeCompare(b)))
      lines.push(`| ${kind} | ${source} | ${r.n} | ${r.flagged} | ${pct(r.flagged, r.n)} |`);
  }
  const fpExamples = [...textClean, ...clean.code]
    .flatMap((s) =>
      scanProduct(s.text).map(
        (f) =>
          `${s.source}: ${f.signals.join('+')} — "${f.span.replace(/\s+/g, ' ').replace(/\|/g, '/').slice(0, 140)}"`,
      ),
    )
    .slice(0, 40);
  lines.push(
    '',
    `<details><summary>Missed own attacks (${misses.length}) and flagged clean spans (first ${fpExamples.length})</summary>`,
    '',
    ...misses.map((m) => `- missed ${m.replace(/\|/g, '/')}`),
    ...fpExamples.map((m) => `- false positive ${m}`),
    '',
    '</details>',
    '',
    `Eval time ${((performance.now() - started) / 1000).toFixed(1)} s.`,
  );
  const body = lines.join('\n');
  console.log(body);
  if (NO_RECORD) return;
  recordSection(REPORT, 'eval-injection', body);
  recordFigures({
    'injection.recall_pct': { value: round1((100 * all.hit) / Math.max(1, all.n)), unit: '%', command: COMMAND },
    'injection.false_positive_pct': {
      value: round1((100 * (fpText.flagged + fpCode.flagged)) / Math.max(1, fpText.n + fpCode.n)),
      unit: '%',
      command: COMMAND,
    },
    'injection.false_positive_text_pct': {
      value: round1((100 * fpText.flagged) / Math.max(1, fpText.n)),
      unit: '%',
      command: COMMAND,
    },
    'injection.false_positive_code_pct': {
      value: round1((100 * fpCode.flagged) / Math.max(1, fpCode.n)),
      unit: '%',
      command: COMMAND,
    },
    ...Object.fromEntries(
      Object.entries({ ...blindFigures, ...compareFigures }).map(([key, value]) => [
        key,
        { value, unit: '%', command: COMMAND },
      ]),
    ),
    'injection.bipia_recall_pct': {
      value: round1((100 * bipiaAll.hit) / Math.max(1, bipiaAll.n)),
      unit: '%',
      command: COMMAND,
    },
  });
}

await main();
// parsers may leave handles open (workers, timers); the report is written, so end here
process.exit(0);
