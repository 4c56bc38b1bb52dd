import { describe, expect, it } from 'vitest';
import { findDeniedPart, isDeniedName } from './denied-names.js';

const DENIED = ['.config.env', '*.pem'];

describe('isDeniedName', () => {
  it('matches an exact name in any case', () => {
    expect(isDeniedName('.config.env', DENIED)).toBe(true);
    expect(isDeniedName('.CONFIG.ENV', DENIED)).toBe(true);
    expect(isDeniedName('config.env', DENIED)).toBe(false);
  });

  it('matches a *.suffix pattern', () => {
    expect(isDeniedName('server.PEM', DENIED)).toBe(true);
    expect(isDeniedName('pem.txt', DENIED)).toBe(false);
  });
});

describe('findDeniedPart', () => {
  it('finds a denied folder or file anywhere in a relative path', () => {
    expect(findDeniedPart('keys/a.pem', DENIED)).toBe('a.pem');
    expect(findDeniedPart('a.pem/inside.txt', DENIED)).toBe('a.pem');
    expect(findDeniedPart('task/file.md', DENIED)).toBeUndefined();
    expect(findDeniedPart('', DENIED)).toBeUndefined();
  });
});
