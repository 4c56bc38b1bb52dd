import { describe, expect, it } from 'vitest';
import { CallGuard, callKey } from './call-guard.js';

describe('CallGuard', () => {
  it('runs a first call', () => {
    expect(new CallGuard().check('FETCH_URL', 'https://a.example')).toBe('run');
  });

  it('refuses the same call again after normalising whitespace and case', () => {
    const guard = new CallGuard();
    guard.check('BRAVE_SEARCH', 'Weather  in Paris');
    expect(guard.check('brave_search', ' weather in paris ')).toBe('repeat');
  });

  it('breaks an A-B-A-B cycle', () => {
    const guard = new CallGuard();
    expect(['a', 'b', 'a', 'b'].map((argument) => guard.check('T', argument))).toEqual([
      'run',
      'run',
      'repeat',
      'cycle',
    ]);
  });

  it('breaks the same call asked for three times running', () => {
    const guard = new CallGuard();
    expect(['a', 'a', 'a'].map((argument) => guard.check('T', argument))).toEqual(['run', 'repeat', 'cycle']);
  });

  it('counts failures in a row and resets on success', () => {
    const guard = new CallGuard();
    expect([true, true, false, true].map((failed) => guard.recordOutcome(failed))).toEqual([1, 2, 0, 1]);
  });

  it('builds the same key for calls that differ only in spacing and case', () => {
    expect(callKey('fetch_url', ' HTTPS://A.example  ')).toBe(callKey('FETCH_URL', 'https://a.example'));
  });
});
