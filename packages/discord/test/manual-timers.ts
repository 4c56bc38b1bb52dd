import type { Timers } from '../src/timers.js';

/** Timers that fire only when the test moves the clock: no sleeping, no luck. */
export function manualTimers(start = 1_000_000) {
  let now = start;
  let nextHandle = 1;
  const pending = new Map<number, { at: number; callback: () => void }>();
  const timers: Timers = {
    now: () => now,
    setTimeout: (callback, ms) => {
      const handle = nextHandle++;
      pending.set(handle, { at: now + Math.max(0, ms), callback });
      return handle;
    },
    clearTimeout: (handle) => {
      pending.delete(handle as number);
    },
  };
  /** Moves the clock forward, firing due timers in order (timers set while firing included). */
  const advance = (ms: number) => {
    const target = now + ms;
    for (;;) {
      const due = [...pending.entries()]
        .filter(([, timer]) => timer.at <= target)
        .sort(([, a], [, b]) => a.at - b.at)[0];
      if (!due) break;
      pending.delete(due[0]);
      now = Math.max(now, due[1].at);
      due[1].callback();
    }
    now = target;
  };
  return { timers, advance, pendingCount: () => pending.size };
}
