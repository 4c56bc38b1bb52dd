import type { CpuTimesReading } from './source-types.js';

/**
 * Rate-from-delta helpers. Each returns `null` rather than a made-up number when there is no
 * earlier reading, no time has passed, or a counter went backwards (a reset or a wrap): a
 * bogus zero or a spike is worse than saying nothing.
 */

/** Per-second rate of a cumulative counter between two readings `elapsedMs` apart. */
export function ratePerSecond(
  previous: number | undefined,
  current: number,
  elapsedMs: number,
): number | null {
  if (previous === undefined || !(elapsedMs > 0) || current < previous) return null;
  return ((current - previous) * 1000) / elapsedMs;
}

/** Busy share between two CPU readings, 0–100. */
export function busyPercent(previous: CpuTimesReading | undefined, current: CpuTimesReading): number | null {
  if (previous === undefined) return null;
  const total = current.total - previous.total;
  const busy = current.busy - previous.busy;
  if (!(total > 0) || busy < 0) return null;
  return Math.min(100, Math.max(0, (busy / total) * 100));
}

/** Share of one core a process used: CPU milliseconds over wall milliseconds, as `top` shows it. */
export function processCpuPercent(
  previousCpuMs: number | undefined,
  currentCpuMs: number,
  elapsedMs: number,
): number | null {
  if (previousCpuMs === undefined || !(elapsedMs > 0) || currentCpuMs < previousCpuMs) return null;
  return ((currentCpuMs - previousCpuMs) / elapsedMs) * 100;
}

/** Sum of the values that are known; `null` when none is. */
export function sumKnown(values: Iterable<number | null>): number | null {
  let sum: number | null = null;
  for (const value of values) if (value !== null) sum = (sum ?? 0) + value;
  return sum;
}
