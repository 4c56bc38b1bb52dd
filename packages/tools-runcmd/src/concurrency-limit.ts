/** A counting semaphore whose waiters leave the queue when their signal aborts. */
export interface ConcurrencyLimit {
  /**
   * Waits for a free slot and returns its release function, or `undefined` at once when the
   * queue is full. Rejects with the signal's reason if it aborts while waiting.
   */
  acquire(signal: AbortSignal): Promise<(() => void) | undefined>;
  /** Calls running now. */
  readonly active: number;
  /** Calls waiting now. */
  readonly waiting: number;
}

/**
 * Creates a limit of `maxActive` running calls and `maxQueued` waiting ones. Written here
 * rather than taken from p-limit, which cannot drop a queued call when its caller aborts.
 */
export function createConcurrencyLimit(maxActive: number, maxQueued: number): ConcurrencyLimit {
  let active = 0;
  const queue: Array<() => void> = [];

  const release = () => {
    const next = queue.shift();
    if (next === undefined) active--;
    else next();
  };
  const once = () => {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  };

  return {
    get active() {
      return active;
    },
    get waiting() {
      return queue.length;
    },
    acquire(signal) {
      if (signal.aborted) return Promise.reject(signal.reason);
      if (active < maxActive) {
        active++;
        return Promise.resolve(once());
      }
      if (queue.length >= maxQueued) return Promise.resolve(undefined);
      return new Promise((resolve, reject) => {
        const wake = () => {
          signal.removeEventListener('abort', onAbort);
          resolve(once());
        };
        const onAbort = () => {
          const index = queue.indexOf(wake);
          if (index !== -1) queue.splice(index, 1);
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        queue.push(wake);
      });
    },
  };
}
