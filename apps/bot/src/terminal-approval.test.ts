import { PassThrough } from 'node:stream';
import { silentLogger } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { createTerminalApprover, isYes, terminalAnswer } from './terminal-approval.js';

describe('isYes', () => {
  it('approves y and yes in any case, and nothing else', () => {
    for (const answer of ['y', 'Y', 'yes', 'YES', ' y ']) expect(isYes(answer)).toBe(true);
    for (const answer of ['', 'n', 'N', 'no', 'yep', 'sure', 'y y']) expect(isYes(answer)).toBe(false);
  });
});

describe('createTerminalApprover', () => {
  it('gives no hook when standard input is not a terminal, so such calls are refused', () => {
    const input = new PassThrough();
    expect(
      createTerminalApprover({ input, output: new PassThrough(), say: () => {}, logger: silentLogger }),
    ).toBeUndefined();
  });
});

describe('terminalAnswer', () => {
  const all = { conversation: true, always: true };
  it('reads y, c and a as once, this conversation and always, and anything else as deny', () => {
    expect(['y', 'yes', ' Y '].map((typed) => terminalAnswer(typed, all))).toEqual(['once', 'once', 'once']);
    expect(['c', 'conversation', 'C'].map((typed) => terminalAnswer(typed, all))).toEqual([
      'conversation',
      'conversation',
      'conversation',
    ]);
    expect(['a', 'always'].map((typed) => terminalAnswer(typed, all))).toEqual(['always', 'always']);
    expect(['', 'n', 'sure', 'ca'].map((typed) => terminalAnswer(typed, all))).toEqual([
      'deny',
      'deny',
      'deny',
      'deny',
    ]);
  });

  it('denies c and a where the card does not offer them', () => {
    const none = { conversation: false, always: false };
    expect(terminalAnswer('c', none)).toBe('deny');
    expect(terminalAnswer('a', { conversation: true, always: false })).toBe('deny');
  });
});
