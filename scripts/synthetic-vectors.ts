/**
 * Synthetic vector distributions shared by the ANN recall curve (`bench-ann.ts`) and the scale benchmark
 * (`bench-retrieval.ts --vectors clustered`). Deterministic (seeded), synthetic data only.
 */

/** Small deterministic PRNG (mulberry32): synthetic data only, never ids or secrets. */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Sampler = (out: Float32Array, offset: number) => void;

function unitGaussian(random: () => number, dims: number): Float32Array {
  const v = new Float32Array(dims);
  let norm = 0;
  for (let d = 0; d < dims; d++) {
    const g = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    v[d] = g;
    norm += g * g;
  }
  norm = Math.sqrt(norm);
  for (let d = 0; d < dims; d++) v[d] = (v[d] as number) / norm;
  return v;
}

function normalizeInto(out: Float32Array, offset: number, dims: number): void {
  let norm = 0;
  for (let d = 0; d < dims; d++) norm += (out[offset + d] as number) ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let d = 0; d < dims; d++) out[offset + d] = (out[offset + d] as number) / norm;
}

/** The retrieval benchmark's sampler: one of 256 gaussian centroids + 0.7 x gaussian noise, normalised. */
export function benchSampler(random: () => number, dims: number): Sampler {
  const gaussian = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const centroids = Array.from({ length: 256 }, () => Float32Array.from({ length: dims }, gaussian));
  return (out, offset) => {
    const centroid = centroids[Math.floor(random() * centroids.length)] as Float32Array;
    for (let d = 0; d < dims; d++) out[offset + d] = (centroid[d] as number) + 0.7 * gaussian();
    normalizeInto(out, offset, dims);
  };
}

/**
 * Embedding-like: 0.55 x a direction shared by all texts (embeddings are anisotropic) + 1.0 x one of 200 topics
 * + 0.7 x one of 20 sub-topics of it + 0.5 x noise, all unit vectors, normalised.
 */
export function clusteredSampler(random: () => number, dims: number, draw: () => number = random): Sampler {
  const common = unitGaussian(random, dims);
  const topics = Array.from({ length: 200 }, () => unitGaussian(random, dims));
  const subtopics = Array.from({ length: 200 * 20 }, () => unitGaussian(random, dims));
  return (out, offset) => {
    const topic = Math.floor(draw() * topics.length);
    const t = topics[topic] as Float32Array;
    const s = subtopics[topic * 20 + Math.floor(draw() * 20)] as Float32Array;
    const noise = unitGaussian(draw, dims);
    for (let d = 0; d < dims; d++)
      out[offset + d] =
        0.55 * (common[d] as number) + (t[d] as number) + 0.7 * (s[d] as number) + 0.5 * (noise[d] as number);
    normalizeInto(out, offset, dims);
  };
}
