import { describe, expect, it } from 'vitest';
import { prepareQuery, queryKey } from './query.js';

describe('prepareQuery', () => {
  it('trims, unquotes and collapses spaces', () => {
    expect(prepareQuery('  "rust   async  book" ')).toEqual({ query: 'rust async book', shortened: false });
  });

  it('keeps at most 50 words', () => {
    const words = Array.from({ length: 51 }, (_, index) => `x${index}`);
    expect(prepareQuery(words.join(' '))).toEqual({ query: words.slice(0, 50).join(' '), shortened: true });
  });

  it('keeps at most 400 characters, cutting at a word', () => {
    const prepared = prepareQuery(`${'a'.repeat(300)} ${'b'.repeat(150)}`);
    expect(prepared).toEqual({ query: 'a'.repeat(300), shortened: true });
  });

  it('cuts a single word longer than 400 characters', () => {
    expect(prepareQuery('é'.repeat(500))).toEqual({ query: 'é'.repeat(400), shortened: true });
  });

  it('stops at another tool call on the same line but keeps ordinary semicolons', () => {
    expect(prepareQuery('a; b; RUN_CMD: ls')).toEqual({ query: 'a; b', shortened: false });
  });

  it('asks for a query when none is left', () => {
    expect(prepareQuery('""')).toBe(
      'BRAVE_SEARCH needs a query, as in BRAVE_SEARCH: weather in Lisbon tomorrow',
    );
  });
});

describe('queryKey', () => {
  it('ignores case but not the count', () => {
    expect(queryKey('Node', 5)).toBe(queryKey('node', 5));
    expect(queryKey('node', 5)).not.toBe(queryKey('node', 6));
  });
});
