import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApprovalRequest, ApprovalScope } from '../types.js';
import {
  APPROVAL_RULES_FILE,
  CONVERSATION_APPROVALS_FILE,
  createApprovalRuleStore,
  describeRule,
} from './approval-rules.js';
import { createApprovalMemory } from './remember-approvals.js';

let home: string;
let clock: number;
const now = () => new Date(clock);
const store = () =>
  createApprovalRuleStore(join(home, APPROVAL_RULES_FILE), { now, conversationTtlMs: 60_000 });
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'conversation-approvals-'));
  clock = Date.parse('2026-11-29T10:00:00Z');
});
afterEach(() => rm(home, { recursive: true, force: true }));

const page: ApprovalScope = {
  tool: 'FETCH_URL',
  rule: 'send',
  target: 'https://example.com',
  remember: 'always',
};

function request(conversationId: string): ApprovalRequest {
  return {
    tool: page.tool,
    argument: 'https://example.com/x',
    rule: page.rule,
    reason: 'why',
    conversationId,
    scope: page,
    signal: new AbortController().signal,
    timeoutMs: 60_000,
  };
}

/** An approver whose person answers "This conversation" and counts how often they were asked. */
function conversationAnswers() {
  let asked = 0;
  const memory = createApprovalMemory({ rules: store() });
  return {
    approve: memory.approver(async () => {
      asked += 1;
      return 'conversation';
    }),
    memory,
    asked: () => asked,
  };
}

describe('"this conversation" answers kept with their conversation', () => {
  it('still holds after a restart (a new memory on the same data folder), in that conversation only', async () => {
    const first = conversationAnswers();
    expect(await first.approve(request('c1'))).toBe(true);
    const restarted = conversationAnswers();
    expect(await restarted.approve(request('c1'))).toBe(true);
    expect(restarted.asked()).toBe(0);
    expect(await restarted.approve(request('c2'))).toBe(true);
    expect(restarted.asked()).toBe(1);
    const file = join(home, CONVERSATION_APPROVALS_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(join(home, APPROVAL_RULES_FILE), 'utf8').catch(() => 'none')).toBe('none');
  });

  it('ends when its time is up, and asks again', async () => {
    const person = conversationAnswers();
    await person.approve(request('c1'));
    clock += 60_001;
    expect(await store().list()).toEqual([]);
    await person.approve(request('c1'));
    expect(person.asked()).toBe(2);
  });

  it('is listed with its conversation and end, and revoked by its id like a rule', async () => {
    const person = conversationAnswers();
    await person.approve(request('c1'));
    const [rule] = await store().list();
    expect(rule).toMatchObject({ conversationId: 'c1', expiresAt: '2026-11-29T10:01:00.000Z' });
    expect(describeRule(rule!)).toBe(
      'FETCH_URL may send to https://example.com in conversation c1 until 2026-11-29T10:01:00.000Z',
    );
    expect(await store().revoke(rule!.id)).toBe(true);
    await person.approve(request('c1'));
    expect(person.asked()).toBe(2);
  });

  it('ends with its conversation (reset or deleted)', async () => {
    const person = conversationAnswers();
    await person.approve(request('c1'));
    await person.approve(request('c2'));
    expect(await store().forgetConversation('c1')).toBe(1);
    expect((await store().list()).map((rule) => rule.conversationId)).toEqual(['c2']);
  });

  it('refuses a file it did not write with one sentence and leaves it as it was', async () => {
    await writeFile(join(home, CONVERSATION_APPROVALS_FILE), '[1]');
    await expect(store().list()).rejects.toThrow(/does not hold a list of "this conversation" approvals/);
    await expect(store().add(page, 'c1')).rejects.toThrow(/fix or remove it/);
    expect(await readFile(join(home, CONVERSATION_APPROVALS_FILE), 'utf8')).toBe('[1]');
  });

  it('is cleared with the rules, and a broken file clears nothing', async () => {
    await store().add(page);
    await store().add(page, 'c1');
    expect(await store().clear()).toBe(2);
    expect(await store().list()).toEqual([]);
    await store().add(page);
    await writeFile(join(home, CONVERSATION_APPROVALS_FILE), '{');
    await expect(store().clear()).rejects.toThrow(/is not valid JSON/);
    expect(JSON.parse(await readFile(join(home, APPROVAL_RULES_FILE), 'utf8')).rules).toHaveLength(1);
  });

  it('never covers a scope that may not be remembered', async () => {
    await store().add(page, 'c1');
    expect(await store().find({ ...page, remember: 'none' }, 'c1')).toBeUndefined();
    expect(await store().find(page, 'c1')).toBeDefined();
  });
});
