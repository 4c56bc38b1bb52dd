import { join } from 'node:path';
import {
  APPROVAL_RULES_FILE,
  type ApprovalRule,
  type ApprovalRuleStore,
  createApprovalRuleStore,
  describeRule,
} from '@macstats/core';
import { plural } from '@macstats/core/internal';
import type { AppConfig } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';

/** The saved "Always" approval rules of this data folder. */
export function approvalRules(config: Pick<AppConfig, 'home'>): ApprovalRuleStore {
  return createApprovalRuleStore(join(config.home, APPROVAL_RULES_FILE));
}

/** One line per rule: its id, what it allows, when it was saved. */
function ruleLine(rule: ApprovalRule): string {
  return `${rule.id}  ${describeRule(rule)}  (saved ${rule.createdAt.slice(0, 16).replace('T', ' ')} UTC)`;
}

/** Reads the rules, or says in one sentence why they cannot be read (exit 3). */
async function readRules(store: ApprovalRuleStore, io: CommandIo): Promise<ApprovalRule[] | number> {
  try {
    return await store.list();
  } catch (error) {
    io.err(`macstats: ${(error as Error).message}`);
    return EXIT.config;
  }
}

/** `macstats approvals [list] [--json]`: the saved rules; pending cards live in the process that asked. */
export async function approvalsListCommand(
  config: AppConfig,
  io: CommandIo,
  options: { json?: boolean },
): Promise<number> {
  const rules = await readRules(approvalRules(config), io);
  if (typeof rules === 'number') return rules;
  if (options.json) {
    io.out(JSON.stringify(rules, null, 2));
    return EXIT.ok;
  }
  if (rules.length === 0) {
    io.out('No saved approval rules: every call that needs approval asks.');
    return EXIT.ok;
  }
  io.out(`${plural(rules.length, 'saved approval rule')}:`);
  for (const rule of rules) io.out(`  ${ruleLine(rule)}`);
  io.out('Revoke one with `macstats approvals revoke <id>`, all with `macstats approvals clear`.');
  return EXIT.ok;
}

/** `macstats approvals revoke <id>`: removes one rule; an unknown id is one sentence and exit 3. */
export async function approvalsRevokeCommand(config: AppConfig, io: CommandIo, id: string): Promise<number> {
  const store = approvalRules(config);
  const rules = await readRules(store, io);
  if (typeof rules === 'number') return rules;
  const rule = rules.find((saved) => saved.id === id);
  if (!rule || !(await store.revoke(id))) {
    io.err(
      `macstats: there is no saved approval rule ${JSON.stringify(id)}; \`macstats approvals\` lists them.`,
    );
    return EXIT.config;
  }
  io.out(`Revoked ${id}: ${describeRule(rule)} asks again.`);
  return EXIT.ok;
}

/** `macstats approvals clear`: removes every rule. */
export async function approvalsClearCommand(config: AppConfig, io: CommandIo): Promise<number> {
  const store = approvalRules(config);
  const rules = await readRules(store, io);
  if (typeof rules === 'number') return rules;
  const removed = await store.clear();
  io.out(
    removed === 0
      ? 'No saved approval rules to clear.'
      : `Cleared ${plural(removed, 'saved approval rule')}.`,
  );
  return EXIT.ok;
}
