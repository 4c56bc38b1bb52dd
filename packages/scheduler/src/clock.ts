/**
 * Time as the scheduler sees it. Inject one in tests to move time forward without sleeping;
 * `now` is wall-clock epoch milliseconds, the timers are one-shot.
 */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock: `Date.now` and the global timers (a started scheduler keeps its process alive). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};
