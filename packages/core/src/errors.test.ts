import { describe, expect, it } from 'vitest';
import { MacstatsError, toToolResult } from './errors.js';

describe('MacstatsError', () => {
  it('is recognised by isInstance across copies of the class', () => {
    const error = new MacstatsError('OLLAMA_UNREACHABLE', 'Ollama is not running', {
      cause: new Error('ECONNREFUSED'),
    });
    const foreign = Object.assign(new Error('x'), { [Symbol.for('macstats.error')]: true, code: 'X' });
    expect(MacstatsError.isInstance(error)).toBe(true);
    expect(MacstatsError.isInstance(foreign)).toBe(true);
    expect(MacstatsError.isInstance(new Error('plain'))).toBe(false);
    expect(error.code).toBe('OLLAMA_UNREACHABLE');
    expect((error.cause as Error).message).toBe('ECONNREFUSED');
  });
});

describe('toToolResult', () => {
  it('wraps a string and passes a result through', () => {
    expect(toToolResult('hello')).toEqual({ text: 'hello' });
    expect(toToolResult({ text: 'no', isError: true })).toEqual({ text: 'no', isError: true });
  });
});
