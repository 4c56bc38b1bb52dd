import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { type ApprovalRequest, createApprovalRuleStore, silentLogger } from '@macstats/core';
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

describe('createTerminalApprover with saved rules', () => {
  it('saves a rule on a, and then runs the same send without asking', async () => {
    const home = await mkdtemp(join(tmpdir(), 'terminal-rules-'));
    try {
      const rules = createApprovalRuleStore(join(home, 'approval-rules.json'));
      const input = Object.assign(new PassThrough(), { isTTY: true });
      const output = new PassThrough();
      const said: string[] = [];
      const approve = createTerminalApprover({
        input,
        output,
        say: (line) => said.push(line),
        logger: silentLogger,
        rules,
      });
      const request = (): ApprovalRequest => ({
        tool: 'POST',
        argument: 'hello',
        rule: 'send',
        reason: 'POST would send data to mcp:notes/post.',
        conversationId: 'c1',
        scope: { tool: 'POST', rule: 'send', target: 'mcp:notes/post', remember: 'always' },
        signal: new AbortController().signal,
        timeoutMs: 60_000,
      });
      let shown = '';
      output.on('data', (chunk: Buffer) => {
        shown += chunk.toString();
      });
      const first = approve?.(request());
      await new Promise<void>((resolve) => {
        const look = () => (shown.includes('Allow it?') ? resolve() : setImmediate(look));
        look();
      });
      expect(shown).toContain('Allow it? [y/c/a/N] (y once, c this conversation, a always; denied in 60 s)');
      input.write('a\n');
      expect(await first).toBe(true);
      expect(said.at(-1)).toBe(
        '✓ Approved: POST runs. Saved: POST may send to mcp:notes/post from now on (`macstats approvals` lists and revokes it).',
      );
      expect(await rules.list()).toMatchObject([{ tool: 'POST', rule: 'send', target: 'mcp:notes/post' }]);
      const asksBefore = said.length;
      expect(await approve?.({ ...request(), conversationId: 'c2' })).toBe(true);
      expect(said.length).toBe(asksBefore);
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  });
});
