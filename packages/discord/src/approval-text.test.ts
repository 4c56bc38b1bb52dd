import { describe, expect, it } from 'vitest';
import { approvalPromptText, decidedPromptText, refusedCallsNote } from './approval-text.js';

const request = {
  tool: 'SCHEDULER',
  argument: 'add `rm -rf` daily',
  reason: 'SCHEDULER would change saved state.',
};

describe('approval prompt text', () => {
  it('mentions the asker, names the call with its backticks made harmless, and gives the expiry as a Discord timestamp', () => {
    const text = approvalPromptText(request, '42', 1_700_000_000_500);
    expect(text.split('\n')).toEqual([
      '<@42> this needs your approval: **SCHEDULER** `add ˋrm -rfˋ daily`',
      '> SCHEDULER would change saved state.',
      '-# Only you can decide. Without an answer it is denied <t:1700000001:R>.',
    ]);
  });

  it('stays inside Discord’s 2,000 characters for any argument and reason', () => {
    const text = approvalPromptText(
      { tool: 'X', argument: 'a'.repeat(5000), reason: 'b'.repeat(5000) },
      '42',
      0,
    );
    expect(text.length).toBeLessThan(2000);
    expect(decidedPromptText(text, 'expired', '42').length).toBeLessThan(2000);
  });

  it('replaces the expiry line with how the prompt ended', () => {
    const text = approvalPromptText(request, '42', 0);
    const decided = decidedPromptText(text, 'denied', '42');
    expect(decided.split('\n').at(-1)).toBe('-# ⛔ Denied by <@42>: not run.');
    expect(decided).toContain('**SCHEDULER**');
  });
});

describe('refusedCallsNote', () => {
  const call = (tool: string, decision?: 'approved' | 'refused') => ({
    tool,
    argument: '',
    result: { text: '' },
    durationMs: 0,
    ...(decision ? { containment: { decision, asked: true, rule: 'persist' as const, reason: '' } } : {}),
  });

  it('names each refused tool once, and nothing when none was refused', () => {
    expect(
      refusedCallsNote({ toolCalls: [call('A', 'refused'), call('B', 'approved'), call('A', 'refused')] }),
    ).toBe('-# Not run without approval: A.');
    expect(refusedCallsNote({ toolCalls: [call('A'), call('B', 'approved')] })).toBe('');
  });
});
