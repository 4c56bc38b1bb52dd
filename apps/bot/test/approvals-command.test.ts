import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type ApprovalRequest,
  createApprovalRuleStore,
  createSharedPendingApprovals,
  type SharedPendingApprovals,
} from '@macstats/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';

const registries: SharedPendingApprovals[] = [];
afterEach(async () => {
  for (const registry of registries.splice(0)) registry.close();
  await cleanUp();
});

/** This test's process as `macstats start` would be: a card waiting in the data folder. */
function cardWaiting(home: string) {
  const pending = createSharedPendingApprovals({ dir: join(home, 'approvals') });
  registries.push(pending);
  const request: ApprovalRequest = {
    tool: 'MCP_NOTES',
    argument: 'post "hello"',
    rule: 'send',
    reason: 'It would send data to mcp:notes/post.',
    conversationId: 'discord-42',
    scope: { tool: 'MCP_NOTES', rule: 'send', target: 'mcp:notes/post', remember: 'always' },
    signal: new AbortController().signal,
    timeoutMs: 600_000,
  };
  return { pending, ...pending.open(request, 'discord') };
}

/** A data folder with two saved "Always" rules, as the cards save them. */
async function homeWithRules() {
  const home = await tempHome();
  const rules = createApprovalRuleStore(join(home, 'approval-rules.json'));
  const post = await rules.add({
    tool: 'MCP_NOTES',
    rule: 'send',
    target: 'mcp:notes/post',
    remember: 'always',
  });
  const page = await rules.add({
    tool: 'BROWSER',
    rule: 'send',
    target: 'https://bank.example',
    remember: 'always',
  });
  return { home, rules, post, page };
}

describe('macstats approvals', () => {
  it('lists the saved rules with their ids', async () => {
    const { home, post, page } = await homeWithRules();
    const { code, stdout } = await runCli(['approvals'], home);
    expect(code).toBe(0);
    expect(stdout).toContain('2 saved approval rules:');
    expect(stdout).toMatch(
      new RegExp(
        `${post.id} {2}MCP_NOTES may send to mcp:notes/post {2}\\(saved \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\)`,
      ),
    );
    expect(stdout).toContain(`${page.id}  BROWSER may send to https://bank.example`);
  });

  it('prints them as JSON with --json', async () => {
    const { home, post } = await homeWithRules();
    const { code, stdout } = await runCli(['approvals', 'list', '--json'], home);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)[0]).toMatchObject({
      id: post.id,
      tool: 'MCP_NOTES',
      rule: 'send',
      target: 'mcp:notes/post',
    });
  });

  it('revokes one rule, keeping the file 0600, and refuses an unknown id with one sentence', async () => {
    const { home, rules, post, page } = await homeWithRules();
    const revoked = await runCli(['approvals', 'revoke', post.id], home);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout.trim()).toBe(
      `Revoked ${post.id}: MCP_NOTES may send to mcp:notes/post asks again.`,
    );
    expect((await rules.list()).map((rule) => rule.id)).toEqual([page.id]);
    expect((await stat(rules.file)).mode & 0o777).toBe(0o600);
    const unknown = await runCli(['approvals', 'revoke', post.id], home);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr.trim()).toBe(
      `macstats: there is no saved approval rule "${post.id}"; \`macstats approvals\` lists them.`,
    );
  });

  it('clears every rule', async () => {
    const { home, rules } = await homeWithRules();
    const { code, stdout } = await runCli(['approvals', 'clear'], home);
    expect(code).toBe(0);
    expect(stdout.trim()).toBe('Cleared 2 saved approval rules.');
    expect(await rules.list()).toEqual([]);
    expect((await runCli(['approvals'], home)).stdout.trim()).toBe(
      'No saved approval rules: every call that needs approval asks.',
    );
  });

  it('names a mistyped subcommand in one sentence, exit 2', async () => {
    const { code, stderr } = await runCli(['approvals', 'frob'], await tempHome());
    expect(code).toBe(2);
    expect(stderr).toContain(
      "unknown command 'frob' for 'macstats approvals' (it takes list, answer, revoke or clear)",
    );
    expect(stderr).not.toContain('Usage:');
  });

  it('says in one sentence that a broken rules file cannot be read, and leaves it as it was', async () => {
    const home = await tempHome();
    const { writeFile, readFile } = await import('node:fs/promises');
    await writeFile(join(home, 'approval-rules.json'), '{"rules": [1]}');
    const { code, stderr } = await runCli(['approvals', 'clear'], home);
    expect(code).toBe(3);
    expect(stderr.trim()).toBe(
      `macstats: ${join(home, 'approval-rules.json')} does not hold a list of approval rules; fix or remove it to use saved approval rules.`,
    );
    expect(await readFile(join(home, 'approval-rules.json'), 'utf8')).toBe('{"rules": [1]}');
  });

  it('lists an approval waiting in another process, answers it there once, and tells a second answer so', async () => {
    const home = await tempHome();
    const { approval, answered } = cardWaiting(home);
    const listed = await runCli(['approvals'], home);
    expect(listed.stdout).toContain('1 approval waiting for an answer:');
    expect(listed.stdout).toMatch(
      new RegExp(
        `${approval.id} {2}MCP_NOTES \\(send\\) asked on discord, denied at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC: post "hello"`,
      ),
    );
    const given = await runCli(['approvals', 'answer', approval.id, 'always'], home);
    expect(given.code).toBe(0);
    expect(given.stdout.trim()).toBe('Approved MCP_NOTES (send) asked on discord, always.');
    expect(await answered).toBe('always');
    const again = await runCli(['approvals', 'answer', approval.id, 'deny'], home);
    expect(again.code).toBe(3);
    expect(again.stderr.trim()).toBe(
      `macstats: approval "${approval.id}" was already answered (or it expired); nothing changed.`,
    );
    expect((await runCli(['approvals'], home)).stdout).not.toContain('waiting for an answer');
  });

  it('refuses an answer that is none of the four in one sentence, exit 2, and the card keeps waiting', async () => {
    const home = await tempHome();
    const { pending, approval } = cardWaiting(home);
    const { code, stderr } = await runCli(['approvals', 'answer', approval.id, 'yes'], home);
    expect(code).toBe(2);
    expect(stderr.trim()).toBe('macstats: answer "yes" is none of once, conversation, always or deny.');
    expect(pending.list().map((card) => card.id)).toEqual([approval.id]);
    const unknown = await runCli(['approvals', 'answer', 'anosuch', 'once'], home);
    expect(unknown.code).toBe(3);
    expect(unknown.stderr.trim()).toBe(
      'macstats: no approval "anosuch" is waiting; `macstats approvals` lists them.',
    );
  });

  it('lists "this conversation" answers with their conversation and end, and revokes one', async () => {
    const { home, rules } = await homeWithRules();
    const kept = await rules.add(
      { tool: 'MEMORY', rule: 'persist', target: 'add', remember: 'conversation' },
      'discord-42',
    );
    const { stdout } = await runCli(['approvals'], home);
    expect(stdout).toContain('3 saved approval rules:');
    expect(stdout).toMatch(
      new RegExp(
        `${kept.id} {2}MEMORY may change saved state \\(add\\) in conversation discord-42 until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC`,
      ),
    );
    const revoked = await runCli(['approvals', 'revoke', kept.id], home);
    expect(revoked.code).toBe(0);
    expect((await rules.list()).map((rule) => rule.id)).not.toContain(kept.id);
  });
});
