import { MacstatsError } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { isModelFailure, withHint } from './failure-reply.js';

describe('isModelFailure', () => {
  it('recognises an error that says its server was not reachable, whatever its code', () => {
    expect(isModelFailure(new MacstatsError('OLLAMA_UNREACHABLE', 'down', { unreachable: true }))).toBe(true);
    expect(isModelFailure(new MacstatsError('OPENAI_UNREACHABLE', 'down', { unreachable: true }))).toBe(true);
    expect(
      isModelFailure(new Error('wrapped', { cause: new MacstatsError('X', 'y', { unreachable: true }) })),
    ).toBe(true);
  });

  it('recognises a refused connection deep in the cause chain', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:11434'), {
      code: 'ECONNREFUSED',
    });
    expect(
      isModelFailure(new Error('wrapped', { cause: new TypeError('fetch failed', { cause: refused }) })),
    ).toBe(true);
  });

  it('does not blame the model for other failures', () => {
    expect(isModelFailure(new TypeError('Cannot read properties of undefined'))).toBe(false);
    expect(isModelFailure(new MacstatsError('FETCH_BLOCKED', 'private address'))).toBe(false);
    expect(isModelFailure(undefined)).toBe(false);
    // A spelling is not a fact: only the `unreachable` field says the server was not reached.
    expect(isModelFailure('OLLAMA_UNREACHABLE')).toBe(false);
  });
});

describe('withHint', () => {
  it('adds the hint once', () => {
    expect(withHint('Ollama is not reachable.', '(Is Ollama configured?)')).toBe(
      'Ollama is not reachable. (Is Ollama configured?)',
    );
    expect(withHint('x (Is Ollama configured?)', '(Is Ollama configured?)')).toBe(
      'x (Is Ollama configured?)',
    );
  });
});
