import { describe, expect, it } from 'vitest';
import { createRingBuffer } from './ring-buffer.js';

describe('createRingBuffer', () => {
  it('keeps the newest entries oldest first once full', () => {
    const ring = createRingBuffer<number>(3);
    for (const value of [1, 2, 3, 4, 5]) ring.push(value);
    expect(ring.toArray()).toEqual([3, 4, 5]);
  });

  it('never grows past its capacity however many entries arrive', () => {
    const ring = createRingBuffer<number>(300);
    for (let value = 0; value < 100_000; value++) ring.push(value);
    expect(ring.size).toBe(300);
    expect(ring.toArray()[0]).toBe(99_700);
  });

  it('replaces the newest entry in place', () => {
    const ring = createRingBuffer<number>(2);
    ring.push(1);
    ring.push(2);
    ring.replaceLast(9);
    expect(ring.toArray()).toEqual([1, 9]);
    expect(ring.last()).toBe(9);
  });

  it('refuses a capacity that is not a positive whole number', () => {
    expect(() => createRingBuffer(0)).toThrow('at least 1');
  });
});
