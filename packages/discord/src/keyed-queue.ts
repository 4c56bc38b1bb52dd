/**
 * Runs tasks one at a time per key, in the order they were added, and different keys at once.
 * The bot keys by channel: one channel's messages are answered in order while other channels
 * go on in parallel.
 */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<void>>();
  private count = 0;

  /** @param onSize Told the number of tasks running or waiting whenever it changes. */
  constructor(private readonly onSize?: (size: number) => void) {}

  /** Tasks running or waiting, over every key. */
  get size(): number {
    return this.count;
  }

  /** Keys with a task running or waiting. */
  get activeKeys(): number {
    return this.tails.size;
  }

  /** Runs `task` after every task added before it under `key`; resolves or rejects as it does. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    this.onSize?.(++this.count);
    const result = previous.then(task).finally(() => this.onSize?.(--this.count));
    // A failed task must not stop the ones behind it.
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }

  /** Resolves when every task added so far has finished. */
  async idle(): Promise<void> {
    while (this.tails.size > 0) await Promise.all(this.tails.values());
  }
}
