import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestLimits } from './request-limits.js';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
});

function watch(limits: RequestLimits): { aborts: number } {
  const seen = { aborts: 0 };
  limits.stop.on('abort', () => {
    seen.aborts += 1;
  });
  return seen;
}

describe('RequestLimits', () => {
  it('stops a request when its limit runs out, and says it timed out', () => {
    const limits = new RequestLimits();
    const seen = watch(limits);
    const limit = limits.start(1000);
    vi.advanceTimersByTime(999);
    expect(seen.aborts).toBe(0);
    vi.advanceTimersByTime(1);
    expect(seen.aborts).toBe(1);
    expect(limit.timedOut()).toBe(true);
  });

  it('gives a later request its whole limit, though the timer was armed for an earlier one', () => {
    const limits = new RequestLimits();
    const seen = watch(limits);
    limits.start(1000).clear();
    vi.advanceTimersByTime(500);
    const second = limits.start(1000);
    vi.advanceTimersByTime(999);
    expect(seen.aborts).toBe(0);
    vi.advanceTimersByTime(1);
    expect(seen.aborts).toBe(1);
    expect(second.timedOut()).toBe(true);
  });

  it('keeps a shorter limit that follows a longer one', () => {
    const limits = new RequestLimits();
    const seen = watch(limits);
    limits.start(300_000).clear();
    const short = limits.start(100);
    vi.advanceTimersByTime(100);
    expect(seen.aborts).toBe(1);
    expect(short.timedOut()).toBe(true);
  });

  it('never stops a request that is done', () => {
    const limits = new RequestLimits();
    const seen = watch(limits);
    const limit = limits.start(1000);
    limit.clear();
    vi.advanceTimersByTime(5000);
    expect(seen.aborts).toBe(0);
    expect(limit.timedOut()).toBe(false);
  });

  it('stops a request when its caller aborts, which is no time-out, and stops following the caller once done', () => {
    const limits = new RequestLimits();
    const seen = watch(limits);
    const caller = new AbortController();
    const limit = limits.start(60_000, caller.signal);
    caller.abort();
    expect(seen.aborts).toBe(1);
    expect(limit.timedOut()).toBe(false);
    limit.clear();
    const later = new AbortController();
    limits.start(60_000, later.signal).clear();
    later.abort();
    expect(seen.aborts).toBe(1);
  });
});
