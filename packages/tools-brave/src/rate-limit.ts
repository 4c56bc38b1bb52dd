/** What the rate-limit headers of a 429 say about waiting. */
export interface RateLimitWait {
  /** Milliseconds until the exhausted window resets, when the headers say. */
  waitMs: number | undefined;
  /** True when the exhausted window is longer than a minute (the monthly quota, say). */
  longWindow: boolean;
}

/**
 * Reads Brave's rate-limit headers. `X-RateLimit-Reset: 1, 1419704` lists the seconds until
 * each window resets (per second, per month); `X-RateLimit-Remaining: 0, 1000` says which one
 * ran out. Without `Remaining`, the shortest window is taken to be the one; `Retry-After` is
 * used when there is no reset header.
 */
export function readRateLimit(headers: { get(name: string): string | null }): RateLimitWait {
  const resets = numbers(headers.get('x-ratelimit-reset'));
  const remaining = numbers(headers.get('x-ratelimit-remaining'));
  if (resets.length === 0) {
    const retryAfter = Number(headers.get('retry-after'));
    if (Number.isFinite(retryAfter) && retryAfter >= 0 && headers.get('retry-after') !== null) {
      return { waitMs: retryAfter * 1000, longWindow: retryAfter > 60 };
    }
    return { waitMs: undefined, longWindow: false };
  }
  const exhausted = resets.filter((_, index) => remaining[index] === 0);
  const seconds = exhausted.length > 0 ? Math.max(...exhausted) : Math.min(...resets);
  return { waitMs: seconds * 1000, longWindow: seconds > 60 };
}

function numbers(value: string | null): number[] {
  if (!value) return [];
  return value
    .split(',')
    .map((part) => Number(part.trim()))
    .filter((part) => Number.isFinite(part) && part >= 0);
}

/** "1 s", "3 min", "16 days": a wait in words. */
export function describeWait(milliseconds: number): string {
  const seconds = Math.ceil(milliseconds / 1000);
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 2 * 3600) return `${Math.ceil(seconds / 60)} min`;
  if (seconds < 2 * 86_400) return `${Math.ceil(seconds / 3600)} h`;
  return `${Math.ceil(seconds / 86_400)} days`;
}
