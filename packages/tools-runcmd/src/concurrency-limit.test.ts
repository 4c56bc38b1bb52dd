import { describe, expect, it } from 'vitest';
import { createConcurrencyLimit } from './concurrency-limit.js';

const never = new AbortController().signal;

describe('createConcurrencyLimit', () => {
  it('grants slots up to the limit at once', async () => {
    const limit = createConcurrencyLimit(2, 5);
    expect(await limit.acquire(never)).toBeTypeOf('function');
    expect(await limit.acquire(never)).toBeTypeOf('function');
    expect(limit.active).toBe(2);
  });

  it('hands a released slot to the first waiter', async () => {
    const limit = createConcurrencyLimit(1, 5);
    const release = await limit.acquire(never);
    const order: string[] = [];
    const first = limit.acquire(never).then((r) => order.push('first') && r);
    const second = limit.acquire(never).then((r) => order.push('second') && r);
    expect(limit.waiting).toBe(2);
    release!();
    await first;
    expect(order).toEqual(['first']);
    expect(limit.active).toBe(1);
    ((await first) as () => void)();
    await second;
    expect(order).toEqual(['first', 'second']);
  });

  it('answers undefined at once when the queue is full', async () => {
    const limit = createConcurrencyLimit(1, 1);
    await limit.acquire(never);
    void limit.acquire(never);
    expect(await limit.acquire(never)).toBeUndefined();
  });

  it('takes a waiter whose signal aborts out of the queue', async () => {
    const limit = createConcurrencyLimit(1, 1);
    const release = await limit.acquire(never);
    const controller = new AbortController();
    const waiting = limit.acquire(controller.signal);
    controller.abort(new Error('gone'));
    await expect(waiting).rejects.toThrow('gone');
    expect(limit.waiting).toBe(0);
    release!();
    expect(limit.active).toBe(0);
  });

  it('ignores a second release of the same slot', async () => {
    const limit = createConcurrencyLimit(2, 1);
    const release = await limit.acquire(never);
    await limit.acquire(never);
    release!();
    release!();
    expect(limit.active).toBe(1);
  });

  it('rejects at once for a signal that already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('already'));
    await expect(createConcurrencyLimit(1, 1).acquire(controller.signal)).rejects.toThrow('already');
  });
});
