import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContextLabels } from '../containment/context-labels.js';
import type { ApprovalAnswer, ApprovalRequest, ApprovalScope } from '../types.js';
import { APPROVAL_RULES_FILE, type ApprovalRuleStore, createApprovalRuleStore } from './approval-rules.js';
import { createPendingApprovals } from './pending-approvals.js';
import { rememberApprovals } from './remember-approvals.js';

let home: string;
let rules: ApprovalRuleStore;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'approval-rules-'));
  rules = createApprovalRuleStore(join(home, 'data', APPROVAL_RULES_FILE));
});
afterEach(() => rm(home, { recursive: true, force: true }));

const files: ApprovalScope = {
  tool: 'MCP_FILES',
  rule: 'send',
  target: 'mcp:files/write',
  remember: 'always',
};

function request(scope: ApprovalScope, conversationId?: string): ApprovalRequest {
  return {
    tool: scope.tool,
    argument: 'x',
    rule: scope.rule,
    reason: 'why',
    ...(conversationId ? { conversationId } : {}),
    scope,
    signal: new AbortController().signal,
    timeoutMs: 60_000,
  };
}

function counting(answer: ApprovalAnswer) {
  const asked: ApprovalRequest[] = [];
  const ask = async (r: ApprovalRequest) => {
    asked.push(r);
    return answer;
  };
  return { asked, ask };
}

describe('saved approval rules', () => {
  it('saves an Always answer in a 0600 file under a 0700 folder, lists and revokes it', async () => {
    const rule = await rules.add(files);
    expect((await stat(rules.file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(home, 'data'))).mode & 0o777).toBe(0o700);
    expect(await rules.list()).toEqual([rule]);
    expect(await rules.find(files)).toEqual(rule);
    expect(await rules.revoke(rule.id)).toBe(true);
    expect(await rules.revoke(rule.id)).toBe(false);
    expect(await rules.find(files)).toBeUndefined();
  });

  it('never finds a rule for a scope that may not be remembered', async () => {
    await rules.add(files);
    expect(await rules.find({ ...files, remember: 'none' })).toBeUndefined();
  });

  it('covers only the same tool, rule and destination', async () => {
    await rules.add(files);
    expect(await rules.find({ ...files, target: 'mcp:files/delete' })).toBeUndefined();
    expect(await rules.find({ ...files, tool: 'MCP_OTHER' })).toBeUndefined();
    expect(await rules.find({ ...files, rule: 'persist' })).toBeUndefined();
  });

  it('refuses a file it did not write with one sentence and leaves it as it was', async () => {
    await rules.add(files);
    await writeFile(rules.file, '{"rules": 3}');
    await expect(rules.list()).rejects.toThrow(/does not hold a list of approval rules/);
    await expect(rules.add(files)).rejects.toThrow(/fix or remove it/);
    expect(await readFile(rules.file, 'utf8')).toBe('{"rules": 3}');
  });

  it('clears every rule', async () => {
    await rules.add(files);
    await rules.add({ tool: 'MEMORY', rule: 'persist', target: 'save', remember: 'always' });
    expect(await rules.clear()).toBe(2);
    expect(await rules.list()).toEqual([]);
  });
});

describe('rememberApprovals', () => {
  it('asks once after Always, then runs the same scope without asking, in any conversation', async () => {
    const person = counting('always');
    const approve = rememberApprovals(person.ask, { rules });
    expect(await approve(request(files, 'c1'))).toBe(true);
    expect(await approve(request(files, 'c2'))).toBe(true);
    expect(person.asked).toHaveLength(1);
  });

  it('remembers This conversation only in that conversation, and no Always rule', async () => {
    const person = counting('conversation');
    const approve = rememberApprovals(person.ask, { rules });
    await approve(request(files, 'c1'));
    await approve(request(files, 'c1'));
    await approve(request(files, 'c2'));
    expect(person.asked.map((r) => r.conversationId)).toEqual(['c1', 'c2']);
    expect((await rules.list()).map((rule) => rule.conversationId)).toEqual(['c1', 'c2']);
  });

  it('treats Always on a destination only outside content named as once, and asks again', async () => {
    const person = counting('always');
    const approve = rememberApprovals(person.ask, { rules });
    const outsideLink: ApprovalScope = {
      tool: 'FETCH_URL',
      rule: 'send',
      target: 'https://evil.example',
      remember: 'none',
    };
    expect(await approve(request(outsideLink, 'c1'))).toBe(true);
    expect(await approve(request(outsideLink, 'c1'))).toBe(true);
    expect(person.asked).toHaveLength(2);
    expect(await rules.list()).toEqual([]);
  });

  it('keeps Always on a persisting call for this conversation only: no standing rule lets a later page plant state', async () => {
    const person = counting('always');
    const approve = rememberApprovals(person.ask, { rules });
    const save: ApprovalScope = { tool: 'MEMORY', rule: 'persist', target: 'add', remember: 'conversation' };
    await approve(request(save, 'c1'));
    await approve(request(save, 'c1'));
    await approve(request(save, 'c2'));
    expect(person.asked.map((r) => r.conversationId)).toEqual(['c1', 'c2']);
    expect((await rules.list()).every((rule) => rule.conversationId !== undefined)).toBe(true);
  });

  it('denies on Deny and remembers nothing', async () => {
    const person = counting('deny');
    const approve = rememberApprovals(person.ask, { rules });
    expect(await approve(request(files, 'c1'))).toBe(false);
    expect(await approve(request(files, 'c1'))).toBe(false);
    expect(person.asked).toHaveLength(2);
  });
});

describe('the scope the policy derives', () => {
  function context(question: string): ContextLabels {
    const labels = new ContextLabels(question);
    labels.absorb('RUN_CMD cat secret.txt', { private: true }, 'hunter2');
    labels.absorb(
      'FETCH_URL https://news.example/',
      { outside: true, sendsTo: 'https://news.example/' },
      'links',
    );
    return labels;
  }

  it('lets a configured server be remembered, scoped to the server and tool', () => {
    const verdict = context('summarise https://news.example/').check('MCP_FILES', {
      sendsTo: 'mcp:files/write',
    });
    expect(verdict).toMatchObject({
      action: 'ask',
      destination: { target: 'mcp:files/write', rememberable: true },
    });
  });

  it('never lets a page the user did not name be remembered for text typed into it', () => {
    const verdict = context('summarise https://news.example/').check('BROWSER', {
      sendsTo: 'https://form.example/login',
      payload: ['hunter2'],
      payloadSeenByScripts: true,
    });
    expect(verdict).toMatchObject({
      action: 'ask',
      destination: { target: 'https://form.example', rememberable: false },
    });
  });

  it('lets a page the user named be remembered by its origin', () => {
    const verdict = context(
      'summarise https://news.example/ then log in at https://form.example/login',
    ).check('BROWSER', {
      sendsTo: 'https://form.example/login',
      payload: ['hunter2'],
      payloadSeenByScripts: true,
    });
    expect(verdict).toMatchObject({
      action: 'ask',
      destination: { target: 'https://form.example', rememberable: true },
    });
  });
});

describe('pending approvals', () => {
  it('lists a card with its expiry, resolves it once, and reports a second answer as already answered', async () => {
    const now = new Date('2026-11-29T00:00:00Z');
    const pending = createPendingApprovals({ now: () => now });
    const events: string[] = [];
    pending.subscribe((event) =>
      events.push(event.type === 'answered' ? `answered:${event.outcome}` : 'opened'),
    );
    const { approval, answered } = pending.open(request(files, 'c1'), 'terminal');
    expect(pending.list()).toEqual([approval]);
    expect(approval.expiresAt.toISOString()).toBe('2026-11-29T00:01:00.000Z');
    expect(pending.answer(approval.id, 'conversation')).toBe('answered');
    expect(await answered).toBe('conversation');
    expect(pending.answer(approval.id, 'deny')).toBe('already-answered');
    expect(pending.answer('nope', 'deny')).toBe('unknown');
    expect(pending.list()).toEqual([]);
    expect(events).toEqual(['opened', 'answered:conversation']);
  });

  it('denies and reports expired when the request runs out of time', async () => {
    const pending = createPendingApprovals();
    const controller = new AbortController();
    const { approval, answered } = pending.open({ ...request(files), signal: controller.signal }, 'discord');
    controller.abort();
    expect(await answered).toBe('deny');
    expect(pending.outcome(approval.id)).toBe('expired');
    expect(pending.answer(approval.id, 'once')).toBe('already-answered');
  });

  it('turns a remembered answer to a card that may not be remembered into once', async () => {
    const pending = createPendingApprovals();
    const { approval, answered } = pending.open(request({ ...files, remember: 'none' }), 'dashboard');
    pending.answer(approval.id, 'always');
    expect(await answered).toBe('once');
  });
});
