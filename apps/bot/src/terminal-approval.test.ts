import { PassThrough } from 'node:stream';
import { silentLogger } from '@macstats/core';
import { describe, expect, it } from 'vitest';
import { createTerminalApprover, isYes } from './terminal-approval.js';

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
