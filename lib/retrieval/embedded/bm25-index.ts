import { type ScoredSlot, TopK } from '@/lib/retrieval/embedded/top-k';

/**
 * An in-memory BM25F inverted index over two fields (body text and context prefix) for ONE owner.
 * Documents are numbered by slot; removal tombstones a slot and `compact()` reclaims space.
 * Scoring is exhaustive term-at-a-time over typed-array postings (exact BM25F, no pruning).
 */

export interface Bm25Params {
  k1: number;
  /** Length normalisation of the body field. */
  bBody: number;
  /** Length normalisation of the context (title / heading) field. */
  bContext: number;
  /** Weight of a context-field occurrence relative to a body occurrence. */
  contextWeight: number;
}

/** Chosen on the SciFact train split (see docs/benchmarks-retrieval.md). */
export const DEFAULT_BM25_PARAMS: Bm25Params = { k1: 1.5, bBody: 0.9, bContext: 0.75, contextWeight: 2 };

interface Postings {
  slots: Uint32Array;
  /** Body tf in the low 16 bits, context tf in the high 16 bits. */
  tfs: Uint32Array;
  length: number;
  /** Live documents containing the term. */
  df: number;
}

const MAX_TF = 0xffff;

function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

function grow<T extends Uint32Array | Float32Array | Uint8Array>(
  array: T,
  minLength: number,
  make: (n: number) => T,
): T {
  if (array.length >= minLength) return array;
  const next = make(Math.max(minLength, array.length * 2, 16));
  next.set(array);
  return next;
}

export class Bm25Index {
  private readonly terms = new Map<string, Postings>();
  private bodyLength = new Uint32Array(0);
  private contextLength = new Uint32Array(0);
  private alive = new Uint8Array(0);
  private accumulator = new Float32Array(0);
  private touched = new Uint32Array(0);
  private slotCount = 0;
  private liveCount = 0;
  private totalBody = 0;
  private totalContext = 0;
  /** Bumped by every add/remove/compact; invalidates the cached length norms. */
  private generation = 0;
  private norms: { generation: number; bodyInverse: Float32Array; contextFactor: Float32Array } | null = null;

  constructor(private readonly params: Bm25Params = DEFAULT_BM25_PARAMS) {}

  /** Number of slots handed out (live + tombstoned). */
  get slots(): number {
    return this.slotCount;
  }

  /** Number of live documents. */
  get size(): number {
    return this.liveCount;
  }

  /** Tombstoned slots not yet reclaimed by compact(). */
  get deadSlots(): number {
    return this.slotCount - this.liveCount;
  }

  isAlive(slot: number): boolean {
    return this.alive[slot] === 1;
  }

  /** Adds a document from its analysed fields and returns its new slot. */
  add(bodyTerms: readonly string[], contextTerms: readonly string[]): number {
    const slot = this.slotCount++;
    this.generation++;
    const needed = this.slotCount;
    this.bodyLength = grow(this.bodyLength, needed, (n) => new Uint32Array(n));
    this.contextLength = grow(this.contextLength, needed, (n) => new Uint32Array(n));
    this.alive = grow(this.alive, needed, (n) => new Uint8Array(n));
    this.bodyLength[slot] = bodyTerms.length;
    this.contextLength[slot] = contextTerms.length;
    this.alive[slot] = 1;
    this.liveCount++;
    this.totalBody += bodyTerms.length;
    this.totalContext += contextTerms.length;
    const body = countTerms(bodyTerms);
    const context = countTerms(contextTerms);
    for (const [term, tf] of body) {
      const packed = Math.min(tf, MAX_TF) | (Math.min(context.get(term) ?? 0, MAX_TF) << 16);
      this.append(term, slot, packed >>> 0);
    }
    for (const [term, tf] of context) {
      if (!body.has(term)) this.append(term, slot, (Math.min(tf, MAX_TF) << 16) >>> 0);
    }
    return slot;
  }

  /**
   * Tombstones a slot. The caller passes the same analysed fields it added (the analyser is deterministic),
   * so document frequencies stay exact without a forward index.
   */
  remove(slot: number, bodyTerms: readonly string[], contextTerms: readonly string[]): void {
    if (this.alive[slot] !== 1) return;
    this.alive[slot] = 0;
    this.generation++;
    this.liveCount--;
    this.totalBody -= this.bodyLength[slot] ?? 0;
    this.totalContext -= this.contextLength[slot] ?? 0;
    for (const term of new Set([...bodyTerms, ...contextTerms])) {
      const postings = this.terms.get(term);
      if (postings) postings.df--;
    }
  }

  /**
   * Rewrites postings without tombstoned slots. Returns the old-slot → new-slot map (-1 for removed slots)
   * so the owner of per-slot data can renumber it in the same synchronous step.
   */
  compact(): Int32Array {
    this.generation++;
    const remap = new Int32Array(this.slotCount).fill(-1);
    let next = 0;
    for (let slot = 0; slot < this.slotCount; slot++) {
      if (this.alive[slot] === 1) remap[slot] = next++;
    }
    for (const [term, postings] of this.terms) {
      let write = 0;
      for (let i = 0; i < postings.length; i++) {
        const mapped = remap[postings.slots[i] ?? 0] ?? -1;
        if (mapped < 0) continue;
        postings.slots[write] = mapped;
        postings.tfs[write] = postings.tfs[i] ?? 0;
        write++;
      }
      if (write === 0) {
        this.terms.delete(term);
        continue;
      }
      postings.length = write;
      if (postings.slots.length > write * 4) {
        postings.slots = postings.slots.slice(0, write);
        postings.tfs = postings.tfs.slice(0, write);
      }
    }
    const bodyLength = new Uint32Array(next);
    const contextLength = new Uint32Array(next);
    for (let slot = 0; slot < this.slotCount; slot++) {
      const mapped = remap[slot] ?? -1;
      if (mapped < 0) continue;
      bodyLength[mapped] = this.bodyLength[slot] ?? 0;
      contextLength[mapped] = this.contextLength[slot] ?? 0;
    }
    this.bodyLength = bodyLength;
    this.contextLength = contextLength;
    this.alive = new Uint8Array(next).fill(1);
    this.slotCount = next;
    this.accumulator = new Float32Array(0);
    this.touched = new Uint32Array(0);
    return remap;
  }

  /** Inverse document frequency of a term among live documents (Lucene's non-negative BM25 idf). */
  idf(term: string): number {
    const df = this.terms.get(term)?.df ?? 0;
    if (df <= 0) return 0;
    return Math.log(1 + (this.liveCount - df + 0.5) / (df + 0.5));
  }

  /**
   * Scores live documents for the analysed query terms (a repeated term weighs more) and returns the best
   * `limit` slots that pass `accept`, best first; ties broken by lower slot (earlier insertion).
   */
  search(queryTerms: readonly string[], limit: number, accept?: (slot: number) => boolean): ScoredSlot[] {
    return this.searchWeighted(countTerms(queryTerms), limit, accept);
  }

  /** Like search(), with an explicit weight per query term (e.g. for pseudo-relevance feedback). */
  searchWeighted(query: ReadonlyMap<string, number>, limit: number, accept?: (slot: number) => boolean): ScoredSlot[] {
    if (limit <= 0 || this.liveCount === 0 || query.size === 0) return [];
    const { k1 } = this.params;
    const { bodyInverse, contextFactor } = this.lengthNorms();
    if (this.accumulator.length < this.slotCount) {
      this.accumulator = new Float32Array(this.slotCount);
      this.touched = new Uint32Array(this.slotCount);
    }
    const acc = this.accumulator;
    const touched = this.touched;
    let touchedCount = 0;
    for (const [term, queryWeight] of query) {
      const postings = this.terms.get(term);
      if (!postings || postings.df <= 0 || !(queryWeight > 0)) continue;
      const weight = this.idf(term) * queryWeight * (k1 + 1);
      const { slots, tfs, length } = postings;
      for (let i = 0; i < length; i++) {
        const slot = slots[i] as number;
        const packed = tfs[i] as number;
        const tfBody = packed & MAX_TF;
        const tfContext = packed >>> 16;
        let tf = tfBody * (bodyInverse[slot] as number);
        if (tfContext > 0) tf += tfContext * (contextFactor[slot] as number);
        const contribution = (weight * tf) / (tf + k1);
        if (acc[slot] === 0) touched[touchedCount++] = slot;
        acc[slot] = (acc[slot] as number) + contribution;
      }
    }
    const heap = new TopK(limit);
    for (let i = 0; i < touchedCount; i++) {
      const slot = touched[i] as number;
      const score = acc[slot] as number;
      acc[slot] = 0;
      if (this.alive[slot] !== 1) continue;
      if (!heap.wouldAccept(score, slot)) continue;
      if (accept && !accept(slot)) continue;
      heap.push(score, slot);
    }
    return heap.sorted();
  }

  /**
   * Per-slot BM25F length normalisation, 1 / (1 - b + b * len / avgLen) (context also times its weight),
   * recomputed in one pass after any write so that scores stay exact as the average lengths move.
   */
  private lengthNorms(): { bodyInverse: Float32Array; contextFactor: Float32Array } {
    if (this.norms && this.norms.generation === this.generation) return this.norms;
    const { bBody, bContext, contextWeight } = this.params;
    const avgBody = this.totalBody / this.liveCount || 1;
    const avgContext = this.totalContext / this.liveCount || 1;
    const bodyInverse = new Float32Array(this.slotCount);
    const contextFactor = new Float32Array(this.slotCount);
    for (let slot = 0; slot < this.slotCount; slot++) {
      bodyInverse[slot] = 1 / (1 - bBody + (bBody * (this.bodyLength[slot] ?? 0)) / avgBody);
      contextFactor[slot] = contextWeight / (1 - bContext + (bContext * (this.contextLength[slot] ?? 0)) / avgContext);
    }
    this.norms = { generation: this.generation, bodyInverse, contextFactor };
    return this.norms;
  }

  private append(term: string, slot: number, packed: number): void {
    let postings = this.terms.get(term);
    if (!postings) {
      postings = { slots: new Uint32Array(2), tfs: new Uint32Array(2), length: 0, df: 0 };
      this.terms.set(term, postings);
    }
    if (postings.length === postings.slots.length) {
      postings.slots = grow(postings.slots, postings.length + 1, (n) => new Uint32Array(n));
      postings.tfs = grow(postings.tfs, postings.length + 1, (n) => new Uint32Array(n));
    }
    postings.slots[postings.length] = slot;
    postings.tfs[postings.length] = packed;
    postings.length++;
    postings.df++;
  }
}
