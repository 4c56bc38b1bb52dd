/**
 * Makes `controller` abort, with the parent's reason, when `parent` does; the returned function
 * stops listening. The cheap form of `AbortSignal.any([parent, controller.signal])`, which costs
 * tens of microseconds per call on Node 20 (twice per model request in the agent's loop).
 */
function follow(controller: AbortController, parent: AbortSignal | undefined): () => void {
  if (parent === undefined) return () => {};
  if (parent.aborted) {
    controller.abort(parent.reason);
    return () => {};
  }
  const onAbort = () => controller.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return () => parent.removeEventListener('abort', onAbort);
}

/**
 * A deadline: an abort signal that fires after `ms` (or when `parent` aborts, with its reason),
 * with a timer that is cleared when done.
 */
export function createDeadline(
  ms: number,
  what = 'no answer',
  parent?: AbortSignal,
): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  // A plain timer, not AbortSignal.timeout: it is cleared as soon as the work ends instead of
  // lingering for the whole time limit, and costs less per request.
  const timer = setTimeout(
    () => controller.abort(new DOMException(`${what} within ${ms} ms`, 'TimeoutError')),
    ms,
  );
  timer.unref?.();
  const unfollow = follow(controller, parent);
  return {
    signal: controller.signal,
    clear: () => {
      clearTimeout(timer);
      unfollow();
    },
  };
}

/** Which limit of a {@link createTokenDeadline} ran out. */
export type TokenDeadlineExpiry = 'first-token' | 'between-tokens';

/** Limits of {@link createTokenDeadline}, in milliseconds. */
export interface TokenDeadlineLimits {
  /** Until the first piece of the reply (a model loading counts here); the whole reply when not streamed. */
  firstTokenMs: number;
  /** Longest silence between two pieces once the reply streams. */
  betweenTokensMs: number;
}

/** A deadline for a streamed reply: a generous wait for the first token, then a short one per token. */
export interface TokenDeadline {
  /** Aborts (with a `TimeoutError`) when a limit runs out, or with the parent's reason when it aborts. */
  signal: AbortSignal;
  /** Call on every piece of the reply: the first switches to the between-tokens limit. */
  tokenArrived(): void;
  /** Which limit ran out; undefined while none has. */
  expired(): TokenDeadlineExpiry | undefined;
  /** The limit that ran out (or the one running), in milliseconds. */
  limitMs(): number;
  /** Stops the timer (and stops following the parent). */
  clear(): void;
}

/**
 * Separates a model still loading (slow to start: `firstTokenMs`, minutes) from a hung one
 * (silent mid-stream: `betweenTokensMs`, seconds). One timer, re-armed per piece.
 *
 * @example
 * const deadline = createTokenDeadline({ firstTokenMs: 300_000, betweenTokensMs: 60_000 });
 * for await (const part of stream) { deadline.tokenArrived(); ... }
 * deadline.clear();
 */
export function createTokenDeadline(limits: TokenDeadlineLimits, parent?: AbortSignal): TokenDeadline {
  const controller = new AbortController();
  let phase: TokenDeadlineExpiry = 'first-token';
  let expired: TokenDeadlineExpiry | undefined;
  let lastToken = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // One timer, not one per token: when it fires it looks at when the last token came and waits
  // out the rest of the limit, so a fast stream costs a timestamp per token.
  const fire = () => {
    if (phase === 'between-tokens') {
      const left = lastToken + limits.betweenTokensMs - performance.now();
      if (left > 0) {
        arm(left);
        return;
      }
    }
    expired = phase;
    const ms = phase === 'first-token' ? limits.firstTokenMs : limits.betweenTokensMs;
    const what = phase === 'first-token' ? 'no first token' : 'no further token';
    controller.abort(new DOMException(`${what} within ${ms} ms`, 'TimeoutError'));
  };
  const arm = (ms: number) => {
    timer = setTimeout(fire, Math.max(1, Math.ceil(ms)));
    timer.unref?.();
  };
  arm(limits.firstTokenMs);
  const unfollow = follow(controller, parent);
  return {
    signal: controller.signal,
    tokenArrived() {
      if (expired !== undefined) return;
      lastToken = performance.now();
      if (phase === 'first-token') {
        phase = 'between-tokens';
        clearTimeout(timer);
        arm(limits.betweenTokensMs);
      }
    },
    expired: () => expired,
    limitMs: () => (phase === 'first-token' ? limits.firstTokenMs : limits.betweenTokensMs),
    clear: () => {
      clearTimeout(timer);
      unfollow();
    },
  };
}

/** A time limit on work that may never look at its signal: see {@link createWorkLimit}. */
export interface WorkLimit {
  /** Aborts when the limit runs out or the parent aborts; made on first read. */
  readonly signal: AbortSignal;
  /** Rejects with the reason when the limit runs out or the parent aborts; race the work with it. */
  readonly stopped: Promise<never>;
  /** True once the limit ran out (not the parent). */
  timedOut(): boolean;
  /** Stops the timer and stops following the parent. */
  clear(): void;
}

/**
 * A deadline whose abort signal is made only when the work reads it. Most tools never do, and an
 * `AbortController` with its listeners costs about ten times the timer on Node 20 (measured:
 * 6.5 µs against 0.7 µs a run), which a tool call in the agent's loop pays each time.
 *
 * @example
 * const limit = createWorkLimit(30_000, 'tool did not finish', callerSignal);
 * try { return await Promise.race([work(limit), limit.stopped]); } finally { limit.clear(); }
 */
export function createWorkLimit(ms: number, what: string, parent?: AbortSignal): WorkLimit {
  return new LazyWorkLimit(ms, what, parent);
}

/** {@link WorkLimit} as a class: its lazy `signal` is a getter on the prototype, which costs nothing per limit. */
class LazyWorkLimit implements WorkLimit {
  readonly stopped: Promise<never>;
  #controller: AbortController | undefined;
  #reason: unknown;
  #ended = false;
  #timedOut = false;
  #reject: (reason: unknown) => void = () => {};
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #parent: AbortSignal | undefined;
  readonly #onAbort = () => this.#end(this.#parent?.reason);

  constructor(ms: number, what: string, parent: AbortSignal | undefined) {
    this.stopped = new Promise<never>((_, fail) => {
      this.#reject = fail;
    });
    // Nobody may be racing it when it fires (the work is done): that is no unhandled rejection.
    this.stopped.catch(() => {});
    this.#parent = parent;
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.#end(new DOMException(`${what} within ${ms} ms`, 'TimeoutError'));
    }, ms);
    this.#timer.unref?.();
    if (parent?.aborted) this.#end(parent.reason);
    else parent?.addEventListener('abort', this.#onAbort, { once: true });
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#ended) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  timedOut(): boolean {
    return this.#timedOut;
  }

  clear(): void {
    clearTimeout(this.#timer);
    this.#parent?.removeEventListener('abort', this.#onAbort);
  }

  #end(why: unknown): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#reason = why;
    this.#controller?.abort(why);
    this.#reject(why);
  }
}
