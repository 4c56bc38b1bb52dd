import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createApprovalRuleStore } from '@macstats/core';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, runCli, tempHome } from './helpers.js';

afterEach(cleanUp);

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
      "unknown command 'frob' for 'macstats approvals' (it takes list, revoke or clear)",
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
});
