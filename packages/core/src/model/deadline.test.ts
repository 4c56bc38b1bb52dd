import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDeadline, createTokenDeadline, createWorkLimit } from './deadline.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('createDeadline', () => {
  it('aborts with a TimeoutError naming the limit when the time runs out', () => {
    vi.useFakeTimers();
    const deadline = createDeadline(1000, 'tool did not finish');
    vi.advanceTimersByTime(999);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    expect(deadline.signal.reason).toMatchObject({
      name: 'TimeoutError',
      message: 'tool did not finish within 1000 ms',
    });
  });

  it("follows its parent: aborts with the parent's reason, at once when it is aborted already", () => {
    const parent = new AbortController();
    const deadline = createDeadline(60_000, undefined, parent.signal);
    parent.abort(new Error('stopped by the user'));
    expect(deadline.signal.reason).toEqual(new Error('stopped by the user'));
    deadline.clear();
    const late = createDeadline(60_000, undefined, parent.signal);
    expect(late.signal.reason).toEqual(new Error('stopped by the user'));
    late.clear();
  });

  it('stops following its parent once cleared', () => {
    const parent = new AbortController();
    const deadline = createDeadline(60_000, undefined, parent.signal);
    deadline.clear();
    parent.abort();
    expect(deadline.signal.aborted).toBe(false);
  });
});

describe('createTokenDeadline', () => {
  it('waits the first-token limit, then the between-tokens limit from the last token', () => {
    vi.useFakeTimers();
    const deadline = createTokenDeadline({ firstTokenMs: 5000, betweenTokensMs: 1000 });
    vi.advanceTimersByTime(4000);
    deadline.tokenArrived();
    vi.advanceTimersByTime(900);
    deadline.tokenArrived();
    vi.advanceTimersByTime(900);
    expect(deadline.signal.aborted).toBe(false);
    vi.advanceTimersByTime(200);
    expect(deadline.expired()).toBe('between-tokens');
    expect(deadline.signal.reason).toMatchObject({ message: 'no further token within 1000 ms' });
  });

  it("follows its parent until cleared, and the parent's abort is not a timeout", () => {
    const parent = new AbortController();
    const deadline = createTokenDeadline({ firstTokenMs: 60_000, betweenTokensMs: 1000 }, parent.signal);
    parent.abort(new Error('cancelled'));
    expect(deadline.signal.reason).toEqual(new Error('cancelled'));
    expect(deadline.expired()).toBeUndefined();
    deadline.clear();
    const other = new AbortController();
    const cleared = createTokenDeadline({ firstTokenMs: 60_000, betweenTokensMs: 1000 }, other.signal);
    cleared.clear();
    other.abort();
    expect(cleared.signal.aborted).toBe(false);
  });
});

describe('createWorkLimit', () => {
  it('rejects `stopped` when the time runs out, and a signal read only then is already aborted', async () => {
    vi.useFakeTimers();
    const limit = createWorkLimit(1000, 'tool did not finish');
    const raced = Promise.race([new Promise(() => {}), limit.stopped]);
    vi.advanceTimersByTime(1000);
    await expect(raced).rejects.toMatchObject({
      name: 'TimeoutError',
      message: 'tool did not finish within 1000 ms',
    });
    expect(limit.timedOut()).toBe(true);
    expect(limit.signal.aborted).toBe(true);
    expect(limit.signal.reason).toMatchObject({ name: 'TimeoutError' });
  });

  it("aborts a signal read before with the parent's reason, which is no timeout", async () => {
    const parent = new AbortController();
    const limit = createWorkLimit(60_000, 'tool did not finish', parent.signal);
    const signal = limit.signal;
    parent.abort(new Error('stopped by the user'));
    expect(signal.reason).toEqual(new Error('stopped by the user'));
    await expect(limit.stopped).rejects.toEqual(new Error('stopped by the user'));
    expect(limit.timedOut()).toBe(false);
    limit.clear();
  });

  it("hands a signal read only after the parent aborted already aborted, with the parent's reason", async () => {
    const parent = new AbortController();
    const limit = createWorkLimit(60_000, 'tool did not finish', parent.signal);
    parent.abort(new Error('stopped by the user'));
    await expect(limit.stopped).rejects.toEqual(new Error('stopped by the user'));
    expect(limit.signal.aborted).toBe(true);
    expect(limit.signal.reason).toEqual(new Error('stopped by the user'));
    expect(limit.timedOut()).toBe(false);
    limit.clear();
  });

  it('stops following the parent once cleared', () => {
    const parent = new AbortController();
    const limit = createWorkLimit(60_000, 'tool did not finish', parent.signal);
    limit.clear();
    parent.abort();
    expect(limit.signal.aborted).toBe(false);
  });
});
