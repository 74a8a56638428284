import { type BlockLayout, blockLayout, type SegmentReader } from '@/lib/retrieval/embedded/keyword-segment';
import { type ScoredSlot, TopK } from '@/lib/retrieval/embedded/top-k';

/** A slot past every real one (a list's position once it is exhausted). */
export const END = 0x7fffffff;
/**
 * Slots per MaxScore window (a power of two: candidates are kept in a bitset of WINDOW bits). Large, because the
 * essential lists are the rare terms: with 1,024-slot windows they had a few postings per window each, and the
 * per-window work (bounds, split, opening the lists' blocks) cost more than scoring them
 * (docs/benchmarks-retrieval.md).
 */
export const WINDOW = 16_384;
/**
 * The highest-bound non-essential list is scored like an essential one in a window when the previous window's
 * candidates outnumbered its blocks there this many times: probing would read all of those blocks anyway, and
 * accumulating it lowers the bound every candidate must beat before its first probe.
 */
const DENSE_PROBES = 2;

/** One segment's part of a query term: the term's index in that segment and the segment's first global slot. */
export interface TermPart {
  reader: SegmentReader;
  base: number;
  term: number;
}

/** BM25F inputs shared by every list of a query: per-slot length norms and saturation. */
export interface ScoringContext {
  k1: number;
  /** Per global slot: 1 / (1 - b + b * len / avgLen) of the body. */
  bodyInverse: Float32Array;
  /** Per global slot: contextWeight / (1 - b + b * len / avgLen) of the context prefix. */
  contextFactor: Float32Array;
  /** 1 for live slots. */
  alive: Uint8Array;
}

/**
 * One query term's postings over all segments as a single list in global slot order, with block-max bounds.
 * Monomorphic and allocation-free while searching: blocks are addressed by a global block number and skipped by
 * their last slot without decoding; inside a block the postings are read straight from the segment's bytes, never
 * decoded into arrays first. A block of the fixed-width layout (segment version 3, `fixed`) is read by index:
 * `pos` of `count`, slot = `first` + the posting's offset, so a probe is a binary search and the accumulation loop
 * (in maxScoreSearch) scores a window's postings by index. A block of a version-2 segment is read varint by varint
 * (a cursor: byte position, current slot and tfs); the accumulation loop reads those varints itself.
 */
export class TermList {
  /** Global slot of each block's last posting, and the block's score bound (from its max tf and min length). */
  readonly blockLast: Int32Array;
  readonly blockBound: Float64Array;
  /** Max of the block bounds (the term's bound over the whole collection). */
  readonly bound: number;
  /** First block that may overlap the current window (windowBound's position). */
  private boundAt = 0;
  /** Blocks overlapping the last window given to windowBound(). */
  windowBlocks = 0;
  /** Per part: its first global block number (one more entry: the total). */
  private readonly partFirstBlock: Int32Array;
  private part = 0;
  /** The open block (global number), its part's postings bytes, and (version 2) the byte range left to read in it. */
  block = -1;
  bytes: Uint8Array;
  at = 0;
  stop = 0;
  /** Whether the open block has the fixed-width layout (version 3); then the fields below describe it. */
  fixed = false;
  words16: Uint16Array;
  words32: Uint32Array;
  /** Global slot the block's offsets count from; current posting and postings in the block. */
  first = 0;
  pos = 0;
  count = 0;
  /** The open block's first sparse posting (with a context tf) not before `pos` (they are in block order). */
  private sparse = 0;
  /** Widths in bytes and positions (in elements of that width) of the block's offsets, body and context tfs. */
  private readonly layout: BlockLayout = blockLayout(0, 0);
  /** Current global slot (-1 before the start, END after the last posting) and its tfs. */
  doc = -1;
  bodyTf = 0;
  contextTf = 0;

  constructor(
    private readonly parts: readonly TermPart[],
    /** idf x query weight x (k1 + 1). */
    readonly weight: number,
    k1: number,
    bodyNorm: (len: number) => number,
    contextNorm: (len: number) => number,
  ) {
    let blocks = 0;
    this.partFirstBlock = new Int32Array(parts.length + 1);
    parts.forEach((part, i) => {
      this.partFirstBlock[i] = blocks;
      blocks +=
        (part.reader.termBlockStart[part.term + 1] as number) - (part.reader.termBlockStart[part.term] as number);
    });
    this.partFirstBlock[parts.length] = blocks;
    const firstReader = (parts[0] as TermPart | undefined)?.reader;
    this.bytes = firstReader?.postings ?? new Uint8Array(0);
    this.words16 = firstReader?.postings16 ?? new Uint16Array(0);
    this.words32 = firstReader?.postings32 ?? new Uint32Array(0);
    this.blockLast = new Int32Array(blocks);
    this.blockBound = new Float64Array(blocks);
    let at = 0;
    let bound = 0;
    for (const part of parts) {
      const reader = part.reader;
      const end = reader.termBlockStart[part.term + 1] as number;
      for (let block = reader.termBlockStart[part.term] as number; block < end; block++) {
        const maxB = reader.blockMaxTfBody[block] as number;
        const maxC = reader.blockMaxTfContext[block] as number;
        let tf = maxB > 0 ? maxB * bodyNorm(reader.blockMinLenBody[block] as number) : 0;
        if (maxC > 0) tf += maxC * contextNorm(reader.blockMinLenContext[block] as number);
        // Inflated so that float rounding never lets a real score exceed its bound.
        const value = ((weight * tf) / (tf + k1)) * 1.0001 + 1e-9;
        this.blockLast[at] = part.base + (reader.blockLastDoc[block] as number);
        this.blockBound[at++] = value;
        if (value > bound) bound = value;
      }
    }
    this.bound = bound;
  }

  /** Upper bound of this term's score over slots [start, end): max of the bounds of the blocks overlapping them. */
  windowBound(start: number, end: number): number {
    const last = this.blockLast;
    const n = last.length;
    let b = this.boundAt;
    while (b < n && (last[b] as number) < start) b++;
    this.boundAt = b;
    let bound = 0;
    const first = b;
    for (; b < n; b++) {
      const value = this.blockBound[b] as number;
      if (value > bound) bound = value;
      if ((last[b] as number) >= end - 1) break;
    }
    this.windowBlocks = b - first + 1;
    return bound;
  }

  /** Moves to the first posting with slot >= target (blocks ending before it are skipped unread). */
  seek(target: number): void {
    if (this.doc >= target) return;
    const last = this.blockLast;
    let b = this.block;
    if (b < 0 || (last[b] as number) < target) {
      const n = last.length;
      b++;
      while (b < n && (last[b] as number) < target) b++;
      if (b >= n) {
        this.end();
        return;
      }
      this.open(b);
    }
    if (this.fixed) {
      if (this.doc < target) this.moveTo(this.lowerBound(target));
      return;
    }
    // Terminates: the block's last slot is >= target.
    while (this.doc < target) this.next();
  }

  /** Slot of the open fixed-width block's posting `i`. */
  slotAt(i: number): number {
    const { slotWidth, slotAt } = this.layout;
    const at = slotAt + i;
    return (
      this.first +
      (slotWidth === 2
        ? (this.words16[at] as number)
        : slotWidth === 1
          ? (this.bytes[at] as number)
          : (this.words32[at] as number))
    );
  }

  /**
   * In the open fixed-width block, the first position from the current one whose slot is >= target (`count` when
   * none): a binary search over the offsets.
   */
  lowerBound(target: number): number {
    let lo = this.pos;
    let hi = this.count;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.slotAt(mid) < target) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** In the open fixed-width block, moves to posting `i` (the next block's first when i is past the last). */
  moveTo(i: number): void {
    if (i >= this.count) {
      this.nextBlock();
      return;
    }
    const layout = this.layout;
    const bodyWidth = layout.bodyWidth;
    const bodyAt = layout.bodyAt;
    this.pos = i;
    this.doc = this.slotAt(i);
    const tfBody = bodyWidth === 1 ? (this.bytes[bodyAt + i] as number) : (this.words16[bodyAt + i] as number);
    this.bodyTf = tfBody;
    this.contextTf = 0;
    // 0 in the dense body tfs: the posting is one of the block's sparse postings with a context tf.
    if (tfBody === 0) {
      const { contextIndexAt, contextCount, contextBodyAt, contextWidth, contextAt } = layout;
      let j = this.sparse;
      while (j < contextCount && (this.bytes[contextIndexAt + j] as number) < i) j++;
      this.sparse = j;
      this.bodyTf =
        bodyWidth === 1 ? (this.bytes[contextBodyAt + j] as number) : (this.words16[contextBodyAt + j] as number);
      this.contextTf =
        contextWidth === 1 ? (this.bytes[contextAt + j] as number) : (this.words16[contextAt + j] as number);
    }
  }

  /**
   * Scores the open fixed-width block's postings [pos, to) into a window's scores and touched bitset (slots
   * relative to `start`), then moves to posting `to`. The same arithmetic as the varint loop of maxScoreSearch:
   * the dense pass adds 0 for the postings with a context tf (x + 0 is x), the sparse pass then adds their scores,
   * still before any other list's.
   */
  accumulate(
    to: number,
    start: number,
    k1: number,
    bodyInverse: Float32Array,
    contextFactor: Float32Array,
    windowScores: Float64Array,
    touched: Int32Array,
  ): void {
    const layout = this.layout;
    const slotWidth = layout.slotWidth;
    const slotAt = layout.slotAt;
    const bodyWidth = layout.bodyWidth;
    const bodyAt = layout.bodyAt;
    const bytes = this.bytes;
    const words16 = this.words16;
    const weight = this.weight;
    const base = this.first - start;
    const from = this.pos;
    if (slotWidth === 2 && bodyWidth === 1) {
      // The common block (a term in 0.2%-50% of the chunks, tfs below 256), without width tests.
      for (let i = from; i < to; i++) {
        const position = base + (words16[slotAt + i] as number);
        const tf = (bytes[bodyAt + i] as number) * (bodyInverse[start + position] as number);
        touched[position >>> 5] = (touched[position >>> 5] as number) | (1 << (position & 31));
        windowScores[position] = (windowScores[position] as number) + (weight * tf) / (tf + k1);
      }
    } else {
      const words32 = this.words32;
      for (let i = from; i < to; i++) {
        const s = slotAt + i;
        const position =
          base +
          (slotWidth === 2 ? (words16[s] as number) : slotWidth === 1 ? (bytes[s] as number) : (words32[s] as number));
        const tf =
          (bodyWidth === 1 ? (bytes[bodyAt + i] as number) : (words16[bodyAt + i] as number)) *
          (bodyInverse[start + position] as number);
        touched[position >>> 5] = (touched[position >>> 5] as number) | (1 << (position & 31));
        windowScores[position] = (windowScores[position] as number) + (weight * tf) / (tf + k1);
      }
    }
    const contextCount = layout.contextCount;
    if (contextCount > 0) {
      const { contextIndexAt, contextBodyAt, contextWidth, contextAt } = layout;
      let j = this.sparse;
      while (j < contextCount && (bytes[contextIndexAt + j] as number) < from) j++;
      for (; j < contextCount; j++) {
        const i = bytes[contextIndexAt + j] as number;
        if (i >= to) break;
        const position = this.slotAt(i) - start;
        const slot = start + position;
        const tfBody = bodyWidth === 1 ? (bytes[contextBodyAt + j] as number) : (words16[contextBodyAt + j] as number);
        const tfContext = contextWidth === 1 ? (bytes[contextAt + j] as number) : (words16[contextAt + j] as number);
        let tf = tfBody * (bodyInverse[slot] as number);
        tf += tfContext * (contextFactor[slot] as number);
        windowScores[position] = (windowScores[position] as number) + (weight * tf) / (tf + k1);
      }
      this.sparse = j;
    }
    this.moveTo(to);
  }

  /** Moves to the next posting (the next block's first once this block is read; END after the last). */
  next(): void {
    if (this.fixed) {
      this.moveTo(this.pos + 1);
      return;
    }
    if (this.at >= this.stop) {
      this.nextBlock();
      return;
    }
    const bytes = this.bytes;
    let at = this.at;
    let byte = bytes[at++] as number;
    let value = byte & 0x7f;
    for (let shift = 7; byte & 0x80; shift += 7) {
      byte = bytes[at++] as number;
      value |= (byte & 0x7f) << shift;
    }
    this.doc += value;
    byte = bytes[at++] as number;
    value = byte & 0x7f;
    for (let shift = 7; byte & 0x80; shift += 7) {
      byte = bytes[at++] as number;
      value |= (byte & 0x7f) << shift;
    }
    this.bodyTf = value >>> 1;
    let tfContext = 0;
    if (value & 1) {
      byte = bytes[at++] as number;
      tfContext = byte & 0x7f;
      for (let shift = 7; byte & 0x80; shift += 7) {
        byte = bytes[at++] as number;
        tfContext |= (byte & 0x7f) << shift;
      }
    }
    this.contextTf = tfContext;
    this.at = at;
  }

  /** Moves to the first posting of the block after the open one (or the end). */
  nextBlock(): void {
    const b = this.block + 1;
    if (b >= this.blockLast.length) {
      this.end();
      return;
    }
    this.open(b);
  }

  private end(): void {
    this.block = this.blockLast.length;
    this.fixed = false;
    this.pos = 0;
    this.count = 0;
    this.at = 0;
    this.stop = 0;
    this.doc = END;
    this.bodyTf = 0;
    this.contextTf = 0;
  }

  /** Opens a block and reads its first posting (blocks are never empty). */
  private open(block: number): void {
    let part = this.part;
    const firsts = this.partFirstBlock;
    while ((firsts[part + 1] as number) <= block) part++;
    this.part = part;
    const { reader, base, term } = this.parts[part] as TermPart;
    const first = reader.termBlockStart[term] as number;
    const local = first + block - (firsts[part] as number);
    this.bytes = reader.postings;
    this.block = block;
    if (reader.version === 3) {
      this.fixed = true;
      this.words16 = reader.postings16;
      this.words32 = reader.postings32;
      blockLayout(reader.blockMeta[local] as number, reader.blockOffset[local] as number, this.layout);
      this.first = base + (reader.blockFirstDoc[local] as number);
      this.pos = 0;
      this.sparse = 0;
      this.count = this.layout.count;
      this.moveTo(0);
      return;
    }
    this.fixed = false;
    this.at = reader.blockOffset[local] as number;
    this.stop = reader.blockOffset[local + 1] as number;
    this.doc = base + (local > first ? (reader.blockLastDoc[local - 1] as number) : 0);
    this.next();
  }
}

/** Per-thread window buffers, reused by every search (a search runs to its end synchronously). */
interface WindowScratch {
  windowScores: Float64Array;
  touched: Int32Array;
  candidateSlots: Int32Array;
  candidateScores: Float64Array;
  /** Set while a search runs: still set at the next search means the last one threw midway (buffers dirty). */
  inUse: boolean;
}
let scratch: WindowScratch | null = null;

function windowScratch(window: number): WindowScratch {
  if (!scratch || scratch.windowScores.length !== window) {
    scratch = {
      windowScores: new Float64Array(window),
      touched: new Int32Array(window >>> 5),
      candidateSlots: new Int32Array(window),
      candidateScores: new Float64Array(window),
      inUse: false,
    };
  } else if (scratch.inUse) {
    scratch.windowScores.fill(0);
    scratch.touched.fill(0);
  }
  return scratch;
}

/**
 * Best live slots for a query's term lists (BM25F, exact scores), best first, ties by lower slot: MaxScore with
 * per-window block-max bounds (Lucene's MaxScore bulk scorer). Window by window of WINDOW slots, each term's
 * bound there is the max of its blocks overlapping the window; the terms are split by those bounds into
 * essential ones (accumulated term-at-a-time into the window) and non-essential ones (probed only for the
 * window's candidates while a candidate can still beat the k-th score, one list at a time over a compact buffer
 * of the candidates). When the last window's candidates were dense, the highest non-essential list is
 * accumulated too (DENSE_PROBES). A window whose bounds sum to no more than the k-th score is skipped without
 * decoding.
 */
export function maxScoreSearch(
  lists: TermList[],
  limit: number,
  context: ScoringContext,
  accept?: (slot: number) => boolean,
  /** Slots per window (a power of two, at least 32): WINDOW but in tests, which cross many small windows. */
  window = WINDOW,
): ScoredSlot[] {
  const { k1, bodyInverse, contextFactor, alive } = context;
  const windowWords = window >>> 5;
  const heap = new TopK(limit);
  lists.sort((x, y) => x.bound - y.bound);
  const m = lists.length;
  const prefix = new Float64Array(m + 1);
  for (let i = 0; i < m; i++) prefix[i + 1] = (prefix[i] as number) + (lists[i] as TermList).bound;
  // Lists whose summed global bounds cannot beat the threshold ("non-essential") never bring a candidate: the
  // next window starts at the first slot of an essential list.
  let essentialFrom = 0;
  let threshold = heap.threshold();
  while (essentialFrom < m && (prefix[essentialFrom + 1] as number) <= threshold) essentialFrom++;
  const work = windowScratch(window);
  work.inUse = true;
  const { windowScores, touched, candidateSlots, candidateScores } = work;
  // Per window: bounds of every list there, the lists ordered by them, and their prefix sums.
  const order: TermList[] = lists.slice();
  const local = new Float64Array(m);
  const localPrefix = new Float64Array(m + 1);
  let windowStart = 0;
  /** Candidates of the last window that needed a probe (the density the next window's split looks at). */
  let survivors = 0;
  while (essentialFrom < m) {
    let first = END;
    for (let i = essentialFrom; i < m; i++) {
      const list = lists[i] as TermList;
      if (list.doc < windowStart) list.seek(windowStart);
      if (list.doc < first) first = list.doc;
    }
    if (first === END) break;
    const start = first - (first % window);
    const end = start + window;
    windowStart = end;
    for (let i = 0; i < m; i++) {
      const list = lists[i] as TermList;
      const bound = list.windowBound(start, end);
      // Insertion sort by window bound (m is small).
      let j = i;
      while (j > 0 && (local[j - 1] as number) > bound) {
        local[j] = local[j - 1] as number;
        order[j] = order[j - 1] as TermList;
        j--;
      }
      local[j] = bound;
      order[j] = list;
    }
    for (let j = 0; j < m; j++) localPrefix[j + 1] = (localPrefix[j] as number) + (local[j] as number);
    let localEssential = 0;
    while (localEssential < m && (localPrefix[localEssential + 1] as number) <= threshold) localEssential++;
    if (localEssential >= m) continue;
    // Any split whose non-essential bounds sum to at most the threshold is exact; when the last window's
    // candidates were dense, one more list is accumulated (cheaper than probing it for every candidate).
    if (localEssential > 0 && survivors >= DENSE_PROBES * (order[localEssential - 1] as TermList).windowBlocks)
      localEssential--;

    // Essential lists: every posting in the window is scored into windowScores; touched positions in the bitset.
    for (let j = localEssential; j < m; j++) {
      const list = order[j] as TermList;
      if (list.doc < start) list.seek(start);
      const weight = list.weight;
      // The postings are read here from the segment bytes, varint by varint (what next() does), without a call
      // per posting; the list's cursor is written back when the window or the block ends.
      while (list.doc < end) {
        if (list.fixed) {
          // Fixed-width block: the postings in the window are found by a binary search, then scored by index.
          const to = (list.blockLast[list.block] as number) < end ? list.count : list.lowerBound(end);
          list.accumulate(to, start, k1, bodyInverse, contextFactor, windowScores, touched);
          continue;
        }
        const bytes = list.bytes;
        const stop = list.stop;
        let at = list.at;
        let slot = list.doc;
        let tfBody = list.bodyTf;
        let tfContext = list.contextTf;
        // The posting decoder (TermList.next) is repeated inline here on purpose: this loop scores every posting of
        // the essential lists, and a call per posting cost measurably more (docs/benchmarks-retrieval.md).
        for (;;) {
          let tf = tfBody * (bodyInverse[slot] as number);
          if (tfContext > 0) tf += tfContext * (contextFactor[slot] as number);
          const position = slot - start;
          // Branch-free: whether the position was touched before is unpredictable.
          touched[position >>> 5] = (touched[position >>> 5] as number) | (1 << (position & 31));
          windowScores[position] = (windowScores[position] as number) + (weight * tf) / (tf + k1);
          if (at >= stop) break;
          let byte = bytes[at++] as number;
          let value = byte & 0x7f;
          for (let shift = 7; byte & 0x80; shift += 7) {
            byte = bytes[at++] as number;
            value |= (byte & 0x7f) << shift;
          }
          slot += value;
          byte = bytes[at++] as number;
          value = byte & 0x7f;
          for (let shift = 7; byte & 0x80; shift += 7) {
            byte = bytes[at++] as number;
            value |= (byte & 0x7f) << shift;
          }
          tfBody = value >>> 1;
          tfContext = 0;
          if (value & 1) {
            byte = bytes[at++] as number;
            tfContext = byte & 0x7f;
            for (let shift = 7; byte & 0x80; shift += 7) {
              byte = bytes[at++] as number;
              tfContext |= (byte & 0x7f) << shift;
            }
          }
          if (slot >= end) break;
        }
        if (slot < end) {
          // The block is read to its end: its last posting was accumulated.
          list.nextBlock();
        } else {
          list.at = at;
          list.doc = slot;
          list.bodyTf = tfBody;
          list.contextTf = tfContext;
        }
      }
    }

    // Candidates in slot order (the bitset) into a compact buffer, dropping those that cannot beat the threshold
    // even with every non-essential list.
    const full = heap.full;
    let bound = localPrefix[localEssential] as number;
    let count = 0;
    for (let w = 0; w < windowWords; w++) {
      let bits = touched[w] as number;
      if (bits === 0) continue;
      touched[w] = 0;
      while (bits !== 0) {
        const low = bits & -bits;
        bits ^= low;
        const at = (w << 5) | (31 - Math.clz32(low));
        const total = windowScores[at] as number;
        windowScores[at] = 0;
        const slot = start + at;
        if (alive[slot] !== 1 || (full && total + bound <= threshold)) continue;
        candidateSlots[count] = slot;
        candidateScores[count++] = total;
      }
    }
    survivors = count;
    // Non-essential lists, highest bound first, each applied to the candidates still able to win (Lucene's
    // MaxScoreBulkScorer): a tight loop per list instead of a walk over all lists per candidate.
    for (let j = localEssential - 1; j >= 0 && count > 0; j--) {
      const list = order[j] as TermList;
      const weight = list.weight;
      bound = localPrefix[j] as number;
      let kept = 0;
      for (let c = 0; c < count; c++) {
        const slot = candidateSlots[c] as number;
        let total = candidateScores[c] as number;
        if (list.doc < slot) list.seek(slot);
        if (list.doc === slot) {
          let tf = list.bodyTf * (bodyInverse[slot] as number);
          const tfContext = list.contextTf;
          if (tfContext > 0) tf += tfContext * (contextFactor[slot] as number);
          total += (weight * tf) / (tf + k1);
        }
        if (full && total + bound <= threshold) continue;
        candidateSlots[kept] = slot;
        candidateScores[kept++] = total;
      }
      count = kept;
    }
    for (let c = 0; c < count; c++) {
      const slot = candidateSlots[c] as number;
      const total = candidateScores[c] as number;
      if (!heap.wouldAccept(total, slot)) continue;
      if (accept && !accept(slot)) continue;
      heap.push(total, slot);
      if (heap.full) threshold = heap.threshold();
    }
    while (essentialFrom < m && (prefix[essentialFrom + 1] as number) <= threshold) essentialFrom++;
  }
  // Every window's scores and bits were cleared as its candidates were read.
  work.inUse = false;
  return heap.sorted();
}
