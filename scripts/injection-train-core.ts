// The training procedure of the injection classifier (lib/agent/injection-classifier.ts), kept pure and
// deterministic so a test can train twice and compare: plant attacks into clean chunks, cut both into the windows the
// classifier scores, fit logistic regression by seeded SGD, quantise, and choose the threshold on held-out clean
// chunks.
import { createHash } from 'node:crypto';
import {
  features,
  HASH_BITS,
  type Model,
  type ModelFile,
  maxProbability,
  modelFromFile,
  quantise,
  windows,
} from '@/lib/agent/injection-classifier';

export interface TrainAttack {
  id: string;
  lang: string;
  text: string;
}
export interface CleanChunk {
  source: string;
  text: string;
  /**
   * Every window is a negative (not sampled down with the bulk of the clean text): the few hand-written ordinary
   * documents (e-mails, letters, forms) would otherwise be a fraction of a percent of the negatives.
   */
  whole?: boolean;
}

/** mulberry32: a small seeded PRNG (training must give the same weights twice). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Held out when the key's hash falls in the last `fraction` (stable across runs and machines). */
export function isHeldOut(key: string, fraction: number): boolean {
  const h = Number.parseInt(createHash('sha1').update(key).digest('hex').slice(0, 8), 16);
  return h / 0x100000000 < fraction;
}

/** Ways an attack is dressed when planted (so the model learns the instruction, not one framing). */
const DRESS: ((a: string) => string)[] = [
  (a) => a,
  (a) => a,
  (a) => a,
  (a) => `// ${a}`,
  (a) => `# ${a}`,
  (a) => `<!-- ${a} -->`,
  (a) => `"note": "${a.replace(/"/g, "'")}",`,
  (a) => `IMPORTANT: ${a}`,
  (a) => a.toUpperCase(),
  (a) => `> ${a}`,
  (a) => `* ${a}`,
];

/** Plants `attack` into `carrier` at a random sentence boundary or line; returns the text and the attack's range. */
export function plantAt(
  carrier: string,
  attack: string,
  r: () => number,
): { text: string; start: number; end: number } {
  const cuts = [0, carrier.length];
  for (const m of carrier.matchAll(/[.!?。！？]\s|\n/g)) cuts.push((m.index ?? 0) + m[0].length);
  const at = cuts[Math.floor(r() * cuts.length)] ?? 0;
  const sep = r() < 0.5 ? ' ' : '\n';
  const before = carrier.slice(0, at);
  const pre = before.length > 0 && !/\s$/.test(before) ? sep : '';
  const start = before.length + pre.length;
  const text = `${before}${pre}${attack}${sep}${carrier.slice(at)}`;
  return { text, start, end: start + attack.length };
}

interface Example {
  idx: Uint32Array;
  val: Float32Array;
  y: number;
}

const MIN_LETTERS = 8;
/** Source groups of held-out clean chunks smaller than this do not set the threshold. */
const MIN_GROUP = 100;
const letters = (t: string) => t.match(/\p{L}/gu)?.length ?? 0;

/** The windows of `carrier` with `attack` planted that are mostly the planted text. */
function plantedWindows(carrier: string, attack: string, r: () => number): { pos: string[]; planted: string } {
  const p = plantAt(carrier, attack, r);
  const pos: string[] = [];
  for (const w of windows(p.text)) {
    const overlap = Math.max(0, Math.min(w.end, p.end) - Math.max(w.start, p.start));
    // mostly attack, or most of the attack: a positive; a window that only grazes it is left out
    // (a window of dressing alone, "-->" or "> [!NOTE]", says nothing: fewer than MIN_LETTERS letters is left out)
    if (letters(w.text) < MIN_LETTERS) continue;
    if (overlap >= 0.5 * (w.end - w.start) || overlap >= 0.8 * (p.end - p.start)) pos.push(w.text);
  }
  return { pos, planted: p.text };
}

export interface TrainOptions {
  seed: number;
  plantsPerAttack: number;
  maxNegativeWindows: number;
  epochs: number;
  /** Target false-positive rate on held-out clean chunks. */
  targetFp: number;
  heldOutFraction: number;
  /** How many times each window of a `whole` clean chunk is a negative (default 1). */
  wholeRepeats?: number;
}

export interface TrainReport {
  file: ModelFile;
  model: Model;
  heldOut: {
    cleanChunks: number;
    cleanFlagged: number;
    plantedAttacks: number;
    detected: number;
    byGroup: Record<string, string>;
    /** Held-out hard clean sentences (instructions to people, quoted attacks, prompts in code) flagged, alone. */
    hardFlagged: number;
    hardTotal: number;
    /** The same sentences planted into held-out clean chunks: flagged windows overlapping them. */
    hardPlantedFlagged: number;
    hardPlanted: number;
    /** Threshold → held-out rates, for reading the trade-off. */
    curve: Record<string, string>;
  };
  counts: Record<string, number>;
}

/**
 * `hardClean`: clean sentences that look like instructions to people ("ignore the previous e-mail", "answer all
 * questions"), planted into clean chunks as negatives so that words like "ignore" or "answer" alone do not decide.
 */
export function train(
  clean: CleanChunk[],
  attacks: TrainAttack[],
  o: TrainOptions,
  hardClean: readonly string[] = [],
): TrainReport {
  const r = rng(o.seed);
  const cleanTrain = clean.filter((c) => !isHeldOut(c.text, o.heldOutFraction));
  const cleanHeld = clean.filter((c) => isHeldOut(c.text, o.heldOutFraction));
  const attackTrain = attacks.filter((a) => !isHeldOut(a.id, o.heldOutFraction));
  const attackHeld = attacks.filter((a) => isHeldOut(a.id, o.heldOutFraction));
  const hardTrain = hardClean.filter((h) => !isHeldOut(`hard:${h}`, o.heldOutFraction));

  const examples: Example[] = [];
  const push = (text: string, y: number) => {
    const f = features(text);
    if (f.idx.length > 0) examples.push({ ...f, y });
  };
  // negatives: windows of clean chunks, evenly sampled up to the cap
  const negWindows = cleanTrain.filter((c) => !c.whole).flatMap((c) => windows(c.text).map((w) => w.text));
  const step = Math.max(1, negWindows.length / o.maxNegativeWindows);
  for (let i = 0; i < negWindows.length; i += step) push(negWindows[Math.floor(i)] ?? '', 0);
  for (const c of cleanTrain)
    if (c.whole) for (let k = 0; k < (o.wholeRepeats ?? 1); k++) for (const w of windows(c.text)) push(w.text, 0);
  for (const h of hardTrain) {
    push(h, 0);
    for (let k = 0; k < o.plantsPerAttack; k++) {
      const carrier = cleanTrain[Math.floor(r() * cleanTrain.length)]?.text ?? '';
      // dressed like the attacks, so a comment marker, "IMPORTANT:" or upper case is not evidence by itself
      const dress = DRESS[Math.floor(r() * DRESS.length)] ?? ((x: string) => x);
      for (const w of plantedWindows(carrier, dress(h), r).pos) push(w, 0);
    }
  }
  const negatives = examples.length;
  // positives: each attack dressed and planted into random clean chunks, alone, and cut to a bare sentence
  for (const a of attackTrain) {
    push(a.text, 1);
    for (let k = 0; k < o.plantsPerAttack; k++) {
      const carrier = cleanTrain[Math.floor(r() * cleanTrain.length)]?.text ?? '';
      const dress = DRESS[Math.floor(r() * DRESS.length)] ?? ((x: string) => x);
      for (const w of plantedWindows(carrier, dress(a.text), r).pos) push(w, 1);
    }
  }
  const positives = examples.length - negatives;

  // logistic regression, SGD with class-balanced weights and L2 (applied lazily to touched weights)
  const dim = 1 << HASH_BITS;
  const w = new Float32Array(dim);
  let bias = 0;
  const lambda = 1e-6;
  const posWeight = negatives / Math.max(1, positives);
  const order = examples.map((_, i) => i);
  let t = 0;
  for (let epoch = 0; epoch < o.epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
    }
    for (const e of order) {
      const ex = examples[e];
      if (!ex) continue;
      const lr = 0.5 / (1 + t * 2e-6);
      t++;
      let z = bias;
      for (let k = 0; k < ex.idx.length; k++) z += (w[ex.idx[k] ?? 0] ?? 0) * (ex.val[k] ?? 0);
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - ex.y) * (ex.y === 1 ? posWeight : 1);
      for (let k = 0; k < ex.idx.length; k++) {
        const i = ex.idx[k] ?? 0;
        const wi = w[i] ?? 0;
        w[i] = wi - lr * (g * (ex.val[k] ?? 0) + lambda * wi);
      }
      bias -= lr * g * 0.1;
    }
  }

  // quantise first, then choose the threshold with the weights the product will use
  const counts = {
    cleanChunksTrain: cleanTrain.length,
    cleanChunksHeldOut: cleanHeld.length,
    attacksTrain: attackTrain.length,
    attacksHeldOut: attackHeld.length,
    negativeWindows: negatives,
    positiveWindows: positives,
  };
  const draft = modelFromFile(quantise(w, bias, 0.5, counts));
  // the threshold keeps every kind of held-out clean text (source group with enough chunks) at or under targetFp
  const groups = new Map<string, number[]>();
  for (const c of cleanHeld) {
    const key = c.source.split(' ')[0] ?? c.source;
    const list = groups.get(key) ?? [];
    list.push(maxProbability(c.text, draft));
    groups.set(key, list);
  }
  let threshold = 0.5;
  for (const scores of groups.values()) {
    // a group needs enough chunks for its rate to mean something: in a group of 71, one chunk is 1.4%
    if (scores.length < MIN_GROUP) continue;
    scores.sort((a, b) => a - b);
    const cut = Math.min(scores.length - 1, Math.floor((1 - o.targetFp) * scores.length));
    threshold = Math.max(threshold, (scores[cut] ?? 0.5) + 1e-4);
  }
  threshold = Math.min(0.999, threshold);
  const file = quantise(w, bias, Number(threshold.toFixed(4)), counts);
  const model = modelFromFile(file);

  return { file, model, heldOut: evaluateHeldOut(model, clean, attacks, o, hardClean), counts };
}

export type HeldOutReport = TrainReport['heldOut'];

/**
 * The held-out measurement of a model (the one just trained, or any other model file, for comparing versions on the
 * same held-out data): attacks held out by id planted into clean chunks held out by text, held-out hard clean
 * sentences alone and planted, and held-out clean chunks, at the model's threshold and along a curve.
 */
export function evaluateHeldOut(
  model: Model,
  clean: CleanChunk[],
  attacks: TrainAttack[],
  o: Pick<TrainOptions, 'seed' | 'heldOutFraction'>,
  hardClean: readonly string[] = [],
): HeldOutReport {
  const cleanHeld = clean.filter((c) => isHeldOut(c.text, o.heldOutFraction));
  const attackHeld = attacks.filter((a) => isHeldOut(a.id, o.heldOutFraction));
  const hardHeld = hardClean.filter((h) => isHeldOut(`hard:${h}`, o.heldOutFraction));
  // held-out scores (highest window probability): held-out attacks planted into held-out clean chunks, held-out
  // hard clean sentences alone and planted, held-out clean chunks; the counts at the threshold and a curve follow
  const rh = rng(o.seed + 1);
  const plantedScore = (carrier: string, planted: string) => {
    const p = plantAt(carrier, planted, rh);
    let best = 0;
    for (const win of windows(p.text))
      if (win.start < p.end && win.end > p.start) best = Math.max(best, maxProbability(win.text, model));
    return best;
  };
  const attackScores: number[] = [];
  for (const a of attackHeld)
    for (let k = 0; k < 3; k++)
      attackScores.push(plantedScore(cleanHeld[Math.floor(rh() * cleanHeld.length)]?.text ?? '', a.text));
  const hardAlone = hardHeld.map((h) => maxProbability(h, model));
  const hardPlantedScores = hardHeld.map((h) =>
    plantedScore(cleanHeld[Math.floor(rh() * cleanHeld.length)]?.text ?? '', h),
  );
  const cleanScores = cleanHeld.map((c) => ({
    key: c.source.split(' ')[0] ?? c.source,
    p: maxProbability(c.text, model),
  }));
  const atLeast = (xs: readonly number[], t: number) => xs.filter((x) => x >= t).length;
  const pct = (n: number, d: number) => `${((100 * n) / Math.max(1, d)).toFixed(1)}%`;
  const curve: Record<string, string> = {};
  for (const t of [0.5, 0.6, 0.7, 0.8, 0.9, 0.95])
    curve[String(t)] = `attacks ${pct(atLeast(attackScores, t), attackScores.length)}, clean ${pct(
      atLeast(
        cleanScores.map((c) => c.p),
        t,
      ),
      cleanScores.length,
    )}, hard alone ${pct(atLeast(hardAlone, t), hardAlone.length)}, hard planted ${pct(atLeast(hardPlantedScores, t), hardPlantedScores.length)}`;
  const th = model.threshold;
  const planted = attackScores.length;
  const detected = atLeast(attackScores, th);
  const hardFlagged = atLeast(hardAlone, th);
  const hardPlantedFlagged = atLeast(hardPlantedScores, th);
  const cleanFlagged = atLeast(
    cleanScores.map((c) => c.p),
    th,
  );
  const byGroup: Record<string, string> = {};
  for (const c of cleanScores) {
    const [f, n] = (byGroup[c.key] ?? '0/0').split('/').map(Number);
    byGroup[c.key] = `${(f ?? 0) + (c.p >= th ? 1 : 0)}/${(n ?? 0) + 1}`;
  }
  return {
    cleanChunks: cleanHeld.length,
    cleanFlagged,
    plantedAttacks: planted,
    detected,
    byGroup,
    hardFlagged,
    hardTotal: hardHeld.length,
    hardPlantedFlagged,
    hardPlanted: hardHeld.length,
    curve,
  };
}
