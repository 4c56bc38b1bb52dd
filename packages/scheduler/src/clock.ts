/**
 * Time as the scheduler sees it. Inject one in tests to move time forward without sleeping;
 * `now` is wall-clock epoch milliseconds, the timers are one-shot.
 */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node fires a longer timeout after 1 ms (with a warning); longer waits are capped to this. */
const longestTimeout = 2_147_483_647;

/** The real clock: `Date.now` and the global timers (a started scheduler keeps its process alive). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, Math.min(Math.max(0, ms), longestTimeout)),
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>);
  },
};
