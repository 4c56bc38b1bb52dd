const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** One decimal at most, none when it is zero: 1.5, 15, 0.3. */
function oneDecimal(value: number): string {
  return String(Math.round(value * 10) / 10);
}

/**
 * A duration in milliseconds as people read it, in the largest unit that keeps it short:
 * `850 ms`, `1.5 s`, `15 s`, `2.5 min`, `5 min`, `3 h`, `2 days`. Below a second it shows whole
 * milliseconds; above, at most one decimal. Negative or non-finite input reads as `0 ms`.
 *
 * @example
 * formatDuration(300_000); // '5 min'
 * formatDuration(1_500); // '1.5 s'
 */
export function formatDuration(milliseconds: number): string {
  const ms = Number.isFinite(milliseconds) && milliseconds > 0 ? milliseconds : 0;
  if (Math.round(ms) < SECOND) return `${Math.round(ms)} ms`;
  if (Math.round(ms / 100) * 100 < MINUTE) return `${oneDecimal(ms / SECOND)} s`;
  if (Math.round(ms / (MINUTE / 10)) * (MINUTE / 10) < HOUR) return `${oneDecimal(ms / MINUTE)} min`;
  if (Math.round(ms / (HOUR / 10)) * (HOUR / 10) < 2 * DAY) return `${oneDecimal(ms / HOUR)} h`;
  return `${oneDecimal(ms / DAY)} days`;
}
