import { type ApprovalRuleStore, describeRule, type PendingApprovals } from '@macstats/core';
import {
  ApplicationCommandOptionType,
  type ChatInputCommandInteraction,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
} from 'discord.js';

/** `/approvals`, registered on every bot: its cards wait in the pending registry. */
export const APPROVALS_COMMAND: RESTPostAPIChatInputApplicationCommandsJSONBody = {
  name: 'approvals',
  description: 'List approvals waiting for an answer and the saved "Always" rules; revoke a rule.',
  options: [
    {
      type: ApplicationCommandOptionType.String,
      name: 'revoke',
      description: 'The id of a saved rule to revoke (calls it covered ask again)',
      required: false,
      max_length: 40,
    },
  ],
};

/** What `/approvals` reads: the pending cards and the saved rules. */
export interface DiscordApprovals {
  pending: PendingApprovals;
  rules?: ApprovalRuleStore | undefined;
  /** Forgets a conversation's "This conversation" answers (`/reset`). */
  forgetConversation?(conversationId: string): void;
}

/** Discord's embedded message limit, kept well inside. */
const MAX_CHARS = 1900;

/**
 * Runs `/approvals [revoke:<id>]`: the asker's (ephemeral) list of cards waiting for an answer —
 * each card's id, tool, rule and when it expires, never its call (the call may hold private
 * data) — and of the saved rules, each with its id; or revokes one rule.
 */
export async function approvalsCommand(
  interaction: ChatInputCommandInteraction,
  approvals: DiscordApprovals,
): Promise<string> {
  const revoke = interaction.options.getString('revoke')?.trim();
  if (revoke) {
    if (!approvals.rules) return 'This bot keeps no saved approval rules.';
    const rule = (await approvals.rules.list()).find((saved) => saved.id === revoke);
    if (!rule || !(await approvals.rules.revoke(revoke)))
      return `There is no saved approval rule "${revoke.slice(0, 40)}"; /approvals lists them.`;
    return `Revoked ${rule.id}: ${describeRule(rule)} asks again.`;
  }
  const lines: string[] = [];
  const waiting = approvals.pending.list();
  lines.push(
    waiting.length === 0 ? 'No approvals are waiting.' : `Waiting for an answer (${waiting.length}):`,
  );
  for (const card of waiting)
    lines.push(
      `- \`${card.id}\` **${card.tool}** (${card.rule}) asked on ${card.where}, denied <t:${Math.ceil(card.expiresAt.getTime() / 1000)}:R>`,
    );
  if (approvals.rules) {
    let rules: Awaited<ReturnType<ApprovalRuleStore['list']>> = [];
    try {
      rules = await approvals.rules.list();
    } catch (error) {
      lines.push((error as Error).message);
    }
    lines.push(rules.length === 0 ? 'No saved rules: every call that needs approval asks.' : 'Saved rules:');
    for (const rule of rules) lines.push(`- \`${rule.id}\` ${describeRule(rule)}`);
    if (rules.length > 0) lines.push('-# Revoke one with `/approvals revoke:<id>`.');
  }
  const text = lines.join('\n');
  return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
}
