/**
 * Runs async tasks one at a time, in submission order. A failed task rejects its own caller only;
 * the queue moves on to the next task.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const result = this.tail.then(task, task);
    this.tail = result.catch(() => undefined);
    return result;
  }

  /** Resolves once every task submitted so far has settled. */
  async idle(): Promise<void> {
    await this.tail;
  }
}
