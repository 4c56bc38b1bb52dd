import { describe, expect, it } from 'vitest';
import { createQueryCache } from './query-cache.js';

describe('createQueryCache', () => {
  it('returns what was stored until it expires', () => {
    let now = 0;
    const cache = createQueryCache(10, 100, () => now);
    cache.set('a', 'A');
    now = 99;
    expect(cache.get('a')).toBe('A');
    now = 100;
    expect(cache.get('a')).toBeUndefined();
  });

  it('forgets the least recently used entry past its size', () => {
    const cache = createQueryCache(2, 1000, () => 0);
    cache.set('a', 'A');
    cache.set('b', 'B');
    cache.get('a');
    cache.set('c', 'C');
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    expect(cache.get('c')).toBe('C');
  });

  it('keeps nothing when its size is 0', () => {
    const cache = createQueryCache(0, 1000, () => 0);
    cache.set('a', 'A');
    expect(cache.get('a')).toBeUndefined();
  });
});
