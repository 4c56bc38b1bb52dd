import { describe, expect, it } from 'vitest';
import { describeWait, readRateLimit } from './rate-limit.js';

const headers = (values: Record<string, string>) => new Headers(values);

describe('readRateLimit', () => {
  it('waits for the window that ran out', () => {
    expect(
      readRateLimit(headers({ 'x-ratelimit-reset': '1, 1419704', 'x-ratelimit-remaining': '0, 12' })),
    ).toEqual({
      waitMs: 1000,
      longWindow: false,
    });
  });

  it('calls a spent monthly quota a long window', () => {
    expect(
      readRateLimit(headers({ 'x-ratelimit-reset': '1, 86400', 'x-ratelimit-remaining': '1, 0' })),
    ).toEqual({
      waitMs: 86_400_000,
      longWindow: true,
    });
  });

  it('takes the shortest window when Remaining is missing', () => {
    expect(readRateLimit(headers({ 'x-ratelimit-reset': '3, 1000' })).waitMs).toBe(3000);
  });

  it('falls back to Retry-After', () => {
    expect(readRateLimit(headers({ 'retry-after': '2' }))).toEqual({ waitMs: 2000, longWindow: false });
  });

  it('knows nothing without headers', () => {
    expect(readRateLimit(headers({}))).toEqual({ waitMs: undefined, longWindow: false });
  });
});

describe('describeWait', () => {
  it('uses seconds, minutes, hours and days', () => {
    expect(describeWait(1000)).toBe('1 s');
    expect(describeWait(600_000)).toBe('10 min');
    expect(describeWait(3 * 3_600_000)).toBe('3 h');
    expect(describeWait(1_419_704_000)).toBe('17 days');
  });
});
