export interface ScoredSlot {
  slot: number;
  score: number;
}

/** Fixed-size min-heap keeping the best (score desc, slot asc) entries. */
export class TopK {
  private readonly scores: Float64Array;
  private readonly slots: Int32Array;
  private count = 0;

  constructor(private readonly capacity: number) {
    this.scores = new Float64Array(capacity);
    this.slots = new Int32Array(capacity);
  }

  get full(): boolean {
    return this.count >= this.capacity;
  }

  /** Score a chunk must beat to enter (0 until full). */
  threshold(): number {
    return this.count < this.capacity ? 0 : (this.scores[0] as number);
  }

  wouldAccept(score: number, slot: number): boolean {
    if (this.count < this.capacity) return true;
    return this.better(score, slot, this.scores[0] as number, this.slots[0] as number);
  }

  push(score: number, slot: number): void {
    if (this.count < this.capacity) {
      let i = this.count++;
      this.scores[i] = score;
      this.slots[i] = slot;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (!this.worse(i, parent)) break;
        this.swap(i, parent);
        i = parent;
      }
      return;
    }
    this.scores[0] = score;
    this.slots[0] = slot;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      const right = left + 1;
      let smallest = i;
      if (left < this.count && this.worse(left, smallest)) smallest = left;
      if (right < this.count && this.worse(right, smallest)) smallest = right;
      if (smallest === i) break;
      this.swap(i, smallest);
      i = smallest;
    }
  }

  sorted(): ScoredSlot[] {
    const out: ScoredSlot[] = [];
    for (let i = 0; i < this.count; i++) out.push({ slot: this.slots[i] as number, score: this.scores[i] as number });
    return out.sort((a, b) => b.score - a.score || a.slot - b.slot);
  }

  private better(scoreA: number, slotA: number, scoreB: number, slotB: number): boolean {
    return scoreA > scoreB || (scoreA === scoreB && slotA < slotB);
  }

  private worse(i: number, j: number): boolean {
    return this.better(
      this.scores[j] as number,
      this.slots[j] as number,
      this.scores[i] as number,
      this.slots[i] as number,
    );
  }

  private swap(i: number, j: number): void {
    const score = this.scores[i] as number;
    const slot = this.slots[i] as number;
    this.scores[i] = this.scores[j] as number;
    this.slots[i] = this.slots[j] as number;
    this.scores[j] = score;
    this.slots[j] = slot;
  }
}
