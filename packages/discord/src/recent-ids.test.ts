import { describe, expect, it } from 'vitest';
import { RecentIds } from './recent-ids.js';

describe('RecentIds', () => {
  it('reports an id seen before', () => {
    const ids = new RecentIds(10);
    expect(ids.add('a')).toBe(true);
    expect(ids.add('a')).toBe(false);
  });

  it('forgets the oldest id past its limit', () => {
    const ids = new RecentIds(2);
    ids.add('a');
    ids.add('b');
    ids.add('c');
    expect(ids.add('a')).toBe(true);
    expect(ids.add('c')).toBe(false);
  });
});
