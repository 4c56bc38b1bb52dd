import { EventEmitter } from 'node:events';

/** One request's time limit, from {@link RequestLimits.start}. */
export interface RequestLimit {
  /** True when this request's limit ran out (not the caller's signal). */
  timedOut(): boolean;
  /** Ends the limit: call when the request is done, whichever way. */
  clear(): void;
}

/**
 * The time limits of one session's requests not streamed, which run one at a time: one timer and
 * one emitter serve them all. undici takes the emitter as a request's `signal` and stops the
 * request when it emits `abort`. A request only writes its deadline: the timer armed for an
 * earlier one fires, finds the later deadline and waits out the rest. A timer, an emitter and an
 * abort listener of their own cost every request of the agent's loop about as much as the
 * loop's bookkeeping (measured; an `AbortController` costs ten times a timer on Node 20).
 */
export class RequestLimits {
  /** Emits `abort` when the running request's limit runs out or its caller aborts. */
  readonly stop = new EventEmitter();
  #timer: NodeJS.Timeout | undefined;
  /** When the armed timer fires, on `performance.now()`'s clock. */
  #firesAt = 0;
  /** The running request's deadline; 0 while none runs. */
  #deadline = 0;
  #running = 0;
  #ranOut = 0;

  /** Starts the limit of the next request: `ms` from now, or sooner when `parent` aborts. */
  start(ms: number, parent?: AbortSignal): RequestLimit {
    const id = ++this.#running;
    const deadline = performance.now() + ms;
    this.#deadline = deadline;
    if (this.#timer === undefined || deadline < this.#firesAt) this.#arm(deadline);
    const onAbort = parent ? () => this.stop.emit('abort') : undefined;
    if (parent && onAbort) parent.addEventListener('abort', onAbort, { once: true });
    return {
      timedOut: () => this.#ranOut === id,
      clear: () => {
        if (this.#running === id) this.#deadline = 0;
        if (parent && onAbort) parent.removeEventListener('abort', onAbort);
      },
    };
  }

  #arm(at: number): void {
    clearTimeout(this.#timer);
    this.#firesAt = at;
    this.#timer = setTimeout(() => this.#fire(), Math.max(1, Math.ceil(at - performance.now())));
    this.#timer.unref();
  }

  #fire(): void {
    this.#timer = undefined;
    // Nothing runs: the timer is armed again by the next request.
    if (this.#deadline === 0) return;
    if (this.#deadline > performance.now()) {
      this.#arm(this.#deadline);
      return;
    }
    this.#ranOut = this.#running;
    this.#deadline = 0;
    this.stop.emit('abort');
  }
}
