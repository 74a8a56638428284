/**
 * Runs async tasks one at a time, in submission order. A failed task rejects its own caller only;
 * the queue moves on to the next task.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private queued = 0;

  run<T>(task: () => Promise<T>): Promise<T> {
    this.queued++;
    const result = this.tail.then(task, task).finally(() => {
      this.queued--;
    });
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Tasks submitted and not yet settled. */
  get pending(): number {
    return this.queued;
  }

  /** Resolves once every task submitted so far has settled. */
  async idle(): Promise<void> {
    await this.tail;
  }
}
