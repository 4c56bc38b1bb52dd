import { describe, expect, it } from 'vitest';
import { errorCode } from './network-errors.js';
import { oneLine } from './one-line.js';

describe('errorCode', () => {
  it('finds the code of a cause several levels down', () => {
    const refused = Object.assign(new Error('connect'), { code: 'ECONNREFUSED' });
    const error = new TypeError('fetch failed', { cause: new Error('wrapped', { cause: refused }) });
    expect(errorCode(error)).toBe('ECONNREFUSED');
  });

  it('skips codes that are not system codes, and says nothing when there is none', () => {
    expect(errorCode(Object.assign(new Error('x'), { code: 'not-a-code' }))).toBeUndefined();
    expect(errorCode(new Error('plain'))).toBeUndefined();
  });
});

describe('oneLine', () => {
  it('puts a message on one line and cuts it with an ellipsis', () => {
    expect(oneLine('a\n  b\tc')).toBe('a b c');
    expect(oneLine('x'.repeat(10), 5)).toBe('xxxx…');
  });
});
