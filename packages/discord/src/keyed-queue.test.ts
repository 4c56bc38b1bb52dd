import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue.js';

/** A promise the test resolves by hand. */
function gate() {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe('KeyedQueue', () => {
  it('runs the tasks of one key one at a time, in order', async () => {
    const queue = new KeyedQueue();
    const order: string[] = [];
    const first = gate();
    const a = queue.run('channel', async () => {
      order.push('a start');
      await first.promise;
      order.push('a end');
    });
    const b = queue.run('channel', async () => {
      order.push('b');
    });
    await Promise.resolve();
    expect(order).toEqual(['a start']);
    first.open();
    await Promise.all([a, b]);
    expect(order).toEqual(['a start', 'a end', 'b']);
  });

  it('runs different keys at the same time', async () => {
    const queue = new KeyedQueue();
    const blocker = gate();
    const started: string[] = [];
    const a = queue.run('one', async () => {
      started.push('one');
      await blocker.promise;
    });
    const b = queue.run('two', async () => {
      started.push('two');
    });
    await b;
    expect(started).toEqual(['one', 'two']);
    blocker.open();
    await a;
  });

  it('goes on with the next task after one fails, and hands the failure to its caller', async () => {
    const queue = new KeyedQueue();
    const failed = queue.run('channel', async () => {
      throw new Error('boom');
    });
    const next = queue.run('channel', async () => 'fine');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('fine');
  });

  it('forgets a key once its tasks are done', async () => {
    const queue = new KeyedQueue();
    await queue.run('channel', async () => undefined);
    await queue.idle();
    expect(queue.activeKeys).toBe(0);
  });

  it('waits in idle for tasks added while waiting', async () => {
    const queue = new KeyedQueue();
    const done: string[] = [];
    void queue.run('a', async () => {
      void queue.run('b', async () => {
        done.push('b');
      });
      done.push('a');
    });
    await queue.idle();
    expect(done).toEqual(['a', 'b']);
  });
});
