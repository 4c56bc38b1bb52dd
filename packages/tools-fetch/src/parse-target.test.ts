import { describe, expect, it } from 'vitest';
import { parseTarget } from './parse-target.js';

const href = (argument: string) => {
  const target = parseTarget(argument);
  return typeof target === 'string' ? target : target.href;
};

describe('parseTarget', () => {
  it('takes the first word of the argument', () => {
    expect(href('https://example.com/a and then some')).toBe('https://example.com/a');
  });

  it('stops at another tool written on the same line', () => {
    expect(href('https://example.com/a;BRAVE_SEARCH: more')).toBe('https://example.com/a');
    expect(href('https://example.com/a; FETCH_URL: https://example.com/b')).toBe('https://example.com/a');
  });

  it('drops the wrapping and trailing punctuation models add', () => {
    expect(href('<https://example.com/a>.')).toBe('https://example.com/a');
    expect(href('"https://example.com/a",')).toBe('https://example.com/a');
    expect(href('https://example.com/a;')).toBe('https://example.com/a');
  });

  it('keeps a closing parenthesis the URL opened', () => {
    expect(href('https://en.wikipedia.org/wiki/Rust_(programming_language)')).toBe(
      'https://en.wikipedia.org/wiki/Rust_(programming_language)',
    );
    expect(href('(https://example.com/a)')).toBe('https://example.com/a');
  });

  it('assumes https when no scheme is given', () => {
    expect(href('example.com/news')).toBe('https://example.com/news');
    expect(href('localhost:8080/x')).toBe('https://localhost:8080/x');
  });

  it('keeps other schemes for the guard to refuse', () => {
    expect(href('file:///etc/passwd')).toBe('file:///etc/passwd');
  });

  it('asks for a URL when the argument is empty', () => {
    expect(parseTarget('  ')).toBe('FETCH_URL needs a URL, as in FETCH_URL: https://example.com/page');
  });

  it('says when the argument is not a URL', () => {
    expect(parseTarget('https://example.com:99999/')).toBe(
      'FETCH_URL could not read "https://example.com:99999/" as a URL; give a full URL such as https://example.com/page',
    );
  });
});
