import { z } from 'zod';
import modelJson from './injection-model.json';
import { splitSentences } from './text';

/**
 * A learned prompt-injection classifier: logistic regression over hashed features (word unigrams and bigrams,
 * character 3- to 5-grams), Unicode-aware so it reads every script the same way. Hand-written (no dependency, no
 * download): the model is small, well understood and trained by `npm run train:injection`
 * (scripts/train-injection.ts) from clean text of many sources and our own attacks, never from an evaluation set.
 *
 * Text is scored in windows (one sentence, or a sentence with the next, up to WINDOW_CHARS), because an attack is
 * usually a few sentences planted inside a much longer clean chunk: scoring the whole chunk would dilute it.
 */

export const HASH_BITS = 18;
const DIM = 1 << HASH_BITS;
const WINDOW_CHARS = 500;
const LONG_PIECE = 400;

export const modelFileSchema = z.object({
  version: z.literal(1),
  hashBits: z.literal(HASH_BITS),
  /** int8 weights, base64, DIM bytes; weight = byte * scale. */
  weights: z.string().min(1),
  scale: z.number().positive(),
  bias: z.number(),
  /** Decision threshold on the probability, chosen on held-out clean chunks. */
  threshold: z.number().min(0).max(1),
  trainedOn: z.record(z.string(), z.number()),
});
export type ModelFile = z.infer<typeof modelFileSchema>;

export interface Model {
  weights: Float32Array;
  bias: number;
  threshold: number;
}

/** Quantises float weights to int8 (symmetric, one scale). */
export function quantise(weights: Float32Array, bias: number, threshold: number, trainedOn: Record<string, number>) {
  let max = 0;
  for (const w of weights) max = Math.max(max, Math.abs(w));
  const scale = max > 0 ? max / 127 : 1;
  const bytes = new Int8Array(weights.length);
  for (let i = 0; i < weights.length; i++) bytes[i] = Math.round((weights[i] ?? 0) / scale);
  const file: ModelFile = {
    version: 1,
    hashBits: HASH_BITS,
    weights: Buffer.from(bytes.buffer).toString('base64'),
    scale,
    bias,
    threshold,
    trainedOn,
  };
  return file;
}

export function modelFromFile(raw: unknown): Model {
  const file = modelFileSchema.parse(raw);
  const bytes = Buffer.from(file.weights, 'base64');
  if (bytes.length !== DIM) throw new Error(`injection model: expected ${DIM} weights, got ${bytes.length}`);
  const ints = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  const weights = new Float32Array(DIM);
  for (let i = 0; i < DIM; i++) weights[i] = (ints[i] ?? 0) * file.scale;
  return { weights, bias: file.bias, threshold: file.threshold };
}

let cached: Model | undefined;

/** The committed model (lib/agent/injection-model.json), validated and decoded once. */
export function loadModel(): Model {
  cached ??= modelFromFile(modelJson);
  return cached;
}

const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]|[\u{E0000}-\u{E007F}]/gu;

/** NFKC, lower case, invisible characters dropped, digits folded, whitespace collapsed. */
export function normalise(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(INVISIBLE, '').replace(/\d/g, '0').replace(/\s+/g, ' ').trim();
}

function fnv(s: string, seed: number): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

const WORD = /[\p{L}\p{M}\p{N}_]+|[^\s\p{L}\p{M}\p{N}_]/gu;

/** Sparse, L2-normalised feature vector of a window: hashed indices and log-scaled counts. */
export function features(text: string): { idx: Uint32Array; val: Float32Array } {
  const norm = normalise(text);
  const counts = new Map<number, number>();
  const add = (h: number) => {
    const i = h & (DIM - 1);
    counts.set(i, (counts.get(i) ?? 0) + 1);
  };
  const words = norm.match(WORD) ?? [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] ?? '';
    add(fnv(w, 1));
    if (i > 0) add(fnv(`${words[i - 1]} ${w}`, 2));
  }
  // character 3- to 5-grams over code points, hashed incrementally (no substrings allocated)
  const cps: number[] = [32];
  for (const ch of norm) cps.push(ch.codePointAt(0) ?? 0);
  cps.push(32);
  for (let i = 0; i + 3 <= cps.length; i++) {
    let h = 2166136261;
    for (let n = 0; n < 5 && i + n < cps.length; n++) {
      h = Math.imul(h ^ (cps[i + n] ?? 0), 16777619) >>> 0;
      if (n >= 2) add(Math.imul(h ^ (n * 0x9e3779b1), 0x85ebca6b) >>> 0);
    }
  }
  const idx = new Uint32Array(counts.size);
  const val = new Float32Array(counts.size);
  let k = 0;
  let sq = 0;
  for (const [i, c] of counts) {
    const v = 1 + Math.log(c);
    idx[k] = i;
    val[k] = v;
    sq += v * v;
    k++;
  }
  const inv = sq > 0 ? 1 / Math.sqrt(sq) : 0;
  for (let j = 0; j < k; j++) val[j] = (val[j] ?? 0) * inv;
  return { idx, val };
}

export function probability(model: Model, text: string): number {
  const { idx, val } = features(text);
  let z = model.bias;
  for (let j = 0; j < idx.length; j++) z += (model.weights[idx[j] ?? 0] ?? 0) * (val[j] ?? 0);
  return 1 / (1 + Math.exp(-z));
}

export interface Window {
  text: string;
  start: number;
  end: number;
}

/** The windows a text is scored in: each sentence (long ones in overlapping pieces), and each pair that fits. */
export function windows(text: string): Window[] {
  const sentences = splitSentences(text).flatMap((s) => {
    if (s.text.length <= WINDOW_CHARS) return [s];
    const out: { text: string; start: number; end: number }[] = [];
    for (let a = 0; a < s.text.length; a += LONG_PIECE / 2) {
      const b = Math.min(s.text.length, a + LONG_PIECE);
      out.push({ text: s.text.slice(a, b), start: s.start + a, end: s.start + b });
      if (b === s.text.length) break;
    }
    return out;
  });
  const out: Window[] = [];
  sentences.forEach((s, i) => {
    out.push({ text: s.text, start: s.start, end: s.end });
    const next = sentences[i + 1];
    if (next && next.end - s.start <= WINDOW_CHARS && next.start >= s.end)
      out.push({ text: text.slice(s.start, next.end), start: s.start, end: next.end });
  });
  return out;
}

export interface ClassifierFinding {
  span: string;
  start: number;
  end: number;
  probability: number;
}

/**
 * Windows the classifier flags (overlapping flagged windows merged). Empty for clean text. `only` restricts scoring
 * to some windows (the product scores only windows the rules already find suspicious).
 */
export function classifyInjection(
  text: string,
  options: { model?: Model; threshold?: number; only?: (w: Window) => boolean } = {},
): ClassifierFinding[] {
  if (text.trim().length === 0) return [];
  const model = options.model ?? loadModel();
  const threshold = options.threshold ?? model.threshold;
  const only = options.only;
  const hits = windows(text)
    .filter((w) => !only || only(w))
    .map((w) => ({ ...w, p: probability(model, w.text) }))
    .filter((w) => w.p >= threshold);
  const merged: ClassifierFinding[] = [];
  for (const h of hits.sort((a, b) => a.start - b.start)) {
    const last = merged[merged.length - 1];
    if (last && h.start <= last.end) {
      last.end = Math.max(last.end, h.end);
      last.probability = Math.max(last.probability, h.p);
      last.span = text.slice(last.start, last.end);
    } else merged.push({ span: h.text, start: h.start, end: h.end, probability: h.p });
  }
  return merged;
}

/** The highest window probability of a text: for threshold selection and reports. */
export function maxProbability(text: string, model: Model): number {
  let best = 0;
  for (const w of windows(text)) best = Math.max(best, probability(model, w.text));
  return best;
}
