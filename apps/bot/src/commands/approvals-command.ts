import { join } from 'node:path';
import {
  APPROVAL_RULES_FILE,
  type ApprovalAnswer,
  type ApprovalRule,
  type ApprovalRuleStore,
  createApprovalRuleStore,
  createSharedPendingApprovals,
  describeRule,
  PENDING_APPROVALS_DIR,
  type PendingApproval,
  type SharedPendingApprovals,
} from '@macstats/core';
import { oneLine, plural } from '@macstats/core/internal';
import type { AppConfig } from '../app-config.js';
import { type CommandIo, EXIT } from '../command-io.js';

/** The saved "Always" approval rules of this data folder. */
export function approvalRules(config: Pick<AppConfig, 'home'>): ApprovalRuleStore {
  return createApprovalRuleStore(join(config.home, APPROVAL_RULES_FILE));
}

/**
 * The approval cards waiting in every process on this data folder (`macstats start`, the
 * dashboard): listed and answered from here too. `close()` it when done.
 */
export function pendingApprovals(config: Pick<AppConfig, 'home'>): SharedPendingApprovals {
  return createSharedPendingApprovals({ dir: join(config.home, PENDING_APPROVALS_DIR) });
}

const minute = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/** One line per rule: its id, what it allows, when it was saved. */
function ruleLine(rule: ApprovalRule): string {
  if (rule.conversationId !== undefined)
    return `${rule.id}  ${describeRule({ ...rule, expiresAt: undefined })} until ${minute(rule.expiresAt ?? '')}`;
  return `${rule.id}  ${describeRule(rule)}  (saved ${minute(rule.createdAt)})`;
}

/** One line per waiting card: its id, tool and rule, where it was asked, when it is denied, the call. */
function cardLine(card: PendingApproval): string {
  return `${card.id}  ${card.tool} (${card.rule}) asked on ${card.where}, denied at ${minute(card.expiresAt.toISOString())}: ${oneLine(card.argument, 200)}`;
}

/** Prints the cards waiting, if any. */
function listPending(config: AppConfig, io: CommandIo): void {
  const pending = pendingApprovals(config);
  try {
    const waiting = pending.list();
    if (waiting.length === 0) return;
    io.out(`${plural(waiting.length, 'approval')} waiting for an answer:`);
    for (const card of waiting) io.out(`  ${cardLine(card)}`);
    io.out('Answer one with `macstats approvals answer <id> once|conversation|always|deny`.');
  } finally {
    pending.close();
  }
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

/** `macstats approvals [list] [--json]`: the cards waiting anywhere on this data folder, and the saved rules (`--json`: the rules). */
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
  listPending(config, io);
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

const ANSWERS: readonly ApprovalAnswer[] = ['once', 'conversation', 'always', 'deny'];

/**
 * `macstats approvals answer <id> <once|conversation|always|deny>`: answers a card waiting in any
 * process on this data folder (the process that asked runs or refuses the call, and its card in
 * Discord or the dashboard closes). A card answered already, or unknown, is one sentence and exit 3.
 */
export async function approvalsAnswerCommand(
  config: AppConfig,
  io: CommandIo,
  id: string,
  word: string,
): Promise<number> {
  const answer = word.trim().toLowerCase() as ApprovalAnswer;
  if (!ANSWERS.includes(answer)) {
    io.err(`macstats: answer ${JSON.stringify(word)} is none of once, conversation, always or deny.`);
    return EXIT.usage;
  }
  const pending = pendingApprovals(config);
  try {
    const card = pending.list().find((waiting) => waiting.id === id);
    const result = pending.answer(id, answer, 'the terminal');
    if (result !== 'answered') {
      io.err(
        result === 'already-answered'
          ? `macstats: approval ${JSON.stringify(id)} was already answered (or it expired); nothing changed.`
          : `macstats: no approval ${JSON.stringify(id)} is waiting; \`macstats approvals\` lists them.`,
      );
      return EXIT.config;
    }
    const given = pending.outcome(id) ?? answer;
    const what = card ? `${card.tool} (${card.rule}) asked on ${card.where}` : `approval ${id}`;
    const how = given === 'once' ? ' once' : given === 'always' ? ', always' : ' for its conversation';
    io.out(given === 'deny' ? `Denied ${what}.` : `Approved ${what}${how}.`);
    return EXIT.ok;
  } finally {
    pending.close();
  }
}
